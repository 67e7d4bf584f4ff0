import ColorCubeCore
import FlyingFox
import FlyingSocks
import Foundation

/// The studio's HTTP server: FlyingFox listening on one address (127.0.0.1 by default), every
/// request handed to `StudioRoutes` as a `StudioRequest`. Bodies are read only up to
/// `StudioGuard.largestBody`.
public final class StudioServer: Sendable {
    private let server: HTTPServer
    private let forwarder = Forwarder()
    private let address: String
    private let task = Locked<Task<Void, any Error>?>(nil)

    /// Prepares a server on `address` (an IPv4 address) and `port` (0: one the system picks).
    /// - Throws: `StudioError.badRequest` for an address that is not IPv4.
    public init(address: String, port: UInt16) throws(StudioError) {
        guard let socketAddress = try? sockaddr_in.inet(ip4: address, port: port) else {
            throw .badRequest("\(address) is not an IPv4 address; the studio listens on 127.0.0.1 unless told otherwise")
        }
        self.address = address
        server = HTTPServer(address: socketAddress, timeout: 60, logger: .disabled, handler: forwarder)
    }

    /// Starts listening, then makes the routes for the address listened on ("127.0.0.1:8123",
    /// known only then when port 0 was asked) and serves them; returns that address.
    /// - Throws: the socket's error when the address cannot be listened on (a port in use).
    public func start(makeRoutes: (_ host: String) throws -> StudioRoutes) async throws -> String {
        let server = self.server
        let failure = Locked<(any Error)?>(nil)
        let running = Task {
            do {
                try await server.run()
            } catch {
                failure.withLock { $0 = error }
                throw error
            }
        }
        task.withLock { $0 = running }
        // Counted in turns rather than seconds: where other work holds every thread of the pool
        // (a test suite), the server starts late but is not given up on.
        for _ in 0..<2000 {
            if await server.isListening { break }
            if let error = failure.withLock({ $0 }) { throw error }
            try await Task.sleep(for: .milliseconds(10))
        }
        guard await server.isListening else {
            running.cancel()
            throw StudioError.failed("the server did not start listening")
        }
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            throw StudioError.failed("the server is not listening on an IPv4 address")
        }
        let host = "\(address):\(port)"
        let routes = try makeRoutes(host)
        forwarder.routes.withLock { $0 = routes }
        return host
    }

    /// The routes served, once `start` made them.
    public var routes: StudioRoutes? { forwarder.routes.withLock { $0 } }

    /// Waits until the server stops.
    public func wait() async {
        let running = task.withLock { $0 }
        _ = try? await running?.value
    }

    /// Stops listening and closes every connection.
    public func stop() async {
        await server.stop(timeout: 1)
        task.withLock { $0 }?.cancel()
    }

    /// Hands FlyingFox's requests to the routes, reading at most `StudioGuard.largestBody` bytes.
    private final class Forwarder: HTTPHandler, Sendable {
        let routes = Locked<StudioRoutes?>(nil)

        func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
            guard let routes = routes.withLock({ $0 }) else { return HTTPResponse(statusCode: .serviceUnavailable) }
            var headers: [String: String] = [:]
            for (name, value) in request.headers where headers[name.rawValue.lowercased()] == nil {
                headers[name.rawValue.lowercased()] = value
            }
            var query: [String: String] = [:]
            for item in request.query where query[item.name] == nil { query[item.name] = item.value }
            var body = Data()
            if let length = headers["content-length"].flatMap(Int.init), length <= StudioGuard.largestBody {
                for try await chunk in request.bodySequence {
                    body.append(chunk)
                    if body.count > StudioGuard.largestBody { break }
                }
            }
            let studioRequest = StudioRequest(method: request.method.rawValue, path: request.path, query: query,
                                              headers: headers, body: body)
            let response = routes.respond(studioRequest)
            var responseHeaders = HTTPHeaders()
            for (name, value) in response.headers { responseHeaders.addValue(value, for: HTTPHeader(name)) }
            return HTTPResponse(statusCode: HTTPStatusCode(response.status, phrase: Self.phrase(response.status)),
                                headers: responseHeaders, body: request.method == .HEAD ? Data() : response.body)
        }

        static func phrase(_ status: Int) -> String {
            [200: "OK", 202: "Accepted", 303: "See Other", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
             404: "Not Found", 405: "Method Not Allowed", 413: "Content Too Large", 422: "Unprocessable Content",
             503: "Service Unavailable"][status] ?? "Status"
        }
    }
}
