import ColorCubeCore
import ColorCubeTransform

/// Pandora 3D LUTs (.m3d), read as OpenColorIO reads them.
///
/// Header lines (any case, `#` comments skipped): `channel 3d`, `in N` (the node count, a cube
/// n^3), `out M` (output values are divided by M - 1), `format lut`, then `values red green blue`
/// and N lines "index r g b" of whole numbers with BLUE varying fastest. Read as one 3D LUT over
/// 0...1.
public struct PandoraFormat: TextTransformFormat {
    public init() {}

    public var name: String { "m3d" }
    public var displayName: String { ".m3d (Pandora)" }
    public var noun: String { "an .m3d" }
    public var extensions: [String] { ["m3d"] }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        try readTransform(path: path)
    }
    public var clampsValues: Bool { true }

    /// Writes `table` as 12-bit values (`out 4096`), blue fastest, clamped to 0...1.
    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        let writer = TextLineWriter(file: try OutputFile(path: path, displayPath: displayPath))
        let n = table.size
        try writer.append("channel 3d\nin \(n * n * n)\nout 4096\nformat lut\nvalues red green blue\n")
        var index = 0
        // NaN writes as 0: `value > 0` is false for it, where min and max would pass it on to Int().
        func code(_ value: Float) -> Int { value > 0 ? Int((min(value, 1) * 4095).rounded()) : 0 }
        try table.forEachNodeBlueFastest { _, _, _, entry in
            try writer.append("\(index) \(code(entry.x)) \(code(entry.y)) \(code(entry.z))\n")
            index += 1
        }
        try writer.close()
    }

    /// Parses .m3d text; `path` names the file in errors.
    /// - Throws: `LUTFileError.malformed` with the line of the first problem: a channel other
    ///   than 3d, a format other than lut, values other than red green blue, an `in` that is not
    ///   a cube of a size in 2...256, an `out` below 2, a value line without 4 whole numbers,
    ///   values before `values red green blue`, more or fewer values lines than `in`.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> Transform {
        var scanner = TextLineScanner(bytes)
        var size: Int?
        var outMaximum: Int?
        var inValues = false
        var values: [Int] = []
        let largest = ColorCube.sizeRange.upperBound
        while scanner.nextLine() {
            guard scanner.tokenCount > 0 else { continue }
            let line = scanner.lineNumber
            let key = scanner.keyword(scanner.token(0))
            func requireTwo(_ expected: String?) throws(LUTFileError) {
                guard scanner.tokenCount == 2, expected.map({ scanner.keyword(scanner.token(1)) == $0 }) ?? true else {
                    throw .malformed(path: path, line: line, reason: "expected '\(key.lowercased()) \(expected?.lowercased() ?? "n")'; colorcube reads 'channel 3d', 'format lut', 'in n^3' and 'out m'")
                }
            }
            switch key {
            case "CHANNEL": try requireTwo("3D")
            case "FORMAT": try requireTwo("LUT")
            case "IN":
                try requireTwo(nil)
                let count = try TextLUTParsing.whole(scanner, 1, in: 8...(largest * largest * largest), path: path, what: "in")
                let root = Int(Self.pow3root(Double(count)).rounded())
                guard root * root * root == count, ColorCube.sizeRange.contains(root) else {
                    throw .malformed(path: path, line: line, reason: "in \(count) is not a cube's node count (n^3 for n in 2...256)")
                }
                size = root
            case "OUT":
                try requireTwo(nil)
                outMaximum = try TextLUTParsing.whole(scanner, 1, in: 2...65536, path: path, what: "out")
            case "VALUES":
                guard scanner.tokenCount == 4, scanner.keyword(scanner.token(1)) == "RED", scanner.keyword(scanner.token(2)) == "GREEN",
                      scanner.keyword(scanner.token(3)) == "BLUE" else {
                    throw .malformed(path: path, line: line, reason: "colorcube reads 'values red green blue' only")
                }
                guard let size else { throw .malformed(path: path, line: line, reason: "values before 'in'") }
                values.reserveCapacity(TextLUTParsing.reservation(declared: size * size * size, fileBytes: bytes.count, bytesPerEntry: 8) * 3)
                inValues = true
            default:
                guard inValues, let size else {
                    throw .malformed(path: path, line: line, reason: "unknown line '\(scanner.excerpt(scanner.token(0)))' before 'values red green blue'")
                }
                try TextLUTParsing.expectTokens(scanner, 4, what: "whole numbers (index red green blue)", path: path)
                guard values.count < size * size * size * 3 else {
                    throw .malformed(path: path, line: line, reason: "more value lines than in \(size * size * size)")
                }
                _ = try TextLUTParsing.whole(scanner, 0, in: 0...(size * size * size - 1), path: path, what: "index")
                for channel in 1..<4 { values.append(try TextLUTParsing.whole(scanner, channel, in: 0...(1 << 20), path: path, what: "value")) }
            }
        }
        let end = scanner.endOfFileLine
        guard let size else {
            throw .malformed(path: path, line: end, defect: .missing(part: "the 'in n^3' line", container: nil, hint: nil))
        }
        guard inValues else {
            throw .malformed(path: path, line: end, defect: .missing(part: "the 'values red green blue' line", container: nil, hint: nil))
        }
        guard let outMaximum else {
            throw .malformed(path: path, line: end, defect: .missing(part: "the 'out m' line", container: nil, hint: "it gives the output scale"))
        }
        guard values.count == size * size * size * 3 else {
            throw .malformed(path: path, line: end, defect: .endsEarly(
                what: "value lines", found: values.count / 3, expected: size * size * size, calledFor: "in \(size * size * size)"))
        }
        let scale = Float(1) / Float(outMaximum - 1)
        return Transform([LUT3DOp(table: try TextLUTParsing.cube(blueFastest: values.map { Float($0) * scale }, size: size, path: path, line: end))])
    }

    private static func pow3root(_ value: Double) -> Double {
        var root = value.squareRoot().squareRoot()
        // Newton steps on r^3 = value; node counts are at most 256^3, so a few steps suffice.
        for _ in 0..<60 { root -= (root * root * root - value) / (3 * root * root) }
        return root
    }
}
