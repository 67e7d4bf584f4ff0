import ColorCubeCore
import ColorCubeTransform

/// Cinespace LUTs (.csp), read as OpenColorIO reads them.
///
/// Layout (blank lines skipped): `CSPLUTV100`; `1D` or `3D`; an optional block from
/// `BEGIN METADATA` to `END METADATA`; then the pre-LUT, one block per channel (red, green,
/// blue): a count n, and when n >= 2 a line of n input points (increasing) and a line of n
/// outputs; then for `1D` a count m and m lines "r g b" over 0...1, for `3D` a line "n n n" and
/// n^3 lines "r g b" with red fastest, over 0...1.
///
/// The pre-LUT is a smooth curve through its points (Cinespace's piecewise cubic, with slopes
/// from the neighbouring points; linear for two points), clamped to its first and last point.
/// As OpenColorIO does, it is read as a 1D LUT of 65536 entries per channel sampled from that
/// curve over the channel's input range, and left out when every channel's outputs equal its
/// inputs. A look is read as [pre-LUT,] then the 1D or 3D table.
public struct CinespaceFormat: LUTFileFormat {
    public init() {}

    public var name: String { "csp" }
    public var displayName: String { ".csp (Cinespace)" }
    public var noun: String { "a .csp" }
    public var extensions: [String] { ["csp"] }

    /// Entries of the 1D LUT a pre-LUT is sampled into (OpenColorIO's count).
    public static let preLUTSamples = 65536

    /// Text starting with `CSPLUTV100`.
    public func sniff(_ head: [UInt8]) -> Bool { TextLUTParsing.head(head, startsWith: "CSPLUTV100") }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        let (transform, title) = try TextLUTParsing.parseFile(path: path) { (bytes) throws(LUTFileError) in
            try Self.parse(bytes, path: path)
        }
        return Look(transform: transform, format: self, title: title)
    }

    public func describe(_ look: Look) -> String {
        displayName + (look.transform.operations.count > 1 ? " with a pre-LUT" : "")
    }

    /// True for a chain .csp holds exactly: a 1D LUT whose curves are evenly
    /// spaced over one range with one length (a range other than 0...1 is the pre-LUT's straight
    /// line from it to 0...1); or a 1D LUT then a 3D LUT over 0...1 where the 1D LUT
    /// becomes the pre-LUT, when Cinespace's curve through each channel's points stays within
    /// `preLUTTolerance` of the straight lines between them (checked halfway along every segment:
    /// true for two points, for points on a line and for dense smooth curves).
    public func holdsExactly(_ transform: Transform) -> Bool {
        let ops = transform.operations
        switch ops.count {
        case 1:
            // A plain 3D table over 0...1 takes the plain path (`write`), which writes the same file.
            if ops[0] is LUT3DOp { return false }
            guard let table = ops[0] as? LUT1DOp, case .uniform(let range) = table.curves[0].inputs else { return false }
            return table.curves.allSatisfy { $0.inputs == .uniform(range) && $0.outputs.count == table.curves[0].outputs.count }
        case 2:
            guard let pre = ops[0] as? LUT1DOp, (ops[1] as? LUT3DOp)?.hasUnitDomain == true else { return false }
            return pre.curves.allSatisfy(Self.preLUTIsFaithful)
        default:
            return false
        }
    }

    /// How far Cinespace's curve may stray from straight lines between a pre-LUT's points.
    public static let preLUTTolerance = 1e-5

    private static func preLUTIsFaithful(_ curve: Curve) -> Bool {
        let points = curve.positions, outputs = curve.outputs
        for segment in 0..<(points.count - 1) {
            let x = (points[segment] + points[segment + 1]) / 2
            let straight = (outputs[segment] + outputs[segment + 1]) / 2
            if abs(cinespaceCurve(points: points, outputs: outputs, segment: segment, x: x) - straight) > preLUTTolerance { return false }
        }
        return true
    }

    /// Writes `table` as a 3D .csp with an identity pre-LUT.
    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        try writeFile([LUT3DOp(table: ColorCube(table))], to: path, displayPath: displayPath, title: title)
    }

    /// Writes a chain `holdsExactly` accepts; any other look is baked into a plain 3D table by
    /// `LUTWriter` before it gets here.
    /// - Throws: `LUTFileError.cannotHold` for another chain, `FileError` when the file cannot
    ///   be written.
    public func writeChain(_ transform: Transform, to path: String, displayPath: String, title: String) throws {
        guard holdsExactly(transform) else {
            throw LUTFileError.cannotHold(path: displayPath, format: noun, holds: "a 1D and a 3D LUT", given: "\(transform)")
        }
        try writeFile(transform.operations, to: path, displayPath: displayPath, title: title)
    }

    /// Layout: the header, the metadata block holding the title, the pre-LUT (the leading 1D
    /// LUT's points before a 3D LUT; a straight line from a 1D table's range to 0...1; else
    /// identity), then the 1D or 3D table.
    private func writeFile(_ ops: [any TransformOp], to path: String, displayPath: String, title: String) throws {
        let writer = TextLineWriter(file: try OutputFile(path: path, displayPath: displayPath))
        let lattice = ops.last as? LUT3DOp
        try writer.append("CSPLUTV100\n\(lattice == nil ? "1D" : "3D")\n\nBEGIN METADATA\n")
        let cleanTitle = String(title.map { $0.isNewline ? " " : $0 })
        if !cleanTitle.isEmpty { try writer.append(cleanTitle + "\n") }
        try writer.append("END METADATA\n\n")
        let table = lattice == nil ? ops.first as? LUT1DOp : nil
        if let pre = ops.first as? LUT1DOp, lattice != nil {
            for curve in pre.curves {
                try writer.append("\(curve.outputs.count)\n")
                try writeNumbers(curve.positions, to: writer)
                try writeNumbers(curve.outputs, to: writer)
            }
        } else if let table, case .uniform(let range) = table.curves[0].inputs, range != 0...1 {
            let line = "2\n\(range.lowerBound) \(range.upperBound)\n0.0 1.0\n"
            try writer.append(line + line + line)
        } else {
            try writer.append("2\n0.0 1.0\n0.0 1.0\n2\n0.0 1.0\n0.0 1.0\n2\n0.0 1.0\n0.0 1.0\n")
        }
        try writer.append("\n")
        if let lattice {
            let n = lattice.size
            try writer.append("\(n) \(n) \(n)\n")
            try lattice.table.forEachChunk { _, entries in
                for entry in entries { try writer.appendFixedLine(entry.x, entry.y, entry.z) }
            }
        } else if let table {
            // The entries at even steps over the table's range (which the pre-LUT maps to 0...1).
            let count = table.curves.map(\.outputs.count).max() ?? 2
            let range = if case .uniform(let range) = table.curves[0].inputs { range } else { 0.0...1.0 }
            try writer.append("\(count)\n")
            for index in 0..<count {
                let x = range.lowerBound + (range.upperBound - range.lowerBound) * Double(index) / Double(count - 1)
                let rgb = table.apply(SIMD3(repeating: x))
                try writer.appendFixedLine(Float(rgb.x), Float(rgb.y), Float(rgb.z))
            }
        }
        try writer.close()
    }

    private func writeNumbers(_ numbers: [Double], to writer: TextLineWriter) throws {
        try writer.append(numbers.map { String($0) }.joined(separator: " ") + "\n")
    }

    /// Parses .csp text into its operations and the metadata text (nil when there is none).
    /// - Throws: `LUTFileError.malformed` with the line of the first problem: a missing
    ///   `CSPLUTV100` or `1D`/`3D` line, an unclosed metadata block, a pre-LUT count that is not a
    ///   whole number, a pre-LUT line without that many numbers, pre-LUT inputs that do not
    ///   increase, a table size that is not a whole number in range (or three different sizes),
    ///   a table line without three finite numbers, or a file that ends early.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> (Transform, String?) {
        var scanner = TextLineScanner(bytes)
        func next(_ what: String) throws(LUTFileError) {
            repeat {
                guard scanner.nextLine() else {
                    throw .malformed(path: path, line: scanner.endOfFileLine, reason: "the file ends before \(what)")
                }
            } while scanner.tokenCount == 0
        }
        try next("the CSPLUTV100 line")
        guard scanner.token(scanner.token(0), is: "CSPLUTV100") else {
            throw .malformed(path: path, line: scanner.lineNumber, reason: "a .csp starts with a line 'CSPLUTV100'")
        }
        try next("the 1D or 3D line")
        let isThreeD = scanner.token(scanner.token(0), is: "3D")
        guard isThreeD || scanner.token(scanner.token(0), is: "1D") else {
            throw .malformed(path: path, line: scanner.lineNumber, reason: "the second line must be 1D or 3D, not '\(scanner.excerpt(scanner.token(0)))'")
        }
        try next("the pre-LUT")
        var metadata: [String] = []
        if scanner.token(scanner.token(0), is: "BEGIN") {
            while true {
                try next("END METADATA closes the metadata block")
                if scanner.token(scanner.token(0), is: "END") { break }
                metadata.append(scanner.quotedRest(after: scanner.token(0).lowerBound..<scanner.token(0).lowerBound))
            }
            try next("the pre-LUT")
        }
        let preLUTLine = scanner.lineNumber
        var points: [[Double]] = [], outputs: [[Double]] = []
        for channel in 0..<3 {
            if channel > 0 { try next("the pre-LUT of channel \(channel + 1)") }
            guard scanner.tokenCount == 1 else {
                throw .malformed(path: path, line: scanner.lineNumber, reason: "a pre-LUT block starts with its number of points")
            }
            let count = try TextLUTParsing.whole(scanner, 0, in: 0...TextLUTParsing.lengthRange.upperBound, path: path, what: "pre-LUT points")
            guard count >= 2 else {
                points.append([0, 1])
                outputs.append([0, 1])
                continue
            }
            var rows: [[Double]] = []
            for what in ["inputs", "outputs"] {
                try next("the pre-LUT \(what)")
                try TextLUTParsing.expectTokens(scanner, count, what: "numbers on the pre-LUT \(what) line", path: path)
                var row: [Double] = []
                row.reserveCapacity(count)
                for index in 0..<count { row.append(try TextLUTParsing.number(scanner, index, path: path, what: "pre-LUT \(what)")) }
                rows.append(row)
            }
            for index in 1..<count where !(rows[0][index] > rows[0][index - 1]) {
                throw .malformed(path: path, line: scanner.lineNumber - 1, reason: "pre-LUT inputs must increase: \(rows[0][index - 1]) then \(rows[0][index])")
            }
            points.append(rows[0])
            outputs.append(rows[1])
        }
        var operations: [any TransformOp] = []
        let used = (0..<3).contains { channel in
            zip(points[channel], outputs[channel]).contains { abs($0 - $1) > 1e-6 * max(abs($0), abs($1)) }
        }
        if used {
            operations.append(try TextLUTParsing.operation(path: path, line: preLUTLine) { () throws(TransformError) in
                try LUT1DOp(curves: (0..<3).map { (channel) throws(TransformError) in
                    try Self.sampledPreLUT(points: points[channel], outputs: outputs[channel])
                })
            })
        }
        try next(isThreeD ? "the 3D table's size" : "the 1D table's length")
        let sizeLine = scanner.lineNumber
        if isThreeD {
            try TextLUTParsing.expectTokens(scanner, 3, what: "sizes on the 3D table's size line (e.g. 33 33 33)", path: path)
            let size = try TextLUTParsing.whole(scanner, 0, in: ColorCube.sizeRange, path: path, what: "3D size")
            for index in 1..<3 where scanner.integer(scanner.token(index)) != size {
                throw .malformed(path: path, line: sizeLine, reason: "the three sizes must be equal")
            }
            let count = size * size * size
            var values: [Float] = []
            values.reserveCapacity(TextLUTParsing.reservation(declared: count, fileBytes: bytes.count, bytesPerEntry: 6) * 4)
            for _ in 0..<count {
                try next("all \(count) lines of the \(size)-cube")
                let rgb = try triple(&scanner, path: path)
                values += [Float(rgb.x), Float(rgb.y), Float(rgb.z), 1]
            }
            let table = try TextLUTParsing.cube(redFastest: values, size: size, path: path, line: scanner.lineNumber)
            operations.append(LUT3DOp(table: table))
        } else {
            try TextLUTParsing.expectTokens(scanner, 1, what: "whole number on the 1D table's length line", path: path)
            let length = try TextLUTParsing.whole(scanner, 0, in: TextLUTParsing.lengthRange, path: path, what: "1D length")
            var entries: [SIMD3<Double>] = []
            entries.reserveCapacity(TextLUTParsing.reservation(declared: length, fileBytes: bytes.count, bytesPerEntry: 6))
            for _ in 0..<length {
                try next("all \(length) lines of the 1D table")
                entries.append(try triple(&scanner, path: path, isTableEntry: true))
            }
            operations.append(try TextLUTParsing.operation(path: path, line: sizeLine) { () throws(TransformError) in
                try LUT1DOp(entries: entries)
            })
        }
        return (Transform(operations), metadata.isEmpty ? nil : metadata.joined(separator: " "))
    }

    /// One "r g b" line; a 1D table's (`isTableEntry`) may hold `nan` and `inf`, read as
    /// OpenColorIO reads them (`TextLUTParsing.nonFiniteEntry`).
    private static func triple(_ scanner: inout TextLineScanner, path: String, isTableEntry: Bool = false) throws(LUTFileError) -> SIMD3<Double> {
        try TextLUTParsing.expectTokens(scanner, 3, what: TextLUTParsing.tripleWords, path: path)
        var rgb = SIMD3<Double>()
        for (channel, what) in ["red", "green", "blue"].enumerated() {
            rgb[channel] = isTableEntry ? try TextLUTParsing.tableEntry(scanner, channel, path: path, what: what)
                : try TextLUTParsing.number(scanner, channel, path: path, what: what)
        }
        return rgb
    }

    /// Cinespace's curve through `points` (increasing) and `outputs`, sampled `preLUTSamples`
    /// times evenly over the points' range.
    static func sampledPreLUT(points: [Double], outputs: [Double]) throws(TransformError) -> Curve {
        let low = points[0], high = points[points.count - 1]
        let last = Double(preLUTSamples - 1)
        var samples: [Double] = []
        samples.reserveCapacity(preLUTSamples)
        var segment = 0
        for index in 0..<preLUTSamples {
            let x = low + (high - low) * (Double(index) / last)
            while segment < points.count - 2, x >= points[segment + 1] { segment += 1 }
            samples.append(cinespaceCurve(points: points, outputs: outputs, segment: segment, x: x))
        }
        return try Curve(inputs: .uniform(low...high), outputs: samples)
    }

    /// The cubic of `segment` (between points i and i + 1) at `x`: a Hermite cubic whose slope at
    /// each inner point is the slope between its neighbours (weighted by the spacing), and whose
    /// first and last segments are quadratics meeting the inner slope; a straight line for two
    /// points. `x` is clamped to the points' range.
    public static func cinespaceCurve(points: [Double], outputs: [Double], segment i: Int, x: Double) -> Double {
        let count = points.count
        if x <= points[0] { return outputs[0] }
        if x >= points[count - 1] { return outputs[count - 1] }
        let delta = points[i + 1] - points[i]
        let z = (x - points[i]) / delta
        let f0 = outputs[i], f1 = outputs[i + 1]
        guard count > 2 else { return f0 + (f1 - f0) * z }
        // Slopes in units of this segment's width.
        func slopeAtStart() -> Double {
            (f1 - outputs[i - 1]) / (1 + (points[i] - points[i - 1]) / delta)
        }
        func slopeAtEnd() -> Double {
            (outputs[i + 2] - f0) / (1 + (points[i + 2] - points[i + 1]) / delta)
        }
        if i == 0 {
            let d1 = slopeAtEnd()
            return f0 + z * ((-2 * f0 + 2 * f1 - d1) + z * (f0 - f1 + d1))
        }
        if i == count - 2 {
            let d0 = slopeAtStart()
            return f0 + z * (d0 + z * (-f0 + f1 - d0))
        }
        let d0 = slopeAtStart(), d1 = slopeAtEnd()
        return f0 + z * (d0 + z * ((-3 * f0 - 2 * d0 + 3 * f1 - d1) + z * (2 * f0 + d0 - 2 * f1 + d1)))
    }
}
