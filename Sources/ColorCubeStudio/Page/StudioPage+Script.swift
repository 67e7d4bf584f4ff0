extension StudioPage {
    /// The page's script: it keeps the chain, asks the server for every picture (the server applies
    /// the looks), and shows the command line and export the server derives from the same chain.
    public static let script = #"""
        "use strict";
        const PREVIEW_WIDTH = 1024, THUMB_WIDTH = 160, STRIP_WIDTH = 96;
        const state = { photo: 0, chain: [], info: null, comparing: false, pending: null, loading: false };
        const $ = (id) => document.getElementById(id);

        function element(tag, attributes, children) {
          const node = document.createElement(tag);
          for (const [name, value] of Object.entries(attributes || {})) {
            if (name === "text") node.textContent = value;
            else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
            else node.setAttribute(name, value);
          }
          for (const child of children || []) node.appendChild(child);
          return node;
        }

        function chainQuery(nodes) {
          return nodes.length ? "&chain=" + encodeURIComponent(JSON.stringify(nodes)) : "";
        }

        function imageURL(nodes, width) {
          return "/api/image?photo=" + state.photo + "&width=" + width + chainQuery(nodes);
        }

        function say(text) { $("message").textContent = text || ""; }

        async function explain(url) {
          try {
            const response = await fetch(url);
            if (!response.ok) say((await response.json()).error);
          } catch (error) { say(String(error)); }
        }

        function picture(url, alt) {
          const img = element("img", { alt: alt, loading: "lazy" });
          img.addEventListener("error", () => explain(url));
          img.src = url;
          return img;
        }

        function renderPhotos() {
          const strip = $("photos");
          strip.replaceChildren(...state.info.photos.map((photo) => {
            const img = element("img", { "data-role": "photo", "data-photo": photo.id, alt: photo.name, title: photo.name,
              onclick: () => { state.photo = photo.id; remember(); renderAll(); } });
            img.src = "/api/image?photo=" + photo.id + "&width=" + STRIP_WIDTH;
            if (photo.id === state.photo) img.classList.add("current");
            return img;
          }));
        }

        function renderLooks() {
          $("looks").replaceChildren(...state.info.looks.map((look) =>
            element("div", { class: "tile", "data-look": look.name, title: look.name + " (" + look.group + ")", tabindex: "0",
              onclick: () => addNode(look.name), onkeydown: (event) => { if (event.key === "Enter") addNode(look.name); } },
              [picture(imageURL([{ look: look.name }], THUMB_WIDTH), look.name), element("span", { text: look.name })])));
        }

        function spaceSelect(value, empty, onchange) {
          const select = element("select", { onchange: (event) => onchange(event.target.value) },
            [element("option", { value: "", text: empty })]);
          for (const space of state.info.spaces) select.appendChild(element("option", { value: space.id, text: space.name }));
          select.value = value || "";
          return select;
        }

        function renderChain() {
          const list = $("chain");
          list.replaceChildren(...state.chain.map((node, index) => {
            const percent = Math.round((node.strength === undefined ? 1 : node.strength) * 100);
            const shown = element("output", { text: percent + "%" });
            const range = element("input", { type: "range", min: "0", max: "100", value: String(percent), "aria-label": "Strength",
              oninput: (event) => { shown.textContent = event.target.value + "%"; setStrength(index, Number(event.target.value)); } });
            const tools = element("div", { class: "tools" }, [
              element("button", { type: "button", text: "↑", title: "Earlier", onclick: () => move(index, -1) }),
              element("button", { type: "button", text: "↓", title: "Later", onclick: () => move(index, 1) }),
              element("button", { type: "button", text: "✕", title: "Remove", "data-action": "remove", onclick: () => removeNode(index) }),
            ]);
            const controls = element("div", {}, [
              element("div", { class: "name", text: (index + 1) + ". " + node.look, title: node.look }),
              element("label", {}, [document.createTextNode("Strength"), range, shown]),
              element("label", { title: "For a camera LUT: the colour space it expects" }, [document.createTextNode("Space"),
                spaceSelect(node.space, "as the photo", (value) => { node.space = value || undefined; changed(); })]),
              element("label", { title: "The colour space it gives, when not the same" }, [document.createTextNode("Gives"),
                spaceSelect(node.outputSpace, "the same", (value) => { node.outputSpace = value || undefined; changed(); })]),
              tools,
            ]);
            return element("li", { class: "node", "data-role": "node", "data-look": node.look },
              [picture(imageURL(state.chain.slice(0, index + 1), THUMB_WIDTH), "After step " + (index + 1)), controls]);
          }));
        }

        function addNode(name) { state.chain.push({ look: name }); changed(); }
        function removeNode(index) { state.chain.splice(index, 1); changed(); }
        function move(index, by) {
          const target = index + by;
          if (target < 0 || target >= state.chain.length) return;
          [state.chain[index], state.chain[target]] = [state.chain[target], state.chain[index]];
          changed();
        }
        function setStrength(index, percent) {
          if (percent >= 100) delete state.chain[index].strength; else state.chain[index].strength = percent / 100;
          remember();
          showPicture();
          clearTimeout(state.strengthTimer);
          state.strengthTimer = setTimeout(() => { renderChain(); showCommand(); }, 250);
        }

        function changed() { say(""); remember(); renderChain(); showPicture(); showCommand(); }

        // The photo and chain live in the address's fragment too, so a reload or a script keeps them.
        function remember() {
          history.replaceState(null, "", "#photo=" + state.photo + chainQuery(state.chain));
        }

        function recall() {
          const fields = new URLSearchParams(location.hash.slice(1));
          const photo = Number(fields.get("photo"));
          if (Number.isInteger(photo) && photo >= 0 && photo < state.info.photos.length) state.photo = photo;
          try {
            const chain = JSON.parse(fields.get("chain") || "[]");
            if (Array.isArray(chain)) state.chain = chain.filter((node) => node && typeof node.look === "string");
          } catch (error) { say("the chain in the address is not JSON"); }
        }

        function showPicture() {
          const url = imageURL(state.chain, PREVIEW_WIDTH), key = JSON.stringify(state.chain);
          $("before").src = imageURL([], PREVIEW_WIDTH);
          exportLink();
          if (state.loading) { state.pending = { url, key }; return; }
          load(url, key);
        }

        function load(url, key) {
          const preview = $("preview"), started = performance.now();
          state.loading = true;
          const next = new Image();
          next.onload = () => {
            preview.src = url;
            preview.dataset.shown = key;
            $("timing").textContent = "preview in " + Math.round(performance.now() - started) + " ms";
            finish();
          };
          next.onerror = () => { explain(url); finish(); };
          next.src = url;
        }

        function finish() {
          state.loading = false;
          const pending = state.pending;
          state.pending = null;
          if (pending) load(pending.url, pending.key);
        }

        async function showCommand() {
          const key = JSON.stringify(state.chain), command = $("command");
          if (!state.chain.length) { command.textContent = ""; command.dataset.look = ""; command.dataset.chain = key; return; }
          try {
            const response = await fetch("/api/command?photo=" + state.photo + chainQuery(state.chain));
            const body = await response.json();
            if (key !== JSON.stringify(state.chain)) return;
            if (!response.ok) { say(body.error); return; }
            command.textContent = body.command;
            command.dataset.look = body.look;
            command.dataset.chain = key;
          } catch (error) { say(String(error)); }
        }

        function exportLink() {
          const size = $("size").value.trim(), link = $("download");
          link.href = "/api/export?format=" + $("format").value + (size ? "&size=" + encodeURIComponent(size) : "") + chainQuery(state.chain);
          link.toggleAttribute("aria-disabled", !state.chain.length);
        }

        async function grade() {
          const output = $("output").value.trim();
          if (!state.chain.length) { say("add a look to the chain to grade with it"); return; }
          const response = await fetch("/api/grade", { method: "POST", headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ chain: state.chain, output: output }) });
          const body = await response.json();
          if (!response.ok) { say(body.error); return; }
          $("grade-progress").hidden = false;
          poll();
        }

        async function poll() {
          const status = await (await fetch("/api/grade")).json();
          const progress = $("grade-progress");
          progress.max = Math.max(status.total, 1);
          progress.value = status.done;
          $("grade-summary").textContent = status.running ? status.done + " of " + status.total
            : [status.summary || ""].concat(status.errors).join("\n");
          if (status.running) setTimeout(poll, 300);
        }

        function renderAll() { renderPhotos(); renderLooks(); renderChain(); showPicture(); showCommand(); }

        async function start() {
          try {
            const response = await fetch("/api/state");
            state.info = await response.json();
            if (!response.ok) { say(state.info.error); return; }
          } catch (error) { say(String(error)); return; }
          if (!state.info.photos.length) say("no photos: give colorcube studio photos or folders of them");
          $("compare").addEventListener("click", () => {
            state.comparing = !state.comparing;
            $("compare").setAttribute("aria-pressed", String(state.comparing));
            $("before").hidden = !state.comparing;
            $("preview").hidden = state.comparing;
          });
          $("download").addEventListener("click", (event) => { if (!state.chain.length) { event.preventDefault(); say("add a look to export"); } });
          $("format").addEventListener("change", exportLink);
          $("size").addEventListener("input", exportLink);
          $("grade-start").addEventListener("click", grade);
          recall();
          renderAll();
          document.body.dataset.ready = "1";
        }

        start();

        """#
}
