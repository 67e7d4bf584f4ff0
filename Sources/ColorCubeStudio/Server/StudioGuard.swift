import Foundation

/// The checks every request passes before a route sees it: the per-run secret (in the printed
/// address once, then a cookie), the Host header (against DNS rebinding), the origin of anything
/// that changes state, and the size of the body.
///
/// A page on another site can make the browser send requests here; the cookie is `SameSite=Strict`
/// so such requests carry no secret, and writes must also come with this origin (or a
/// `Sec-Fetch-Site` of `same-origin`) and a JSON body, which a cross-site form cannot send
/// without a preflight the server never grants.
public struct StudioGuard: Sendable {
    /// The per-run secret: 32 random bytes as hexadecimal.
    public let secret: String
    /// The address the server listens on, as a Host header names it ("127.0.0.1:8123").
    public let host: String
    /// The largest body taken, in bytes.
    public static let largestBody = 64 * 1024
    /// The cookie's name (one per port, so two studios on one machine keep their own).
    public var cookieName: String { "colorcube-studio-" + (host.split(separator: ":").last.map(String.init) ?? "") }

    public init(secret: String = StudioGuard.makeSecret(), host: String) {
        self.secret = secret
        self.host = host
    }

    /// 32 bytes from the system's random source, as 64 hexadecimal digits.
    public static func makeSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// What to do with `request`: nil to pass it on to the routes, else the response that ends it
    /// (a refusal, or the redirect that trades the secret in the address for a cookie).
    public func check(_ request: StudioRequest) -> StudioResponse? {
        guard request.header("host") == host else { return .failure(.foreignHost(request.header("host"))) }
        if let site = request.header("sec-fetch-site"), site != "same-origin", site != "none" {
            return .failure(.crossOrigin("Sec-Fetch-Site: " + site))
        }
        if request.method != "GET" && request.method != "HEAD" {
            if let origin = request.header("origin"), origin != "http://" + host {
                return .failure(.crossOrigin(origin))
            }
            guard request.header("content-type")?.lowercased().hasPrefix("application/json") == true else {
                return .failure(.badRequest("a change is sent as JSON (Content-Type: application/json)"))
            }
        }
        if let length = request.header("content-length") {
            guard let declared = Int(length), declared <= Self.largestBody else {
                return .failure(.tooLarge(declared: Int(length), limit: Self.largestBody))
            }
        }
        if request.body.count > Self.largestBody { return .failure(.tooLarge(declared: request.body.count, limit: Self.largestBody)) }
        if request.method == "GET", request.path == "/", let given = request.query["token"] {
            guard matches(given) else { return .failure(.notAuthorized) }
            return StudioResponse(status: 303, headers: [
                ("Location", "/"),
                ("Set-Cookie", "\(cookieName)=\(secret); Path=/; HttpOnly; SameSite=Strict"),
                ("Cache-Control", "no-store"),
            ])
        }
        guard let cookie = cookieSecret(request), matches(cookie) else { return .failure(.notAuthorized) }
        return nil
    }

    /// The secret the request's cookie carries, if any.
    func cookieSecret(_ request: StudioRequest) -> String? {
        guard let header = request.header("cookie") else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == cookieName { return String(pair[1]) }
        }
        return nil
    }

    /// Compares in time that does not depend on where the texts differ.
    func matches(_ given: String) -> Bool {
        let a = Array(given.utf8), b = Array(secret.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<a.count { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
