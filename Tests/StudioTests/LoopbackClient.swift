import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends one raw HTTP/1.1 request to 127.0.0.1 and reads the whole answer: the tests need headers a
/// browser would never send (a foreign Host, another Origin), so no HTTP client library is used.
enum LoopbackClient {
    struct Answer {
        var status: Int
        var head: String
        var body: Data
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `request` is sent as it is (it should say `Connection: close`); the answer is read to its end.
    static func send(_ request: Data, port: UInt16) throws -> Answer {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "no socket") }
        defer { close(socket) }
        // Long: in a full test run the server waits its turn for the cooperative pool.
        var timeout = timeval(tv_sec: 300, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "cannot connect to port \(port)") }
        _ = request.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
        var answer = Data(), buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer.append(contentsOf: buffer[0..<count])
        }
        guard let split = answer.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no HTTP answer") }
        let head = String(decoding: answer[..<split.lowerBound], as: UTF8.self)
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return Answer(status: status, head: head, body: Data(answer[split.upperBound...]))
    }

    /// A request of `method` to `target` with `headers` (Connection: close added) and `body`.
    static func request(_ method: String, _ target: String, headers: [(String, String)], body: Data = Data()) -> Data {
        var text = "\(method) \(target) HTTP/1.1\r\n"
        for (name, value) in headers + [("Connection", "close")] { text += "\(name): \(value)\r\n" }
        if !body.isEmpty { text += "Content-Length: \(body.count)\r\n" }
        return Data((text + "\r\n").utf8) + body
    }
}
