import ColorCubeCore
import ColorCubeTransform

/// Sony Pictures Imageworks 3D LUTs (.spi3d), read as OpenColorIO reads them.
///
/// Layout: a first line starting with `SPILUT` (any case), a second line that is ignored
/// (usually "3 3"), a third line with the lattice size three times ("33 33 33"); then one line
/// per node: its red, green and blue indices and its output "ri gi bi r g b". Nodes may come in
/// any order (writers put blue fastest), each exactly once. Read as one 3D LUT over 0...1.
public struct Spi3DFormat: TextTransformFormat {
    public init() {}

    public var name: String { "spi3d" }
    public var displayName: String { ".spi3d (Sony Pictures Imageworks 3D)" }
    public var noun: String { "an .spi3d" }
    public var extensions: [String] { ["spi3d"] }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        try readTransform(path: path)
    }

    /// Text starting with `SPILUT`.
    public func sniff(_ head: [UInt8]) -> Bool { TextLUTParsing.head(head, startsWith: "SPILUT") }

    /// Writes `table` as .spi3d: `SPILUT 1.0`, `3 3`, the size three times, then one line per
    /// node with blue fastest, "ri gi bi r g b", values with `CubeTextFormat.decimals` decimals.
    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        let writer = TextLineWriter(file: try OutputFile(path: path, displayPath: displayPath))
        let n = table.size
        try writer.append("SPILUT 1.0\n3 3\n\(n) \(n) \(n)\n")
        try table.forEachNodeBlueFastest { r, g, b, entry in
            try writer.append("\(r) \(g) \(b) ")
            try writer.appendFixedLine(entry.x, entry.y, entry.z)
        }
        try writer.close()
    }

    /// Parses .spi3d text; `path` names the file in errors.
    /// - Throws: `LUTFileError.malformed` with the line of the first problem: no `SPILUT` line,
    ///   a size line that is not three equal sizes in 2...256, a node line without six values,
    ///   an index outside the lattice, a node given twice, a value that is not a finite number,
    ///   or nodes missing at the end of the file.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> Transform {
        var scanner = TextLineScanner(bytes)
        guard scanner.nextLine(), scanner.tokenCount > 0, scanner.string(scanner.token(0)).uppercased().hasPrefix("SPILUT") else {
            throw .malformed(path: path, line: 1, reason: "an .spi3d starts with a line 'SPILUT 1.0'")
        }
        guard scanner.nextLine(), scanner.nextLine() else {
            throw .malformed(path: path, line: scanner.endOfFileLine, reason: "the file ends before the size line (line 3)")
        }
        try TextLUTParsing.expectTokens(scanner, 3, what: "sizes on line 3 (e.g. 33 33 33)", path: path)
        let size = try TextLUTParsing.whole(scanner, 0, in: ColorCube.sizeRange, path: path, what: "size")
        for index in 1..<3 where scanner.integer(scanner.token(index)) != size {
            throw .malformed(path: path, line: scanner.lineNumber,
                             reason: "the sizes must be equal, found \(scanner.tokens.map(scanner.string).joined(separator: " "))")
        }
        let count = size * size * size
        // Every node line takes at least 12 bytes ("0 0 0 0 0 0\n"): a short file declaring a
        // large lattice fails here, before the table is allocated.
        guard bytes.count / 12 >= count else {
            throw .malformed(path: path, line: scanner.lineNumber,
                             reason: "a \(size)-cube needs \(count) node lines; the file is \(bytes.count) bytes")
        }
        var values = [Float](repeating: 1, count: count * 4)
        var defined = [Bool](repeating: false, count: count)
        var remaining = count
        while remaining > 0, scanner.nextLine() {
            guard scanner.tokenCount > 0 else { continue }
            let line = scanner.lineNumber
            try TextLUTParsing.expectTokens(scanner, 6, what: "values (red, green and blue index, then red, green and blue)", path: path)
            var index = SIMD3<Int>()
            for axis in 0..<3 {
                index[axis] = try TextLUTParsing.whole(scanner, axis, in: 0...(size - 1), path: path, what: "node index")
            }
            let node = ColorCube.redFastestIndex(r: index.x, g: index.y, b: index.z, size: size)
            guard !defined[node] else {
                throw .malformed(path: path, line: line, reason: "node \(index.x) \(index.y) \(index.z) is given twice")
            }
            defined[node] = true
            remaining -= 1
            for channel in 0..<3 {
                values[node * 4 + channel] = Float(try TextLUTParsing.number(scanner, 3 + channel, path: path, what: "node \(index.x) \(index.y) \(index.z)"))
            }
        }
        guard remaining == 0 else {
            throw .malformed(path: path, line: scanner.endOfFileLine, defect: .endsEarly(
                what: "node lines", found: count - remaining, expected: count, calledFor: "a \(size)-cube"))
        }
        let table = try TextLUTParsing.cube(redFastest: values, size: size, path: path, line: scanner.lineNumber)
        return Transform([LUT3DOp(table: table)])
    }
}
