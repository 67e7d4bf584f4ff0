import Foundation
import Testing
import ColorCubeStudio

/// The security cases over a real socket on 127.0.0.1: each refused with its error.
@Suite struct StudioLoopbackTests {
    /// A server on a port the system picks, over the fixture's folders.
    static func serve(_ body: @escaping @Sendable (StudioFixture, UInt16, StudioServer) throws -> Void) async throws {
        let server = try StudioServer(address: "127.0.0.1", port: 0)
        var fixture: StudioFixture?
        let host = try await server.start { host in
            let made = try StudioFixture(host: host)
            fixture = made
            return made.routes
        }
        defer { Task { await server.stop() } }
        let port = UInt16(host.split(separator: ":").last.flatMap { Int($0) } ?? 0)
        guard let fixture else { throw LoopbackClient.Failure(description: "no fixture") }
        // The client blocks on its socket: on a thread of its own, so that the server's tasks keep
        // the cooperative pool (two threads on two cores) to themselves.
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                done.resume(with: Result { try body(fixture, port, server) })
            }
        }
        await server.stop()
    }

    @Test func theSecretOpensThePageAndEverythingElseIsRefused() async throws {
        try await Self.serve { fixture, port, _ in
            let guardian = fixture.routes.guardian
            let host = ("Host", guardian.host), cookie = ("Cookie", "\(guardian.cookieName)=\(guardian.secret)")
            func send(_ method: String, _ target: String, _ headers: [(String, String)], body: Data = Data()) throws -> LoopbackClient.Answer {
                try LoopbackClient.send(LoopbackClient.request(method, target, headers: headers, body: body), port: port)
            }
            // The printed address: a cookie, then the page with it.
            let entry = try send("GET", "/?token=\(guardian.secret)", [host])
            #expect(entry.status == 303)
            #expect(entry.head.contains("Set-Cookie: \(guardian.cookieName)=\(guardian.secret); Path=/; HttpOnly; SameSite=Strict"))
            #expect(try send("GET", "/", [host, cookie]).status == 200)
            // No token, a wrong one.
            let none = try send("GET", "/api/state", [host])
            #expect(none.status == 401)
            #expect(String(decoding: none.body, as: UTF8.self).contains("open the address colorcube studio printed"))
            #expect(try send("GET", "/api/state", [host, ("Cookie", "\(guardian.cookieName)=0123")]).status == 401)
            // A foreign Host (DNS rebinding), with the right cookie.
            #expect(try send("GET", "/api/state", [("Host", "attacker.example:\(port)"), cookie]).status == 403)
            #expect(try send("GET", "/api/state", [("Host", "localhost:\(port)"), cookie]).status == 403)
            // A cross-origin POST, by Origin and by Sec-Fetch-Site.
            let order = Data(#"{"chain": [{"look": "warm.cube"}], "output": "/tmp/x"}"#.utf8)
            let json = ("Content-Type", "application/json")
            #expect(try send("POST", "/api/grade", [host, cookie, json, ("Origin", "https://attacker.example")], body: order).status == 403)
            #expect(try send("POST", "/api/grade", [host, cookie, json, ("Sec-Fetch-Site", "cross-site")], body: order).status == 403)
            #expect(try send("POST", "/api/grade", [host, cookie, ("Content-Type", "text/plain")], body: order).status == 400)
            // ../ paths and files outside the given folders.
            #expect(try send("GET", "/../../../etc/passwd", [host, cookie]).status == 404)
            #expect(try send("GET", "/%2e%2e/%2e%2e/etc/passwd", [host, cookie]).status == 404)
            let chain = StudioFixture.chain([("../../../etc/passwd", nil)])
            let outside = try send("GET", "/api/image?photo=0&chain=" + (chain.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
                                   [host, cookie])
            #expect(outside.status == 404)
            #expect(try send("GET", "/api/image?photo=-1", [host, cookie]).status == 404)
            // An oversize body is refused before it is read.
            let big = LoopbackClient.request("POST", "/api/grade", headers: [host, cookie, json, ("Content-Length", "10000000")])
            #expect(try LoopbackClient.send(big, port: port).status == 413)
        }
    }

    @Test func aPreviewComesBackOverTheSocket() async throws {
        try await Self.serve { fixture, port, _ in
            let guardian = fixture.routes.guardian
            let chain = StudioFixture.chain([("warm.cube", 0.5)]).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let answer = try LoopbackClient.send(LoopbackClient.request("GET", "/api/image?photo=0&width=32&chain=\(chain)", headers: [
                ("Host", guardian.host), ("Cookie", "\(guardian.cookieName)=\(guardian.secret)"),
            ]), port: port)
            #expect(answer.status == 200)
            #expect(try StudioFixture.pixels(answer.body).width == 32)
        }
    }
}
