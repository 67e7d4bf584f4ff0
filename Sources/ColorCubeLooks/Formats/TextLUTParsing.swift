import ColorCubeCore
import ColorCubeTransform

/// What the line-based LUT readers (.spi1d, .spi3d, .csp, .lut, .vf, .m3d) share: numbers that
/// must be finite, sizes checked against a range before anything is reserved, and lattices stored
/// blue fastest turned into ColorCube's red-fastest order.
enum TextLUTParsing {
    /// The 1D table lengths accepted (OpenColorIO's own limit is 1024 * 1024 entries).
    static let lengthRange = 2...1_048_576

    /// Token `index` of the scanner's line as a finite number.
    /// - Throws: `LUTFileError.malformed` naming the line and `what` the value is.
    static func number(_ scanner: TextLineScanner, _ index: Int, path: String, what: String) throws(LUTFileError) -> Double {
        let token = scanner.token(index)
        guard let value = scanner.double(token), value.isFinite, Float(value).isFinite else {
            throw .malformed(path: path, line: scanner.lineNumber, defect: .notFinite(field: what, text: scanner.excerpt(token)))
        }
        return value
    }

    /// Checks that the scanner's line holds `expected` tokens (`what`: the words after the count,
    /// "values (red green blue)"), skipping the first `skipping` (a keyword).
    /// - Throws: `LUTFileError.malformed` with `.wrongCount`.
    static func expectTokens(_ scanner: TextLineScanner, _ expected: Int, skipping: Int = 0, what: String,
                             path: String) throws(LUTFileError) {
        let found = scanner.tokenCount - skipping
        guard found == expected else {
            throw .malformed(path: path, line: scanner.lineNumber, defect: .wrongCount(what: what, expected: expected, found: found))
        }
    }

    /// The words for a data line of a lattice: "values (red green blue)".
    static let tripleWords = "values (red green blue)"

    /// Token `index` of the scanner's line as a whole number in `range`.
    /// - Throws: `LUTFileError.malformed` naming the line, `what` the number is and the range.
    static func whole(_ scanner: TextLineScanner, _ index: Int, in range: ClosedRange<Int>, path: String,
                      what: String) throws(LUTFileError) -> Int {
        let token = scanner.token(index)
        guard let value = scanner.integer(token) else {
            throw .malformed(path: path, line: scanner.lineNumber, defect: .notWhole(field: what, text: scanner.excerpt(token)))
        }
        guard range.contains(value) else {
            throw .malformed(path: path, line: scanner.lineNumber,
                             defect: .outOfRange(field: what, text: scanner.excerpt(token), range: range))
        }
        return value
    }

    /// A 1D table entry written `nan` or `inf` / `infinity` (any case, optional sign), read as
    /// OpenColorIO reads it: NaN as 0 and infinity as the largest Float32 of its sign
    /// (OpenColorIO keeps tables in Float32 and clamps them to its range). Nil for other text.
    static func nonFiniteEntry<Text: StringProtocol>(_ text: Text) -> Double? {
        var word = text.lowercased()[...]
        var sign = 1.0
        if let first = word.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            word = word.dropFirst()
        }
        switch word {
        case "nan": return 0
        case "inf", "infinity": return sign * largestTableEntry
        default: return nil
        }
    }

    /// Token `index` of the scanner's line as a 1D table entry: a finite number, or `nan` or
    /// `inf` read as `nonFiniteEntry` reads them.
    /// - Throws: `LUTFileError.malformed` naming the line and `what` the value is.
    static func tableEntry(_ scanner: TextLineScanner, _ index: Int, path: String, what: String) throws(LUTFileError) -> Double {
        if let special = nonFiniteEntry(scanner.string(scanner.token(index))) { return special }
        return try number(scanner, index, path: path, what: what)
    }

    /// The largest Float32: OpenColorIO's value for an infinite 1D table entry.
    static let largestTableEntry = Double(Float.greatestFiniteMagnitude)

    /// A whole number written as digits alone, however many (saturating at 2^50, which every
    /// range refuses); nil for anything else. For sizes in text that is not read by a scanner.
    static func wholeNumber<Text: StringProtocol>(_ text: Text) -> Int? {
        guard !text.isEmpty else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 1 << 50)
        }
        return value
    }

    /// How many entries to reserve for `declared` entries of at least `bytesPerEntry` bytes each
    /// in a file of `fileBytes` bytes: never more than the file can hold.
    static func reservation(declared: Int, fileBytes: Int, bytesPerEntry: Int) -> Int {
        max(0, min(declared, fileBytes / max(1, bytesPerEntry)))
    }

    /// A lattice of `size` from RGB triples stored with BLUE varying fastest (.3dl, .vf, .m3d,
    /// OpenColorIO's own order), as a red-fastest ColorCube.
    static func cube(blueFastest rgb: [Float], size: Int, path: String, line: Int) throws(LUTFileError) -> ColorCube {
        var values = [Float](repeating: 1, count: size * size * size * 4)
        var source = 0
        for r in 0..<size {
            for g in 0..<size {
                for b in 0..<size {
                    let target = ColorCube.redFastestIndex(r: r, g: g, b: b, size: size) * 4
                    values[target] = rgb[source]
                    values[target + 1] = rgb[source + 1]
                    values[target + 2] = rgb[source + 2]
                    source += 3
                }
            }
        }
        return try cube(redFastest: values, size: size, path: path, line: line)
    }

    /// A lattice of `size` from RGBA values stored red fastest.
    static func cube(redFastest rgba: [Float], size: Int, path: String, line: Int) throws(LUTFileError) -> ColorCube {
        do throws(CubeError) {
            return try ColorCube(size: size, values: rgba)
        } catch {
            // Unreachable: callers checked the size and the count.
            throw .malformed(path: path, line: line, reason: error.description)
        }
    }

    /// Runs `body`, reporting an operation's refusal of its data as a malformed file at `line`.
    static func operation<T>(path: String, line: Int, _ body: () throws(TransformError) -> T) throws(LUTFileError) -> T {
        do throws(TransformError) {
            return try body()
        } catch {
            throw .malformed(path: path, line: line, reason: error.description)
        }
    }

    /// The file's bytes, parsed by `parse` while they are held.
    static func parseFile<T>(path: String, _ parse: (UnsafeBufferPointer<UInt8>) throws(LUTFileError) -> T) throws -> T {
        try BinaryFile.readAll(path: path).withUnsafeBufferPointer { (bytes) throws(LUTFileError) in try parse(bytes) }
    }

    /// True when `head`, after a byte order mark and white space, starts with `word` in any case.
    static func head(_ head: [UInt8], startsWith word: String) -> Bool {
        var index = 0
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { index = 3 }
        while index < head.count, head[index] == 0x20 || head[index] == 0x09 || head[index] == 0x0A || head[index] == 0x0D {
            index += 1
        }
        let expected = Array(word.lowercased().utf8)
        guard head.count - index >= expected.count else { return false }
        for (offset, byte) in expected.enumerated() {
            var actual = head[index + offset]
            if actual >= 0x41 && actual <= 0x5A { actual += 32 }
            guard actual == byte else { return false }
        }
        return true
    }
}
