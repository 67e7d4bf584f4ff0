#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Walks a text LUT line by line and splits each line into whitespace-separated tokens.
///
/// Lines end at LF, CR LF or a lone CR; a UTF-8 byte order mark at the start is skipped. `#` starts
/// a comment that runs to the end of the line, except inside double quotes (a .cube TITLE may hold
/// `#`). Numbers are read by `double(_:)` and `integer(_:)`, which never consult the C locale.
struct TextLineScanner {
    let bytes: [UInt8]
    private var position = 0
    /// 1-based number of the line `nextLine()` last moved to; once it returns false, the number of
    /// lines in the file (a final line ending does not start another line).
    private(set) var lineNumber = 0
    /// Tokens of the current line, comments removed.
    private(set) var tokens: [Range<Int>] = []
    /// The current line without its comment and line ending.
    private(set) var content: Range<Int> = 0..<0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        tokens.reserveCapacity(8)
    }

    /// The line number to report for a problem found at the end of the file (1 for an empty file).
    var endOfFileLine: Int { max(1, lineNumber) }

    /// Moves to the next line and splits it; false at the end of the file.
    mutating func nextLine() -> Bool {
        guard position < bytes.count else { return false }
        lineNumber += 1
        tokens.removeAll(keepingCapacity: true)
        let start = position
        var end = -1
        var tokenStart = -1
        var inQuotes = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            if end < 0 {
                if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
                if byte == UInt8(ascii: "#") && !inQuotes {
                    end = position
                    if tokenStart >= 0 { tokens.append(tokenStart..<position) }
                    tokenStart = -1
                } else if Self.isSpace(byte) {
                    if tokenStart >= 0 { tokens.append(tokenStart..<position) }
                    tokenStart = -1
                } else if tokenStart < 0 {
                    tokenStart = position
                }
            }
            position += 1
        }
        if end < 0 {
            end = position
            if tokenStart >= 0 { tokens.append(tokenStart..<position) }
        }
        content = start..<end
        if position < bytes.count {
            let terminator = bytes[position]
            position += 1
            if terminator == UInt8(ascii: "\r"), position < bytes.count, bytes[position] == UInt8(ascii: "\n") {
                position += 1
            }
        }
        return true
    }

    /// The token's text, with invalid UTF-8 repaired.
    func string(_ token: Range<Int>) -> String {
        String(decoding: bytes[token], as: UTF8.self)
    }

    /// The token's text in upper case, for keywords that files spell in either case.
    func keyword(_ token: Range<Int>) -> String {
        string(token).uppercased()
    }

    /// The current line after `token`, with surrounding spaces removed and, when it starts with a
    /// double quote, cut to the text between that quote and the next one (or the end of the line).
    func quotedRest(after token: Range<Int>) -> String {
        var start = token.upperBound
        var end = content.upperBound
        while start < end, Self.isSpace(bytes[start]) { start += 1 }
        while end > start, Self.isSpace(bytes[end - 1]) { end -= 1 }
        if start < end, bytes[start] == UInt8(ascii: "\"") {
            start += 1
            var close = start
            while close < end, bytes[close] != UInt8(ascii: "\"") { close += 1 }
            end = close
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// True when the token starts like a number (a digit, sign or decimal point) rather than a
    /// keyword.
    func startsNumber(_ token: Range<Int>) -> Bool {
        let byte = bytes[token.lowerBound]
        return Self.isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".")
    }

    /// A plain decimal number: optional sign, digits with an optional decimal point, optional
    /// exponent. Hexadecimal, `inf` and `nan` are not numbers here; nil for anything else or for a
    /// value beyond Double's range.
    ///
    /// Up to 19 significant digits with a power of ten within 10^±22 are converted exactly (both
    /// factors are exact Doubles, so one multiplication or division rounds correctly); anything
    /// longer goes to strtod, which is locale independent because colorcube never calls setlocale.
    func double(_ token: Range<Int>) -> Double? {
        var index = token.lowerBound
        let end = token.upperBound
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var significant = 0
        var exponent = 0
        var sawPoint = false
        while index < end {
            let byte = bytes[index]
            if Self.isDigit(byte) {
                digits += 1
                if mantissa != 0 || byte != UInt8(ascii: "0") { significant += 1 }
                if significant <= 19 {
                    mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                    if sawPoint { exponent -= 1 }
                } else if !sawPoint {
                    exponent += 1
                }
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < end {
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            index += 1
            var negativeExponent = false
            if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            var exponentDigits = 0
            while index < end, Self.isDigit(bytes[index]) {
                if written < 100_000 { written = written * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0, index == end else { return nil }
            exponent += negativeExponent ? -written : written
        }
        if mantissa == 0 { return negative ? -0.0 : 0 }
        if significant <= 19, mantissa <= 1 << 53, (-22...22).contains(exponent) {
            let value = Double(mantissa)
            let scaled = exponent < 0 ? value / Self.powersOfTen[-exponent] : value * Self.powersOfTen[exponent]
            return negative ? -scaled : scaled
        }
        return slowDouble(token)
    }

    /// A whole number of at most 9 digits, no sign; nil for anything else.
    func integer(_ token: Range<Int>) -> Int? {
        guard token.count <= 9 else { return nil }
        var value = 0
        for index in token {
            let byte = bytes[index]
            guard Self.isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private func slowDouble(_ token: Range<Int>) -> Double? {
        var text = [CChar](repeating: 0, count: token.count + 1)
        for (offset, index) in token.enumerated() { text[offset] = CChar(bitPattern: bytes[index]) }
        let value = text.withUnsafeBufferPointer { buffer -> Double? in
            guard let base = buffer.baseAddress else { return nil }
            var stop: UnsafeMutablePointer<CChar>?
            let value = strtod(base, &stop)
            guard let stop, stop - UnsafeMutablePointer(mutating: base) == token.count else { return nil }
            return value
        }
        guard let value, value.isFinite else { return nil }
        return value
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0x0B || byte == 0x0C
    }
}
