import _CZlib

/// zlib compression for Camera Raw tables, through the `_CZlib` shim.
enum Zlib {
    /// Why a zlib stream gave no payload.
    enum Failure: Error, Equatable {
        case truncated
        case tooLong
        case tooShort(produced: Int)
        case damaged
        case noMemory
    }

    /// The stream's content, which must be exactly `size` bytes (the caller has checked `size`
    /// against its limit): a longer stream stops at `size` (so a bomb costs no more), a shorter
    /// or damaged one fails.
    static func inflate(_ input: ArraySlice<UInt8>, size: Int) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: size)
        var produced = 0
        let status = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                cczlib_inflate(source.baseAddress, source.count, target.baseAddress, size, &produced)
            }
        }
        switch status {
        case CCZLIB_OK: return output
        case CCZLIB_TRUNCATED: throw .truncated
        case CCZLIB_TOO_LONG: throw .tooLong
        case CCZLIB_TOO_SHORT: throw .tooShort(produced: produced)
        case CCZLIB_NO_MEMORY: throw .noMemory
        default: throw .damaged
        }
    }

    /// `bytes` compressed at zlib's default level (as Adobe's SDK compresses tables); the same
    /// bytes for the same input with the same zlib.
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: cczlib_bound(bytes.count))
        let capacity = output.count
        let written = bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                cczlib_compress(source.baseAddress, source.count, target.baseAddress, capacity)
            }
        }
        guard written > 0 else { return nil }
        return Array(output.prefix(written))
    }
}
