/// The studio's page: one HTML document, its script and its style, served from the binary (nothing
/// from other hosts). Parts carry `data-role` (photo, chain, node, preview, command, export) and
/// look tiles `data-look="NAME"`, for tests and for people who script the page.
public enum StudioPage {
    /// The document.
    public static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>colorcube studio</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <header>
          <h1>colorcube studio</h1>
          <div id="photos" class="strip" aria-label="Photos"></div>
        </header>
        <main>
          <section id="looks-panel" aria-label="Looks">
            <h2>Looks <small>click to add to the chain</small></h2>
            <div id="looks" class="grid"></div>
          </section>
          <section id="picture-panel" aria-label="Picture">
            <div class="picture">
              <img id="preview" data-role="preview" alt="The photo under the chain">
              <img id="before" alt="The photo as it is" hidden>
            </div>
            <div class="bar">
              <button id="compare" type="button" aria-pressed="false">Before</button>
              <span id="timing" class="muted"></span>
            </div>
            <pre id="command" data-role="command" title="The command line that grades this photo the same way"></pre>
            <p id="message" class="message" role="status"></p>
          </section>
          <section id="chain-panel" aria-label="Chain">
            <h2>Chain</h2>
            <ol id="chain" data-role="chain"></ol>
            <div id="export" data-role="export" class="box">
              <h2>Export the chain</h2>
              <label>Format <select id="format">
                <option value="cube">.cube</option>
                <option value="clf">.clf (exact)</option>
                <option value="raw">Core Image data (.bin)</option>
                <option value="png">Hald PNG</option>
              </select></label>
              <label>Size <input id="size" type="number" min="2" max="256" placeholder="natural"></label>
              <a id="download" class="button" href="#" download>Download</a>
            </div>
            <div id="grade" class="box">
              <h2>Grade every photo</h2>
              <label>Output folder <input id="output" type="text" placeholder="/absolute/folder" spellcheck="false"></label>
              <button id="grade-start" type="button">Grade</button>
              <progress id="grade-progress" max="1" value="0" hidden></progress>
              <p id="grade-summary" class="muted"></p>
            </div>
          </section>
        </main>
        </body>
        </html>

        """
}
