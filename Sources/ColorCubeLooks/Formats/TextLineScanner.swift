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
///
/// The scanner reads `bytes` without owning them: use it only inside the `withUnsafeBufferPointer`
/// call that produced them. A 256-cube is 16.7 million lines, so the hot path keeps the first four
/// tokens of a line inline instead of in an array.
struct TextLineScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// 1-based number of the line `nextLine()` last moved to; once it returns false, the number of
    /// lines in the file (a final line ending does not start another line).
    private(set) var lineNumber = 0
    /// How many tokens the current line has, comments removed.
    private(set) var tokenCount = 0
    private var starts = SIMD4<Int>()
    private var ends = SIMD4<Int>()
    /// Tokens after the fourth, for the lines that have them (a .3dl shaper, malformed lines).
    private var extraTokens: [Range<Int>] = []
    /// Where the current line ends, without its comment and line ending.
    private var contentEnd = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    /// The line number to report for a problem found at the end of the file (1 for an empty file).
    var endOfFileLine: Int { max(1, lineNumber) }

    /// Token `index` (0..<tokenCount) of the current line.
    @inline(__always)
    func token(_ index: Int) -> Range<Int> {
        index < 4 ? starts[index]..<ends[index] : extraTokens[index - 4]
    }

    /// All tokens of the current line.
    var tokens: [Range<Int>] {
        (0..<tokenCount).map(token)
    }

    /// Moves to the next line and splits it; false at the end of the file.
    mutating func nextLine() -> Bool {
        let count = bytes.count
        guard position < count else { return false }
        lineNumber += 1
        tokenCount = 0
        var tokenStart = -1
        var inQuotes = false
        var end = -1
        while position < count {
            let byte = bytes[position]
            // Digits, letters, signs and points are all above '#': one comparison for most bytes.
            if byte > UInt8(ascii: "#") || byte == UInt8(ascii: "!") {
                if tokenStart < 0 { tokenStart = position }
                position += 1
                continue
            }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
                if tokenStart < 0 { tokenStart = position }
            } else if byte == UInt8(ascii: "#") && !inQuotes {
                end = position
                break
            } else if byte == UInt8(ascii: "#") {
                if tokenStart < 0 { tokenStart = position }
            } else if Self.isSpace(byte) {
                if tokenStart >= 0 { addToken(tokenStart..<position) }
                tokenStart = -1
            } else if tokenStart < 0 {
                tokenStart = position  // other control bytes make a token that fails to parse
            }
            position += 1
        }
        if end < 0 { end = position }
        if tokenStart >= 0 { addToken(tokenStart..<end) }
        contentEnd = end
        // Skip the comment, if any, and the line ending.
        while position < count, bytes[position] != UInt8(ascii: "\n"), bytes[position] != UInt8(ascii: "\r") {
            position += 1
        }
        if position < count {
            let terminator = bytes[position]
            position += 1
            if terminator == UInt8(ascii: "\r"), position < count, bytes[position] == UInt8(ascii: "\n") {
                position += 1
            }
        }
        return true
    }

    @inline(__always)
    private mutating func addToken(_ range: Range<Int>) {
        if tokenCount < 4 {
            starts[tokenCount] = range.lowerBound
            ends[tokenCount] = range.upperBound
        } else {
            if tokenCount == 4 { extraTokens.removeAll(keepingCapacity: true) }
            extraTokens.append(range)
        }
        tokenCount += 1
    }

    /// The token's text, with invalid UTF-8 repaired.
    func string(_ token: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[token]), as: UTF8.self)
    }

    /// The token's text in upper case, for keywords that files spell in either case.
    func keyword(_ token: Range<Int>) -> String {
        string(token).uppercased()
    }

    /// True when the token is `word` in any case (`word` is upper-case ASCII).
    func token(_ token: Range<Int>, is word: StaticString) -> Bool {
        guard token.count == word.utf8CodeUnitCount else { return false }
        var index = token.lowerBound
        for letter in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            var byte = bytes[index]
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { byte -= 32 }
            guard byte == letter else { return false }
            index += 1
        }
        return true
    }

    /// The current line after `token`, with surrounding spaces removed and, when it starts with a
    /// double quote, cut to the text between that quote and the next one (or the end of the line).
    func quotedRest(after token: Range<Int>) -> String {
        var start = token.upperBound
        var end = contentEnd
        while start < end, Self.isSpace(bytes[start]) { start += 1 }
        while end > start, Self.isSpace(bytes[end - 1]) { end -= 1 }
        if start < end, bytes[start] == UInt8(ascii: "\"") {
            start += 1
            var close = start
            while close < end, bytes[close] != UInt8(ascii: "\"") { close += 1 }
            end = close
        }
        return string(start..<end)
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
    /// A mantissa up to 2^53 with a power of ten within 10^±22 is converted exactly (both factors
    /// are exact Doubles, so one multiplication or division rounds correctly); anything else goes
    /// to strtod, which is locale independent because colorcube never calls setlocale.
    func double(_ token: Range<Int>) -> Double? {
        var index = token.lowerBound
        let end = token.upperBound
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        // Digits beyond 10^18 would overflow UInt64; such long numbers take the strtod path.
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var truncated = false
        while index < end, Self.isDigit(bytes[index]) {
            if mantissa < 100_000_000_000_000_000 {
                mantissa = mantissa * 10 + UInt64(bytes[index] &- UInt8(ascii: "0"))
            } else {
                truncated = true
                exponent += 1
            }
            digits += 1
            index += 1
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < end, Self.isDigit(bytes[index]) {
                if mantissa < 100_000_000_000_000_000 {
                    mantissa = mantissa * 10 + UInt64(bytes[index] &- UInt8(ascii: "0"))
                    exponent -= 1
                } else {
                    truncated = true
                }
                digits += 1
                index += 1
            }
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
        if !truncated, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            let value = Double(mantissa)
            let scaled = exponent < 0 ? value / Self.powerOfTen(-exponent) : value * Self.powerOfTen(exponent)
            return negative ? -scaled : scaled
        }
        return slowDouble(token)
    }

    /// A whole number written as digits alone (no sign), however many; nil for anything else.
    /// Values past 2^50 are returned as 2^50, so that a range check refuses them as out of range
    /// rather than as not being numbers.
    func integer(_ token: Range<Int>) -> Int? {
        guard !token.isEmpty else { return nil }
        var value = 0
        for index in token {
            let byte = bytes[index]
            guard Self.isDigit(byte) else { return nil }
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 1 << 50)
        }
        return value
    }

    /// The token's text as a message quotes it: at most 40 characters, then "...".
    func excerpt(_ token: Range<Int>) -> String {
        string(token.lowerBound..<min(token.upperBound, token.lowerBound + 400)).excerpt
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

    /// 10^exponent for 0...22, all exact Doubles.
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0x0B || byte == 0x0C
    }
}
