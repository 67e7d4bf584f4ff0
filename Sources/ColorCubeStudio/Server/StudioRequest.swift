import Foundation

/// One HTTP request as the studio's routes see it, apart from the server package that parsed it,
/// so that routes and checks are tested without sockets.
public struct StudioRequest: Sendable {
    /// "GET", "POST", ... in capitals.
    public var method: String
    /// The path, percent-decoded, without the query ("/api/image").
    public var path: String
    /// The query's parameters, percent-decoded; the first of each name.
    public var query: [String: String]
    /// The headers, names in lower case; the first of each name.
    public var headers: [String: String]
    /// The body as received (at most `StudioGuard.largestBody` bytes reach a route).
    public var body: Data

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: Data = Data()) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The value of the header `name` (any case), or nil.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
