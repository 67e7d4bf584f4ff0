import ColorCubeCore
import ColorCubeTransform

/// Autodesk/Discreet 1D LUTs (.lut, "1DL"), read as OpenColorIO reads them. The extension is
/// shared with Houdini LUTs (`HoudiniLUTFormat`); the content tells them apart (see `sniff`).
///
/// Lines starting with `#` and blank lines are skipped. The first line is either
/// `LUT: tables length [depth]` (1, 3 or 4 tables; a 4th, alpha, is ignored; one table applies to
/// all channels) or already the first of 256 values of a single table. Each table is `length`
/// lines of one whole number 0...65535.
///
/// The input side follows from the length: 256, 1024, 4096 entries are 8-, 10- and 12-bit codes
/// evenly spread over 0...1; 65536 entries are indexed by half-float bit patterns (entry k is the
/// output for the half-float value whose bits are k), read here as a curve through every finite
/// half-float value. Any other length is spread evenly over 0...1. The output scale comes from
/// `depth` (8, 10, 12 or 16 bits as 256, 1024, 4096, 65536; `65536f` means the values are
/// half-float bit patterns), else from a file name with "to8", "to10", "to12", "to16" or
/// "to16f", else from the length (65536 entries: 16-bit integers).
public struct Discreet1DLFormat: LUTFileFormat {
    public init() {}

    public var name: String { "1dl" }
    public var displayName: String { ".lut (Autodesk/Discreet 1D)" }
    public var noun: String { "a Discreet 1D .lut" }
    public var extensions: [String] { ["lut"] }
    public var largestSize: Int? { nil }
    public var sizeDescription: String { "a 1D table" }
    public func canHold(size: Int) -> Bool { false }

    /// Text whose first line that is not a comment is `LUT: ...` or a number.
    public func sniff(_ head: [UInt8]) -> Bool {
        var index = 0
        while index < head.count {
            let byte = head[index]
            if byte == 0x23 {  // a comment runs to the end of the line
                while index < head.count, head[index] != 0x0A, head[index] != 0x0D { index += 1 }
            } else if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
            } else {
                return TextLineScanner.isDigit(byte) || TextLUTParsing.head(Array(head[index...]), startsWith: "LUT:")
            }
        }
        return false
    }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        let name = FilePath.split(path).name
        return Look(transform: try TextLUTParsing.parseFile(path: path) { (bytes) throws(LUTFileError) in
            try Self.parse(bytes, path: path, fileName: name)
        }, format: self)
    }

    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        throw LUTFileError.cannotHold(path: displayPath, format: noun, holds: "a 1D table", given: "a cube")
    }

    /// Parses Discreet 1D LUT text; `path` names the file in errors; `fileName` (without folder)
    /// may give the output depth.
    /// - Throws: `LUTFileError.malformed` with the line of the first problem: a header that is
    ///   not `LUT: tables length [depth]` with 1, 3 or 4 tables, a length out of range, an
    ///   unknown depth, a line that is not one whole number 0...65535, a file that ends early or
    ///   has lines after the last table.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String, fileName: String) throws(LUTFileError) -> Transform {
        var scanner = TextLineScanner(bytes)
        func nextValueLine() -> Bool {
            while scanner.nextLine() { if scanner.tokenCount > 0 { return true } }
            return false
        }
        guard nextValueLine() else { throw .malformed(path: path, line: scanner.endOfFileLine, reason: "the file is empty") }
        var tableCount = 1, length = 256
        var depth: (bits: Int, half: Bool)?
        var tables: [[Int]] = []
        var pending: Int?
        let first = scanner.token(0)
        if scanner.startsNumber(first) {
            pending = try value(scanner, path: path)
        } else {
            let line = scanner.lineNumber
            guard scanner.keyword(first) == "LUT:", (3...4).contains(scanner.tokenCount) else {
                throw .malformed(path: path, line: line, reason: "a Discreet 1D LUT starts with 'LUT: tables length' (e.g. LUT: 3 1024) or a number")
            }
            tableCount = try TextLUTParsing.whole(scanner, 1, in: 1...4, path: path, what: "table count")
            guard tableCount != 2 else { throw .malformed(path: path, line: line, reason: "table count 2: a Discreet 1D LUT has 1, 3 or 4 tables") }
            length = try TextLUTParsing.whole(scanner, 2, in: TextLUTParsing.lengthRange, path: path, what: "table length")
            if scanner.tokenCount == 4 {
                let text = scanner.string(scanner.token(3))
                let half = text.hasSuffix("f") || text.hasSuffix("F")
                guard let bits = Self.bits(forSize: TextLUTParsing.wholeNumber(half ? text.dropLast() : text[...]), half: half) else {
                    throw .malformed(path: path, line: line, reason: "output depth '\(text.excerpt)' is not 256, 1024, 4096, 65536 or 65536f")
                }
                depth = (bits, half)
            }
        }
        let reserve = TextLUTParsing.reservation(declared: length, fileBytes: bytes.count, bytesPerEntry: 2)
        for _ in 0..<tableCount {
            var table: [Int] = []
            table.reserveCapacity(reserve)
            if let value = pending { table.append(value); pending = nil }
            while table.count < length {
                guard nextValueLine() else {
                    throw .malformed(path: path, line: scanner.endOfFileLine, defect: .endsEarly(
                        what: "values of table \(tables.count + 1)", found: table.count, expected: length, calledFor: "length \(length)"))
                }
                table.append(try value(scanner, path: path))
            }
            tables.append(table)
        }
        if nextValueLine() {
            throw .malformed(path: path, line: scanner.lineNumber, reason: "more lines than \(tableCount) table(s) of \(length) values")
        }
        let output = depth ?? Self.depth(fromFileName: fileName) ?? Self.bits(forSize: length, half: false).map { ($0, false) }
        guard let output else {
            throw .malformed(path: path, line: 1, reason: "a table of \(length) entries needs an output depth (LUT: \(tableCount) \(length) 1024, for example)")
        }
        let scale = Double((1 << output.bits) - 1)
        func outputs(_ table: [Int]) -> [Double] {
            output.half ? table.map { HalfFloat.value(bits: UInt16(truncatingIfNeeded: $0)) } : table.map { Double($0) / scale }
        }
        return Transform([try TextLUTParsing.operation(path: path, line: 1) { () throws(TransformError) in
            var curves: [Curve] = []
            for channel in 0..<3 {
                let values = outputs(tables[min(channel, tableCount == 1 ? 0 : 2)])
                if length == 65536 {
                    let (points, kept) = HalfFloat.finiteDomain(values)
                    curves.append(try Curve(inputs: .points(points), outputs: kept))
                } else {
                    curves.append(try Curve(inputs: .uniform(0...1), outputs: values))
                }
            }
            return try LUT1DOp(curves: curves)
        }])
    }

    private static func value(_ scanner: TextLineScanner, path: String) throws(LUTFileError) -> Int {
        try TextLUTParsing.expectTokens(scanner, 1, what: "whole number per line", path: path)
        return try TextLUTParsing.whole(scanner, 0, in: 0...65535, path: path, what: "table value")
    }

    /// 8, 10, 12 or 16 bits for 256, 1024, 4096 or 65536 entries (65536 with `half`: 16 bits of a
    /// half float); nil for other sizes.
    private static func bits(forSize size: Int?, half: Bool) -> Int? {
        switch size {
        case 256: half ? nil : 8
        case 1024: half ? nil : 10
        case 4096: half ? nil : 12
        case 65536: 16
        default: nil
        }
    }

    /// The output depth a file name such as "log_to10.lut" states after "to", or nil.
    public static func depth(fromFileName name: String) -> (bits: Int, half: Bool)? {
        let lower = name.lowercased()
        guard let range = lower.range(of: "to") else { return nil }
        let rest = lower[range.upperBound...]
        if rest.hasPrefix("8") { return (8, false) }
        if rest.hasPrefix("10") { return (10, false) }
        if rest.hasPrefix("12") { return (12, false) }
        if rest.hasPrefix("16f") { return (16, true) }
        if rest.hasPrefix("16") { return (16, false) }
        return nil
    }
}
