import ColorCubeCore
import ColorCubeTransform

/// Sony Pictures Imageworks matrices (.spimtx), read as OpenColorIO reads them.
///
/// Twelve numbers, in any line layout: three rows of "m0 m1 m2 offset". The offsets are in
/// 16-bit code values: each is divided by 65535. Read as one matrix with offsets,
/// out = M * in + offset / 65535.
public struct SpiMtxFormat: TextTransformFormat {
    public init() {}

    public var name: String { "spimtx" }
    public var displayName: String { ".spimtx (Sony Pictures Imageworks matrix)" }
    public var noun: String { "an .spimtx" }
    public var extensions: [String] { ["spimtx"] }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        try readTransform(path: path)
    }
    public var largestSize: Int? { nil }
    public var sizeDescription: String { "a matrix" }
    public func canHold(size: Int) -> Bool { false }

    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        throw LUTFileError.cannotHold(path: displayPath, format: noun, holds: "a matrix", given: "a cube")
    }

    /// Parses .spimtx text; `path` names the file in errors.
    /// - Throws: `LUTFileError.malformed` at the line of a value that is not a finite number, or
    ///   of the 13th value, or at the last line when there are fewer than 12.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> Transform {
        var scanner = TextLineScanner(bytes)
        var numbers: [Double] = []
        while scanner.nextLine() {
            for index in 0..<scanner.tokenCount {
                guard numbers.count < 12 else {
                    throw .malformed(path: path, line: scanner.lineNumber, reason: "an .spimtx holds 12 numbers (3 rows of 3 weights and an offset); this is the 13th")
                }
                numbers.append(try TextLUTParsing.number(scanner, index, path: path, what: "value \(numbers.count + 1)"))
            }
        }
        guard numbers.count == 12 else {
            throw .malformed(path: path, line: scanner.endOfFileLine,
                             defect: .wrongCount(what: "numbers (3 rows of 3 weights and an offset)", expected: 12, found: numbers.count))
        }
        let rows = (0..<3).map { SIMD3(numbers[4 * $0], numbers[4 * $0 + 1], numbers[4 * $0 + 2]) }
        let offset = SIMD3(numbers[3], numbers[7], numbers[11]) / 65535
        return Transform([try TextLUTParsing.operation(path: path, line: 1) { () throws(TransformError) in
            try MatrixOp(rows: rows, offset: offset)
        }])
    }
}
