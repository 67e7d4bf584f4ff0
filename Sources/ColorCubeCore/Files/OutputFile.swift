#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered binary file being written. Errors name the file the user asked for, not the
/// temporary name underneath.
///
/// Writers open it on the temporary path `AtomicFile.write` hands them, never on the output itself:
/// that is what keeps a half-written output from ever being seen, and what lets another run tell
/// this writer's temporary from a killed one's (`AtomicFile` holds the lock; opening and closing
/// this file does not release it).
public final class OutputFile {
    private let file: UnsafeMutablePointer<FILE>
    private let displayPath: String
    private var closed = false

    /// Creates or truncates `path`; `displayPath` is the name used in error messages.
    public init(path: String, displayPath: String? = nil) throws(FileError) {
        self.displayPath = displayPath ?? path
        guard let file = fopen(path, "wb") else {
            throw .cannotCreate(path: displayPath ?? path, reason: String(cString: strerror(errno)))
        }
        setvbuf(file, nil, _IOFBF, 1 << 20)
        self.file = file
    }

    deinit {
        if !closed { fclose(file) }
    }

    /// Appends raw bytes.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        guard fwrite(base, 1, bytes.count, file) == bytes.count else {
            throw .cannotWrite(path: displayPath, reason: String(cString: strerror(errno)))
        }
    }

    /// Appends a string as UTF-8.
    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Flushes and closes; the file must not be used afterwards.
    public func close() throws(FileError) {
        closed = true
        guard fclose(file) == 0 else {
            throw .cannotWrite(path: displayPath, reason: String(cString: strerror(errno)))
        }
    }
}
