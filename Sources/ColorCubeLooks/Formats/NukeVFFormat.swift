import ColorCubeCore
import ColorCubeTransform

/// Nuke vector field LUTs (.vf), read as OpenColorIO reads them.
///
/// Layout: a first line `#Inventor V2.1 ascii`; then, in any order, `grid_size n n n` (three
/// equal sizes), an optional `global_transform` of 16 numbers, and `data`, after which come n^3
/// lines "r g b" with BLUE varying fastest. Other lines and `#` comments are skipped.
///
/// The global transform is four rows of four. As OpenColorIO does, the first three columns of the
/// first three rows are multiplied by the grid size and applied to red, green and blue before the
/// lattice, so a file's identity transform reads inputs scaled by n. The fourth column and row
/// act only on alpha in OpenColorIO (an RGB image's alpha is 0 there), so they are read and left
/// out: a look carries no alpha.
public struct NukeVFFormat: TextTransformFormat {
    public init() {}

    public var name: String { "vf" }
    public var displayName: String { ".vf (Nuke vector field)" }
    public var noun: String { "a .vf" }
    public var extensions: [String] { ["vf"] }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        try readTransform(path: path)
    }

    /// Text starting with `#Inventor`.
    public func sniff(_ head: [UInt8]) -> Bool { TextLUTParsing.head(head, startsWith: "#Inventor") }

    /// Writes `table` as a .vf without a global transform: the header, `grid_size`, `data`, then
    /// the lattice with blue fastest.
    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        let writer = TextLineWriter(file: try OutputFile(path: path, displayPath: displayPath))
        let n = table.size
        try writer.append("#Inventor V2.1 ascii\ngrid_size \(n) \(n) \(n)\ndata\n")
        try table.forEachNodeBlueFastest { _, _, _, entry in
            try writer.appendFixedLine(entry.x, entry.y, entry.z)
        }
        try writer.close()
    }

    /// Parses .vf text; `path` names the file in errors.
    /// - Throws: `LUTFileError.malformed` with the line of the first problem: no `#Inventor`
    ///   line, a `grid_size` that is not three equal sizes in 2...256, a `global_transform`
    ///   without 16 finite numbers, data before `grid_size`, a data line without three finite
    ///   numbers, more or fewer data lines than the grid holds.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> Transform {
        guard TextLUTParsing.head(Array(UnsafeBufferPointer(rebasing: bytes.prefix(16))), startsWith: "#Inventor") else {
            throw .malformed(path: path, line: 1, reason: "a .vf starts with '#Inventor V2.1 ascii'")
        }
        var scanner = TextLineScanner(bytes)
        var size: Int?
        var global: [Double]?
        var inData = false
        var values: [Float] = []
        while scanner.nextLine() {
            guard scanner.tokenCount > 0 else { continue }
            let line = scanner.lineNumber
            if !inData {
                let key = scanner.keyword(scanner.token(0))
                if key == "GRID_SIZE" {
                    try TextLUTParsing.expectTokens(scanner, 3, skipping: 1, what: "sizes after grid_size", path: path)
                    let n = try TextLUTParsing.whole(scanner, 1, in: ColorCube.sizeRange, path: path, what: "grid_size")
                    for index in 2..<4 where scanner.integer(scanner.token(index)) != n {
                        throw .malformed(path: path, line: line, reason: "grid_size must give one size three times")
                    }
                    size = n
                } else if key == "GLOBAL_TRANSFORM" {
                    try TextLUTParsing.expectTokens(scanner, 16, skipping: 1, what: "numbers after global_transform", path: path)
                    var matrix: [Double] = []
                    for index in 1..<17 { matrix.append(try TextLUTParsing.number(scanner, index, path: path, what: "global_transform")) }
                    global = matrix
                } else if key == "DATA" {
                    guard let size else { throw .malformed(path: path, line: line, reason: "data before grid_size") }
                    values.reserveCapacity(TextLUTParsing.reservation(declared: size * size * size, fileBytes: bytes.count, bytesPerEntry: 6) * 3)
                    inData = true
                }
                continue
            }
            guard let size else { continue }
            try TextLUTParsing.expectTokens(scanner, 3, what: TextLUTParsing.tripleWords, path: path)
            guard values.count < size * size * size * 3 else {
                throw .malformed(path: path, line: line, reason: "more data lines than the \(size * size * size) of grid_size \(size)")
            }
            for channel in 0..<3 { values.append(Float(try TextLUTParsing.number(scanner, channel, path: path, what: "data"))) }
        }
        let end = scanner.endOfFileLine
        guard let size, inData else { throw .malformed(path: path, line: end, reason: "no grid_size and data lines") }
        guard values.count == size * size * size * 3 else {
            throw .malformed(path: path, line: end, defect: .endsEarly(
                what: "data lines", found: values.count / 3, expected: size * size * size, calledFor: "grid_size \(size)"))
        }
        var operations: [any TransformOp] = []
        if let global {
            let n = Double(size)
            let rows = (0..<3).map { SIMD3(global[4 * $0] * n, global[4 * $0 + 1] * n, global[4 * $0 + 2] * n) }
            operations.append(try TextLUTParsing.operation(path: path, line: 1) { () throws(TransformError) in
                try MatrixOp(rows: rows)
            })
        }
        operations.append(LUT3DOp(table: try TextLUTParsing.cube(blueFastest: values, size: size, path: path, line: end)))
        return Transform(operations)
    }
}
