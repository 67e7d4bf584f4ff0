extension StudioPage {
    /// The page's style sheet.
    public static let style = """
        :root { color-scheme: dark; --bg: #17181b; --panel: #202227; --line: #33363d; --text: #e6e6e6; --muted: #9a9da5; --accent: #e0a040; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--text); }
        header { display: flex; align-items: center; gap: 16px; padding: 8px 12px; border-bottom: 1px solid var(--line); }
        h1 { font-size: 16px; margin: 0; white-space: nowrap; }
        h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 8px 0; }
        h2 small { text-transform: none; letter-spacing: 0; }
        .strip { display: flex; gap: 6px; overflow-x: auto; }
        .strip img { height: 48px; border: 2px solid transparent; border-radius: 3px; cursor: pointer; }
        .strip img.current { border-color: var(--accent); }
        main { display: grid; grid-template-columns: 300px 1fr 320px; gap: 12px; padding: 12px; height: calc(100vh - 70px); }
        section { overflow-y: auto; min-height: 0; }
        .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(130px, 1fr)); gap: 8px; }
        .tile { background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: 4px; cursor: pointer; text-align: center; }
        .tile:hover { border-color: var(--accent); }
        .tile img, .node img { width: 100%; display: block; border-radius: 2px; min-height: 40px; background: #000; }
        .tile span { display: block; font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .picture { position: relative; background: #000; border-radius: 4px; min-height: 200px; display: flex; justify-content: center; }
        .picture img { width: 100%; max-height: calc(100vh - 260px); object-fit: contain; image-rendering: auto; }
        .bar { display: flex; gap: 12px; align-items: center; margin: 8px 0; }
        pre { white-space: pre-wrap; word-break: break-all; background: var(--panel); padding: 8px; border-radius: 4px; min-height: 2em; user-select: all; }
        ol { list-style: none; padding: 0; margin: 0; }
        .node { display: grid; grid-template-columns: 96px 1fr; gap: 8px; background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: 6px; margin-bottom: 6px; }
        .node .name { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .node label { display: flex; gap: 6px; align-items: center; font-size: 12px; }
        .node input[type=range] { flex: 1; }
        .node select { max-width: 150px; }
        .node .tools button { padding: 0 6px; }
        .box { background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: 8px; margin-top: 12px; display: grid; gap: 6px; }
        button, .button, select, input { font: inherit; color: var(--text); background: #2c2f36; border: 1px solid var(--line); border-radius: 3px; padding: 3px 8px; }
        .button { text-decoration: none; text-align: center; }
        button[aria-pressed=true] { background: var(--accent); color: #000; }
        .muted { color: var(--muted); }
        .message { color: #ff8a80; }
        progress { width: 100%; }

        """
}
