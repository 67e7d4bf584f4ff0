import ColorCubeCore
import ColorCubeTransform

/// Sony Pictures Imageworks 1D LUTs (.spi1d), read as OpenColorIO reads them.
///
/// Header lines, until a line starting with `{`: `Version 1` (the only version), `From lo hi`
/// (the input range, default 0 1), `Length n` and `Components c` (1, 2 or 3); other header lines
/// are ignored. Then n lines of c numbers and a line `}`. One component applies to all three
/// channels; two components give red and green, and blue becomes 0 (as OpenColorIO does).
/// Read as one 1D LUT whose entries are evenly spaced over `lo...hi`; inputs outside it read the
/// first or last entry. Written from a look that is such a 1D LUT, exactly (`writeChain`); any
/// other look is refused, as a 1D table cannot hold it.
public struct Spi1DFormat: LUTFileFormat {
    public init() {}

    public var name: String { "spi1d" }
    public var displayName: String { ".spi1d (Sony Pictures Imageworks 1D)" }
    public var noun: String { "an .spi1d" }
    public var extensions: [String] { ["spi1d"] }
    public var largestSize: Int? { nil }
    public var sizeDescription: String { "a 1D table" }
    public func canHold(size: Int) -> Bool { false }
    public var writesLooksWithoutCube: Bool { true }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        Look(transform: try TextLUTParsing.parseFile(path: path) { (bytes) throws(LUTFileError) in
            try Self.parse(bytes, path: path)
        }, format: self)
    }

    /// True for a look that is one 1D LUT with evenly spaced inputs, and for every look that
    /// mixes channels (an .spi1d holds no cube, so nothing is baked: `writeChain` refuses it,
    /// saying what the look holds). False for other per-channel looks, which `LUTWriter` samples
    /// into a 1D table first (`TransformBaker.curves(of:)`).
    public func holdsExactly(_ transform: Transform) -> Bool {
        Self.evenlySpacedCurves(transform) != nil || !transform.operations.allSatisfy(\.isPerChannel)
            || transform.operations.isEmpty
    }

    /// Writes a look that is one 1D LUT whose curves have evenly spaced inputs over one range and
    /// the same length (what an .spi1d holds): `Version 1`, `From lo hi`, `Length n`,
    /// `Components 1` when the three curves are equal (else 3), then the entries, each written
    /// in the shortest form that reads back as the same Double (`shortestText`).
    /// - Throws: `LUTFileError.unsupported` naming what the look holds when it is anything else
    ///   (a 3D LUT, a matrix, a chain, a 1D LUT with listed inputs such as a half-float domain);
    ///   `FileError` when the file cannot be written.
    public func writeChain(_ transform: Transform, to path: String, displayPath: String, title: String) throws {
        guard let (range, curves) = Self.evenlySpacedCurves(transform) else {
            let holds = transform.operations.isEmpty ? "nothing (the identity)"
                : transform.operations.map(\.description).joined(separator: ", then ")
            throw LUTFileError.unsupported(path: displayPath, reason: "\(noun) holds one 1D LUT with evenly spaced inputs; "
                + "this look is \(holds); write a .cube, .clf or another format that holds it")
        }
        let same = curves[1].outputs == curves[0].outputs && curves[2].outputs == curves[0].outputs
        let writer = TextLineWriter(file: try OutputFile(path: path, displayPath: displayPath))
        let count = curves[0].outputs.count
        try writer.append("Version 1\nFrom \(range.lowerBound.shortestText) \(range.upperBound.shortestText)\nLength \(count)\nComponents \(same ? 1 : 3)\n{\n")
        for index in 0..<count {
            let line = same ? curves[0].outputs[index].shortestText : curves.map { $0.outputs[index].shortestText }.joined(separator: " ")
            try writer.append("    " + line + "\n")
        }
        try writer.append("}\n")
        try writer.close()
    }

    /// The range and curves of a look that is one 1D LUT whose curves share evenly spaced inputs
    /// and a length, or nil.
    static func evenlySpacedCurves(_ transform: Transform) -> (ClosedRange<Double>, [Curve])? {
        guard transform.operations.count == 1, let lut = transform.operations.first as? LUT1DOp, lut.curves.count == 3,
              case .uniform(let range) = lut.curves[0].inputs else { return nil }
        let count = lut.curves[0].outputs.count
        guard lut.curves.allSatisfy({ $0.inputs == .uniform(range) && $0.outputs.count == count }) else { return nil }
        return (range, lut.curves)
    }

    /// A cube is not a 1D LUT; `LUTWriter` validates the size first, which `canHold` refuses.
    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        throw LUTFileError.unsupported(path: displayPath, reason: "\(noun) holds a 1D table, not a cube")
    }

    /// Parses .spi1d text; `path` names the file in errors.
    /// - Throws: `LUTFileError.malformed` with the line of the first problem: a version other
    ///   than 1, a malformed `From`, `Length` or `Components` line, a missing tag, a data line
    ///   with the wrong count of values or a value that is not a number, more or fewer data
    ///   lines than `Length`, an empty input range, a value beyond Float32's range. Entries
    ///   written `nan` or `inf` are read as OpenColorIO reads them (see
    ///   `TextLUTParsing.nonFiniteEntry`: NaN as 0, infinity as the largest Float32).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> Transform {
        var scanner = TextLineScanner(bytes)
        var version: Int?, length: Int?, components: Int?
        var from = (0.0, 1.0)
        var fromLine = 1
        var opened = false
        while !opened, scanner.nextLine() {
            guard scanner.tokenCount > 0 else { continue }
            let first = scanner.token(0)
            let line = scanner.lineNumber
            if scanner.string(first).hasPrefix("{") {
                opened = true
            } else if scanner.token(first, is: "VERSION") {
                try TextLUTParsing.expectTokens(scanner, 1, skipping: 1, what: "whole number after Version", path: path)
                version = try TextLUTParsing.whole(scanner, 1, in: 1...1, path: path, what: "Version (only version 1 exists)")
            } else if scanner.token(first, is: "FROM") {
                try TextLUTParsing.expectTokens(scanner, 2, skipping: 1, what: "numbers after From (e.g. From 0.0 1.0)", path: path)
                from = (try TextLUTParsing.number(scanner, 1, path: path, what: "From"),
                        try TextLUTParsing.number(scanner, 2, path: path, what: "From"))
                fromLine = line
            } else if scanner.token(first, is: "LENGTH") {
                try TextLUTParsing.expectTokens(scanner, 1, skipping: 1, what: "whole number after Length", path: path)
                length = try TextLUTParsing.whole(scanner, 1, in: TextLUTParsing.lengthRange, path: path, what: "Length")
            } else if scanner.token(first, is: "COMPONENTS") {
                try TextLUTParsing.expectTokens(scanner, 1, skipping: 1, what: "whole number after Components", path: path)
                components = try TextLUTParsing.whole(scanner, 1, in: 1...3, path: path, what: "Components")
            }
        }
        let headerEnd = scanner.endOfFileLine
        guard opened else {
            throw .malformed(path: path, line: headerEnd, defect: .missing(part: "the '{' that opens the table", container: nil, hint: nil))
        }
        guard version != nil else {
            throw .malformed(path: path, line: headerEnd, defect: .missing(part: "the 'Version 1' line", container: nil, hint: "it comes before '{'"))
        }
        guard let length else {
            throw .malformed(path: path, line: headerEnd, defect: .missing(part: "the 'Length n' line", container: nil, hint: "it comes before '{'"))
        }
        guard let components else {
            throw .malformed(path: path, line: headerEnd, defect: .missing(part: "the 'Components c' line", container: nil, hint: "it comes before '{'"))
        }
        guard from.1 != from.0 else {
            throw .malformed(path: path, line: fromLine, reason: "From \(from.0) \(from.1) is an empty input range")
        }
        var entries: [[Double]] = [[], [], []]
        let reserve = TextLUTParsing.reservation(declared: length, fileBytes: bytes.count, bytesPerEntry: 2 * components)
        for channel in 0..<3 { entries[channel].reserveCapacity(reserve) }
        var closed = false
        while scanner.nextLine() {
            guard scanner.tokenCount > 0 else { continue }
            let line = scanner.lineNumber
            if scanner.string(scanner.token(0)) == "}" { closed = true; break }
            try TextLUTParsing.expectTokens(scanner, components, what: "values per line (Components \(components))", path: path)
            guard entries[0].count < length else {
                throw .malformed(path: path, line: line, reason: "more entries than Length \(length)")
            }
            var values = SIMD3<Double>()
            for index in 0..<components {
                values[index] = try TextLUTParsing.tableEntry(scanner, index, path: path, what: "entry \(entries[0].count)")
            }
            if components == 1 { values = SIMD3(repeating: values.x) }
            for channel in 0..<3 { entries[channel].append(values[channel]) }
        }
        let end = scanner.endOfFileLine
        guard closed else {
            throw .malformed(path: path, line: end, defect: .missing(part: "the '}' that closes the table", container: nil, hint: nil))
        }
        guard entries[0].count == length else {
            throw .malformed(path: path, line: scanner.lineNumber, defect: .wrongCount(what: "table entries (Length \(length))", expected: length, found: entries[0].count))
        }
        // A decreasing From range runs the table backwards; OpenColorIO maps lo to 0 and hi to 1
        // either way, so the table reversed over hi...lo is the same function.
        let ascending = from.1 > from.0
        let range = ascending ? from.0...from.1 : from.1...from.0
        return Transform([try TextLUTParsing.operation(path: path, line: fromLine) { () throws(TransformError) in
            try LUT1DOp(curves: entries.map { (outputs) throws(TransformError) in
                try Curve(inputs: .uniform(range), outputs: ascending ? outputs : outputs.reversed())
            })
        }])
    }
}
