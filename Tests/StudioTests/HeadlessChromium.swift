import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Debian's headless Chromium driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: commands go in on the browser's descriptor 3, answers and events come
/// out on 4, each message JSON ended by a NUL byte), so the tests need no WebSocket client.
final class HeadlessChromium: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The browser to run: CHROMIUM, else Debian's.
    static var path: String? {
        let candidates = [ProcessInfo.processInfo.environment["CHROMIUM"], "/usr/bin/chromium", "/usr/bin/chromium-browser"]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private let pid: pid_t
    private let commands: Int32
    private let profile: String
    private let lock = NSCondition()
    private var answers: [Int: [String: Any]] = [:]
    private var events: [[String: Any]] = []
    private var nextID = 0
    private var ended = false

    init(path: String, downloads: String) throws {
        profile = NSTemporaryDirectory() + "/chromium-profile-\(UUID().uuidString)"
        var toBrowser: [Int32] = [0, 0], fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw Failure(description: "no pipes") }
        // Only the copies made for the child (descriptors 3 and 4) cross into it.
        for descriptor in toBrowser + fromBrowser { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        let quiet = open("/dev/null", O_WRONLY | O_CLOEXEC)
        posix_spawn_file_actions_adddup2(&actions, quiet, 1)
        posix_spawn_file_actions_adddup2(&actions, quiet, 2)
        let arguments = [path, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
                         "--disable-extensions", "--disable-dev-shm-usage", "--user-data-dir=\(profile)",
                         "--window-size=1400,900", "about:blank"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, nil, argv, environ)
        Glibc.close(quiet)
        Glibc.close(toBrowser[0])
        Glibc.close(fromBrowser[1])
        guard status == 0 else { throw Failure(description: "cannot start \(path): \(String(cString: strerror(status)))") }
        pid = child
        commands = toBrowser[1]
        let answersFrom = fromBrowser[0]
        Thread.detachNewThread { [self] in read(answersFrom) }
        _ = try send("Browser.setDownloadBehavior", ["behavior": "allow", "downloadPath": downloads])
    }

    /// Sends a command (to a page's session when given) and waits for its answer's `result`.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: Double = 300) throws -> [String: Any] {
        lock.lock()
        nextID += 1
        let id = nextID
        lock.unlock()
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(0)
        let written = data.withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
        guard written == data.count else { throw Failure(description: "the browser closed its pipe") }
        lock.lock()
        defer { lock.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while answers[id] == nil {
            guard !ended, lock.wait(until: deadline) else { throw Failure(description: "no answer to \(method)") }
        }
        let answer = answers.removeValue(forKey: id) ?? [:]
        if let error = answer["error"] { throw Failure(description: "\(method): \(error)") }
        return answer["result"] as? [String: Any] ?? [:]
    }

    /// Opens a page and attaches to it; returns the session to send its commands to.
    func openPage() throws -> String {
        let target = try send("Target.createTarget", ["url": "about:blank"])
        let attached = try send("Target.attachToTarget", ["targetId": target["targetId"] ?? "", "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "no session") }
        for domain in ["Runtime.enable", "Log.enable", "Page.enable"] { try send(domain, session: session) }
        return session
    }

    /// Evaluates `expression` in the page (awaiting a promise) and gives its value.
    func evaluate(_ expression: String, session: String) throws -> Any? {
        let result = try send("Runtime.evaluate", ["expression": expression, "awaitPromise": true, "returnByValue": true],
                              session: session)
        if let thrown = result["exceptionDetails"] { throw Failure(description: "\(expression.prefix(80)): \(thrown)") }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Waits until `expression` is true in the page.
    func wait(until expression: String, session: String, timeout: Double = 300) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try evaluate(expression, session: session) as? Bool == true { return }
            usleep(50_000)
        }
        throw Failure(description: "waited \(Int(timeout)) s for \(expression)")
    }

    /// The console errors, uncaught exceptions and error log entries seen so far.
    var errors: [String] {
        lock.lock()
        defer { lock.unlock() }
        return events.compactMap { event -> String? in
            let method = event["method"] as? String, params = event["params"] as? [String: Any] ?? [:]
            switch method {
            case "Runtime.exceptionThrown": return "exception: \(params["exceptionDetails"] ?? "")"
            case "Runtime.consoleAPICalled" where params["type"] as? String == "error": return "console: \(params["args"] ?? "")"
            case "Log.entryAdded":
                let entry = params["entry"] as? [String: Any] ?? [:]
                return entry["level"] as? String == "error" ? "log: \(entry["text"] ?? "")" : nil
            default: return nil
            }
        }
    }

    /// Closes the browser and removes its profile.
    func close() {
        _ = try? send("Browser.close", timeout: 5)
        Glibc.close(commands)
        var status: Int32 = 0
        for _ in 0..<50 where waitpid(pid, &status, WNOHANG) == 0 { usleep(100_000) }
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        try? FileManager.default.removeItem(atPath: profile)
    }

    private func read(_ descriptor: Int32) {
        var pending = Data(), buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            pending.append(contentsOf: buffer[0..<count])
            while let end = pending.firstIndex(of: 0) {
                let message = pending[pending.startIndex..<end]
                pending = Data(pending[(end + 1)...])
                guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any] else { continue }
                lock.lock()
                if let id = object["id"] as? Int { answers[id] = object } else { events.append(object) }
                lock.broadcast()
                lock.unlock()
            }
        }
        Glibc.close(descriptor)
        lock.lock()
        ended = true
        lock.broadcast()
        lock.unlock()
    }
}
