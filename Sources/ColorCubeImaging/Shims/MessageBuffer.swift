import _CEXR
import _CJPEG
import _CPNG

/// A fixed-size buffer the C shims (`_CPNG`, `_CJPEG`, `_CEXR`) write their failure messages into.
///
/// Each shim writes at most its `*_MESSAGE_SIZE` bytes, terminating zero included; the buffer
/// holds the largest, so one type serves all.
struct MessageBuffer {
    private var storage = [CChar](repeating: 0, count: Int(max(CCPNG_MESSAGE_SIZE, CCJPEG_MESSAGE_SIZE, CCEXR_MESSAGE_SIZE)))

    mutating func withPointer<R>(_ body: (UnsafeMutablePointer<CChar>) -> R) -> R {
        storage.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { preconditionFailure("the message buffer is never empty") }
            return body(base)
        }
    }

    /// The message up to its terminating zero, as UTF-8 (invalid bytes replaced).
    var text: String {
        storage.withUnsafeBufferPointer { buffer in
            String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
