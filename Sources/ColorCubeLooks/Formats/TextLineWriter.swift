import ColorCubeCore

/// Builds a text LUT in a 1 MiB byte buffer and hands it to an `OutputFile` in large blocks.
///
/// Numbers are formatted here rather than with `String(format:)`: a 256-cube is 16.7 million
/// lines, and formatting into bytes keeps the writer Foundation-free and locale independent (the
/// decimal separator is always a point).
final class TextLineWriter {
    private let file: OutputFile
    private let capacity = 1 << 20
    private let buffer: UnsafeMutablePointer<UInt8>
    private var count = 0
    /// Room every single append may need: the longest number is Double's shortest description,
    /// at most 24 bytes.
    private static let longestItem = 32

    init(file: OutputFile) {
        self.file = file
        self.buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
    }

    /// Appends text as UTF-8.
    func append(_ text: String) throws(FileError) {
        for byte in text.utf8 {
            try append(byte: byte)
        }
    }

    /// Appends one byte.
    @inline(__always)
    func append(byte: UInt8) throws(FileError) {
        if count == capacity { try flush() }
        buffer[count] = byte
        count += 1
    }

    /// Appends the line "x y z\n", each value as `writeFixed` writes it.
    func appendFixedLine(_ x: Float, _ y: Float, _ z: Float) throws(FileError) {
        if count + 4 * Self.longestItem > capacity { try flush() }
        writeFixed(x)
        write(UInt8(ascii: " "))
        writeFixed(y)
        write(UInt8(ascii: " "))
        writeFixed(z)
        write(UInt8(ascii: "\n"))
    }

    /// Appends the line "x y z\n" of non-negative whole numbers.
    func appendIntegerLine(_ x: Int, _ y: Int, _ z: Int) throws(FileError) {
        if count + 4 * Self.longestItem > capacity { try flush() }
        writeDigits(UInt64(max(0, x)), minimumCount: 1)
        write(UInt8(ascii: " "))
        writeDigits(UInt64(max(0, y)), minimumCount: 1)
        write(UInt8(ascii: " "))
        writeDigits(UInt64(max(0, z)), minimumCount: 1)
        write(UInt8(ascii: "\n"))
    }

    /// Appends a non-negative whole number in decimal.
    func appendInteger(_ value: Int) throws(FileError) {
        try reserve()
        writeDigits(UInt64(max(0, value)), minimumCount: 1)
    }

    /// Writes `value` with six decimals and no exponent, as C's `%.6f` would (ties may round the
    /// last digit either way).
    ///
    /// NaN is written as 0 and infinities as the largest finite Float, because no .cube reader
    /// accepts `nan` or `inf`. Magnitudes of 10^12 and more, which only a broken look produces,
    /// are written in Swift's shortest exponent form ("1e+20"), which readers also accept.
    @inline(__always)
    private func writeFixed(_ value: Float) {
        var number = Double(value)
        if number.isNaN { number = 0 }
        if number.isInfinite { number = number < 0 ? -Double(Float.greatestFiniteMagnitude) : Double(Float.greatestFiniteMagnitude) }
        let magnitude = abs(number)
        guard magnitude < 1e12 else {
            for byte in number.description.utf8 { write(byte) }
            return
        }
        let scaled = UInt64(magnitude * 1_000_000 + 0.5)
        if number < 0, scaled != 0 { write(UInt8(ascii: "-")) }
        let whole = scaled / 1_000_000
        if whole < 10 {
            write(UInt8(ascii: "0") + UInt8(whole))
        } else {
            writeDigits(whole, minimumCount: 1)
        }
        write(UInt8(ascii: "."))
        var fraction = UInt32(scaled - whole * 1_000_000)
        var index = count + 5
        while index >= count {
            buffer[index] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
            index -= 1
        }
        count += 6
    }

    /// Hands the buffered bytes to the file.
    func flush() throws(FileError) {
        guard count > 0 else { return }
        try file.write(UnsafeRawBufferPointer(start: buffer, count: count))
        count = 0
    }

    /// Flushes and closes the file.
    func close() throws(FileError) {
        try flush()
        try file.close()
    }

    @inline(__always)
    private func reserve() throws(FileError) {
        if count + Self.longestItem > capacity { try flush() }
    }

    @inline(__always)
    private func write(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    /// Writes `value` with at least `minimumCount` digits, zero-padded; the caller has reserved room.
    @inline(__always)
    private func writeDigits(_ value: UInt64, minimumCount: Int) {
        var remaining = value
        var length = 0
        repeat {
            length += 1
            remaining /= 10
        } while remaining != 0
        length = max(length, minimumCount)
        remaining = value
        var index = count + length - 1
        while index >= count {
            buffer[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
            index -= 1
        }
        count += length
    }
}
