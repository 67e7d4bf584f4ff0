import Foundation

/// One HTTP response of the studio: a status, headers and a body held in memory.
public struct StudioResponse: Sendable {
    public var status: Int
    /// Header names and values, in order.
    public var headers: [(String, String)]
    public var body: Data

    public init(status: Int = 200, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name` (any case), or nil.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// `body` as UTF-8 text of the given type.
    public static func text(_ text: String, type: String = "text/plain; charset=utf-8", status: Int = 200) -> StudioResponse {
        StudioResponse(status: status, headers: [("Content-Type", type)], body: Data(text.utf8))
    }

    /// `value` as JSON.
    public static func json(_ value: some Encodable, status: Int = 200) -> StudioResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return StudioResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
    }

    /// The response for `error`: its status and `{"error": message}`.
    public static func failure(_ error: StudioError) -> StudioResponse {
        json(["error": error.description], status: error.status)
    }
}
