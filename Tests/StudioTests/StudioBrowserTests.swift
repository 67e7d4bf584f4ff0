import Foundation
import Testing
import ColorCubeStudio

/// The page in a real browser: Debian's headless Chromium against a studio on 127.0.0.1. Skipped,
/// and said so, where Chromium is not installed (`PEERS=1 bash Tools/install-deps` installs it).
@Suite(.serialized) struct StudioBrowserTests {
    @Test(.enabled(if: HeadlessChromium.path != nil, "Chromium is not installed: apt-get install chromium"))
    func thePageGradesAsTheCommandLineDoes() async throws {
        let server = try StudioServer(address: "127.0.0.1", port: 0)
        var made: StudioFixture?
        let host = try await server.start { host in
            let fixture = try StudioFixture(host: host)
            made = fixture
            return fixture.routes
        }
        guard let fixture = made, let path = HeadlessChromium.path else { return }
        // The browser is driven with blocking calls: on a thread of its own, so that the server's
        // tasks keep the cooperative pool (two threads on two cores) to themselves.
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                done.resume(with: Result { try Self.drive(fixture: fixture, host: host, chromium: path) })
            }
        }
        await server.stop()
    }

    /// Opens the page, chooses looks, moves a strength and exports, checking each against the command line.
    private static func drive(fixture: StudioFixture, host: String, chromium path: String) throws {
        let downloads = fixture.root + "/downloads"
        try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
        let browser = try HeadlessChromium(path: path, downloads: downloads)
        defer { browser.close() }
        let page = try browser.openPage()
        try browser.send("Page.navigate", ["url": "http://\(host)/?token=\(fixture.routes.guardian.secret)"], session: page)
        try browser.wait(until: "document.body && document.body.dataset.ready === '1'", session: page)

        // One look: the preview is `colorcube apply` of it on the photo scaled as the page's "before".
        try browser.wait(until: "document.querySelectorAll('[data-role=photo]').length === 2", session: page)
        _ = try browser.evaluate("document.querySelector('[data-look=\"warm.cube\"]').click()", session: page)
        try browser.wait(until: #"document.getElementById('preview').dataset.shown === '[{"look":"warm.cube"}]'"#, session: page)
        let before = fixture.root + "/before.png"
        try bytes(of: "document.getElementById('before').src", browser: browser, page: page).write(to: before)
        let one = try bytes(of: "document.getElementById('preview').src", browser: browser, page: page)
        let applied = fixture.root + "/one.png"
        try ColorcubeBinary.run(["apply", fixture.looks + "/warm.cube", before, "-o", applied])
        #expect(try StudioFixture.samples(one) == StudioFixture.samples(path: applied))
        #expect(try StudioFixture.pixels(one).width == 96)  // never enlarged

        // A second node at 40%: the preview is what the command line the page shows gives.
        _ = try browser.evaluate("document.querySelector('[data-look=\"lift.cc\"]').click()", session: page)
        try browser.wait(until: "document.querySelectorAll('[data-role=node]').length === 2", session: page)
        _ = try browser.evaluate("""
            (() => { const range = document.querySelectorAll('[data-role=node]')[1].querySelector('input[type=range]');
              range.value = '40'; range.dispatchEvent(new Event('input', { bubbles: true })); })()
            """, session: page)
        let two = #"[{"look":"warm.cube"},{"look":"lift.cc","strength":0.4}]"#
        try browser.wait(until: "document.getElementById('preview').dataset.shown === '\(two)' "
            + "&& document.querySelector('[data-role=command]').dataset.chain === '\(two)'", session: page)
        let command = try #require(try browser.evaluate("document.querySelector('[data-role=command]').textContent", session: page) as? String)
        let words = ColorcubeBinary.shellWords(command)
        #expect(words.count == 6 && words[0] == "colorcube" && words[1] == "apply" && words[4] == "-o")
        #expect(words[2] == "\(fixture.looks)/warm.cube+\(fixture.looks)/lift.cc@0.4")
        let chained = fixture.root + "/two.png"
        try ColorcubeBinary.run(["apply", words[2], before, "-o", chained])
        let preview = try bytes(of: "document.getElementById('preview').src", browser: browser, page: page)
        #expect(try StudioFixture.samples(preview) == StudioFixture.samples(path: chained))

        // An export downloads the bytes `convert` writes.
        _ = try browser.evaluate("""
            (() => { const size = document.getElementById('size'); size.value = '9';
              size.dispatchEvent(new Event('input', { bubbles: true }));
              document.getElementById('download').click(); })()
            """, session: page)
        let downloaded = downloads + "/warm+lift.cube"
        for _ in 0..<6000 where !FileManager.default.fileExists(atPath: downloaded) { usleep(50_000) }
        let converted = fixture.root + "/converted.cube"
        try ColorcubeBinary.run(["convert", words[2], "-o", converted, "--size", "9"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: downloaded)) == Data(contentsOf: URL(fileURLWithPath: converted)))

        #expect(browser.errors.isEmpty, "\(browser.errors)")
    }

    /// The bytes at the URL `expression` gives, fetched by the page (with its cookie).
    private static func bytes(of expression: String, browser: HeadlessChromium, page: String) throws -> Data {
        let script = """
            fetch(\(expression)).then((r) => r.arrayBuffer()).then((buffer) => {
              const bytes = new Uint8Array(buffer); let text = '';
              for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
              return btoa(text); })
            """
        guard let base64 = try browser.evaluate(script, session: page) as? String, let data = Data(base64Encoded: base64) else {
            throw HeadlessChromium.Failure(description: "no bytes at \(expression)")
        }
        return data
    }
}

/// The built `colorcube`, beside the test bundle.
enum ColorcubeBinary {
    static var path: String {
        if let override = ProcessInfo.processInfo.environment["COLORCUBE_BINARY"] { return override }
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        if folder.lastPathComponent.hasSuffix(".xctest") { folder = folder.deletingLastPathComponent() }
        return folder.appendingPathComponent("colorcube").path
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Runs `colorcube arguments...`; throws with its standard error when it fails.
    static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "colorcube \(arguments.joined(separator: " ")): \(text)") }
    }

    /// The words of a POSIX shell line made of plain and single-quoted words.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = [], current = "", quoted = false, started = false, escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted {
                if character == "'" { quoted = false } else { current.append(character) }
            } else if character == "'" {
                quoted = true
                started = true
            } else if character == "\\" {
                escaped = true
                started = true
            } else if character == " " {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { words.append(current) }
        return words
    }
}
