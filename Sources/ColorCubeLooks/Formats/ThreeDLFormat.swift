import ColorCubeCore
import ColorCubeTransform

/// Autodesk Lustre and Flame integer cubes (.3dl).
///
/// Layout: optional header lines `3DMESH` and `Mesh i o` (Lustre: i is log2(N - 1), o the output
/// bit depth); then the shaper line, N whole numbers giving the input code value of each lattice
/// node on every axis (e.g. "0 64 128 ... 960 1023" for N = 17 in 10-bit input codes); then N^3
/// lines of three whole numbers "r g b" with BLUE varying fastest, then green, then red (the
/// opposite of ColorCube's red-fastest order), so the line after (r, g, b) = (0, 0, 0) holds node
/// (0, 0, 1). Lustre files may end with `LUT8` and `gamma 1.0`; those, `#` comments and blank
/// lines are skipped.
///
/// Output code values are scaled by 2^o - 1, with o from the `Mesh` line or, without one, guessed
/// from the largest value as OpenColorIO does: up to 2047 is 10-bit, up to 8191 is 12-bit, above
/// that 16-bit (so a 12-bit file without a `Mesh` line whose outputs all stay below 2048 reads as
/// 10-bit: the format cannot tell). The shaper's input scale is guessed the same way from its
/// largest value. A file without a shaper line is accepted when its line count is a cube N^3.
public struct ThreeDLFormat: LUTFileFormat {
    public init() {}

    public var name: String { "3dl" }
    public var displayName: String { ".3dl (Lustre/Flame)" }
    public var noun: String { "a .3dl" }
    public var extensions: [String] { ["3dl"] }
    public var bitDepths: [Int] { Self.outputBitDepths }
    public var defaultBitDepth: Int? { 12 }
    public var clampsValues: Bool { true }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        let contents = try BinaryFile.readAll(path: path).withUnsafeBufferPointer { (bytes) throws(LUTFileError) in
            try Self.parse(bytes, path: path)
        }
        return Look(transform: try contents.transform(path: path), format: self)
    }

    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        try Self.write(table, bitDepth: bitDepth ?? defaultBitDepth ?? 12, to: path, displayPath: displayPath)
    }

    public func describe(_ look: Look) -> String {
        displayName + (look.transform.operations.count > 1 ? " with an uneven input shaper" : "")
    }

    /// The output bit depths `write` accepts.
    public static let outputBitDepths = [10, 12, 16]
    /// The input code value of the last lattice node in files `write` produces (10-bit input).
    public static let shaperMaximum = 1023
    /// How far, in input code values, a shaper node may sit from even spacing and still count as
    /// evenly spaced (OpenColorIO's tolerance: writers round the spacing in different ways).
    public static let shaperTolerance = 2.0

    /// Everything a .3dl file says.
    public struct Contents: Equatable {
        /// The input code value of each lattice node, strictly increasing, or nil when the file
        /// has no shaper line (nodes are then evenly spaced).
        public let shaper: [Int]?
        /// The input code value that stands for 1.0: 1023, 4095 or 65535.
        public let inputMaximum: Int
        /// The output bit depth: from the `Mesh` line, else guessed from the largest value.
        public let outputBitDepth: Int
        /// The output values divided by 2^outputBitDepth - 1, red fastest; node i on an axis
        /// stands for the input `shaper[i] / inputMaximum`.
        public let table: ColorCube

        /// False when the shaper is missing or within `shaperTolerance` of even spacing over
        /// 0...inputMaximum, so `table` already is the look over 0...1.
        public var needsBaking: Bool {
            guard let shaper else { return false }
            let step = Double(inputMaximum) / Double(shaper.count - 1)
            return shaper.indices.contains { abs(Double(shaper[$0]) - Double($0) * step) >= shaperTolerance }
        }

        /// The file as operations: the 3D table over 0...1, preceded, when the shaper is uneven
        /// (`needsBaking`), by a 1D LUT taking each input to its lattice coordinate: the input
        /// code is placed between the two shaper entries around it, linearly; codes below the first
        /// entry or above the last read the table's edge.
        public func transform(path: String) throws(LUTFileError) -> Transform {
            var operations: [any TransformOp] = []
            do throws(TransformError) {
                if needsBaking, let shaper {
                    let last = Double(shaper.count - 1)
                    let curve = try Curve(inputs: .points(shaper.map { Double($0) / Double(inputMaximum) }),
                                          outputs: shaper.indices.map { Double($0) / last })
                    operations.append(try LUT1DOp(curves: [curve, curve, curve]))
                }
            } catch {
                throw .malformed(path: path, line: 1, reason: "the input shaper line: \(error.description)")
            }
            operations.append(LUT3DOp(table: table))
            return Transform(operations)
        }
    }

    // MARK: Writing

    /// Writes `table` as a .3dl to `path` (created or truncated); `displayPath` names it in errors.
    ///
    /// Layout: when N - 1 is a power of two (N = 3, 5, 9, 17, 33, 65, 129), the Lustre header
    /// `3DMESH` / `Mesh log2(N-1) bitDepth`, which also lets readers know the bit depth; then the
    /// shaper line, N values round(i * 1023 / (N - 1)); then N^3 lines "r g b", blue fastest, each
    /// value rounded to 0...2^bitDepth - 1 (values outside 0...1 clamp, NaN is written as 0);
    /// with the header, Lustre's closing `LUT8` / `gamma 1.0` lines. Alpha is not written.
    /// - Throws: `BitDepthError` when `bitDepth` is not 10, 12 or 16; `FileError` when
    ///   the file cannot be created or written.
    public static func write(_ table: some CubeTable, bitDepth: Int = 12, to path: String, displayPath: String? = nil) throws {
        guard outputBitDepths.contains(bitDepth) else {
            throw BitDepthError(path: displayPath ?? path, format: Self().noun, asked: bitDepth, allowed: outputBitDepths)
        }
        let size = table.size
        let scale = Double((1 << bitDepth) - 1)
        let meshBits = (1...8).first { (1 << $0) + 1 == size }
        let writer = TextLineWriter(file: try OutputFile(path: path, displayPath: displayPath))
        if let meshBits {
            try writer.append("3DMESH\nMesh \(meshBits) \(bitDepth)\n")
        }
        for index in 0..<size {
            if index > 0 { try writer.append(byte: UInt8(ascii: " ")) }
            try writer.appendInteger(Int((Double(index * shaperMaximum) / Double(size - 1)).rounded()))
        }
        try writer.append(byte: UInt8(ascii: "\n"))
        // The file runs blue fastest and the table red fastest, so reading the table in file order
        // would jump size^2 entries on every line. Instead copy a slab of a few red values in
        // table order (runs of consecutive entries), then write the slab out in file order.
        let slabWidth = max(1, min(size, (1 << 20) / (size * size)))
        var slab = [UInt16](repeating: 0, count: slabWidth * size * size * 3)
        for redStart in stride(from: 0, to: size, by: slabWidth) {
            let width = min(slabWidth, size - redStart)
            for b in 0..<size {
                for g in 0..<size {
                    for r in 0..<width {
                        let entry = table.entry(at: ColorCube.redFastestIndex(r: redStart + r, g: g, b: b, size: size))
                        let offset = 3 * ((r * size + g) * size + b)
                        slab[offset] = code(entry.x, scale: scale)
                        slab[offset + 1] = code(entry.y, scale: scale)
                        slab[offset + 2] = code(entry.z, scale: scale)
                    }
                }
            }
            for offset in stride(from: 0, to: width * size * size * 3, by: 3) {
                try writer.appendIntegerLine(Int(slab[offset]), Int(slab[offset + 1]), Int(slab[offset + 2]))
            }
        }
        if meshBits != nil {
            try writer.append("LUT8\ngamma 1.0\n")
        }
        try writer.close()
    }

    /// The code value for `value`, clamped to 0...scale (at most 65535); NaN gives 0.
    @inline(__always)
    private static func code(_ value: Float, scale: Double) -> UInt16 {
        var clamped = Double(value)
        if !(clamped > 0) { clamped = 0 }  // also NaN
        if clamped > 1 { clamped = 1 }
        return UInt16(clamped * scale + 0.5)
    }

    // MARK: Reading

    /// Parses .3dl text without baking it; `path` names the file in errors.
    ///
    /// The first line of numbers is the shaper unless it has exactly three; a three-number first
    /// line is the shaper of a 3-cube when 27 lines follow it, and otherwise the first data line
    /// of a file without a shaper.
    /// - Throws: `LUTFileError.malformed` with the 1-based line of the first problem: a word other
    ///   than `3DMESH`, `Mesh`, `LUT8`/`LUT10`/`LUT12`/`LUT16` or `gamma`; a `Mesh` line without
    ///   two whole numbers or with an output bit depth outside 8...16; a value that is not a whole
    ///   number of at most 9 digits (no sign, no decimals); a shaper with a count outside 2...256
    ///   or not strictly increasing; a data line without exactly three values; more data lines
    ///   than the shaper calls for. Too few data lines (or none) are reported at the last line.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> Contents {
        var scanner = TextLineScanner(bytes)
        var meshBitDepth: Int?
        var shaper: [Int]?
        var firstLine: [Int]?  // a three-number first line: shaper or data, decided at the end
        var codes: [Float] = []
        var expectedTriples: Int?
        let maximumTriples = 256 * 256 * 256 + 1
        while scanner.nextLine() {
            guard scanner.tokenCount > 0 else { continue }
            let first = scanner.token(0)
            let line = scanner.lineNumber
            if !scanner.startsNumber(first) || scanner.token(first, is: "3DMESH") {
                switch scanner.keyword(first) {
                case "3DMESH", "LUT8", "LUT10", "LUT12", "LUT16", "GAMMA":
                    continue
                case "MESH":
                    let tokens = scanner.tokens
                    guard tokens.count == 3, scanner.integer(tokens[1]) != nil,
                          let bits = scanner.integer(tokens[2]), (8...16).contains(bits)
                    else {
                        throw .malformed(path: path, line: line, reason: "a Mesh line needs two whole numbers, "
                            + "the input bits and the output bit depth (8...16), e.g. Mesh 4 12")
                    }
                    meshBitDepth = bits
                    continue
                default:
                    throw .malformed(path: path, line: line, reason: "unknown keyword \(scanner.excerpt(first)); "
                        + "a .3dl holds only 3DMESH, Mesh, LUT8, LUT10, LUT12, LUT16 and gamma lines besides its numbers")
                }
            }
            let isFirstNumberLine = shaper == nil && firstLine == nil && codes.isEmpty
            if isFirstNumberLine, scanner.tokenCount != 3 {
                var numbers: [Int] = []
                for index in 0..<scanner.tokenCount {
                    numbers.append(try integer(scanner, index, path: path))
                }
                try checkShaper(numbers, path: path, line: line)
                shaper = numbers
                expectedTriples = numbers.count * numbers.count * numbers.count
                // A data line takes at least 6 bytes ("0 0 0\n"): a short file with a long shaper
                // reserves no more than it can hold.
                codes.reserveCapacity(min(numbers.count * numbers.count * numbers.count, bytes.count / 6) * 3)
                continue
            }
            try TextLUTParsing.expectTokens(scanner, 3, what: TextLUTParsing.tripleWords, path: path)
            let red = try integer(scanner, 0, path: path)
            let green = try integer(scanner, 1, path: path)
            let blue = try integer(scanner, 2, path: path)
            if isFirstNumberLine { firstLine = [red, green, blue] }
            guard codes.count / 3 < (expectedTriples ?? maximumTriples) else {
                let reason = expectedTriples.map { "more data lines than the \($0) a shaper of \(shaper?.count ?? 0) values calls for" }
                    ?? "more data lines than the largest lattice, 256^3"
                throw .malformed(path: path, line: line, reason: reason)
            }
            codes.append(Float(red))
            codes.append(Float(green))
            codes.append(Float(blue))
        }
        let endLine = scanner.endOfFileLine
        guard shaper != nil || !codes.isEmpty else {
            throw .malformed(path: path, line: endLine, reason: "no shaper line or data")
        }
        let size: Int
        if let shaper {
            size = shaper.count
            guard codes.count / 3 == size * size * size else {
                throw .malformed(path: path, line: endLine, defect: .endsEarly(
                    what: "data lines", found: codes.count / 3, expected: size * size * size, calledFor: "a shaper of \(size) values"))
            }
        } else if let firstLine, codes.count / 3 == 28, firstLine[0] < firstLine[1], firstLine[1] < firstLine[2] {
            shaper = firstLine
            codes.removeFirst(3)
            size = 3
        } else {
            let triples = codes.count / 3
            guard let root = ColorCube.size(entryCount: triples) else {
                throw .malformed(path: path, line: endLine, reason: "\(triples) data lines without a shaper line; "
                    + "expected N^3 lines for a lattice size N in 2...256")
            }
            size = root
        }
        let largest = Int(codes.max() ?? 0)
        let bitDepth = meshBitDepth ?? likelyBitDepth(largest: largest)
        let inputMaximum = shaper.flatMap { $0.last }.map { (1 << likelyBitDepth(largest: $0)) - 1 } ?? shaperMaximum
        // Double division then rounding to Float gives the correctly rounded Float quotient.
        let maximumCode = Double((1 << bitDepth) - 1)
        var values = [Float](repeating: 1, count: size * size * size * 4)
        var fileIndex = 0
        for r in 0..<size {
            for g in 0..<size {
                for b in 0..<size {
                    let offset = 4 * ColorCube.redFastestIndex(r: r, g: g, b: b, size: size)
                    values[offset] = Float(Double(codes[fileIndex]) / maximumCode)
                    values[offset + 1] = Float(Double(codes[fileIndex + 1]) / maximumCode)
                    values[offset + 2] = Float(Double(codes[fileIndex + 2]) / maximumCode)
                    fileIndex += 3
                }
            }
        }
        let table: ColorCube
        do throws(CubeError) {
            table = try ColorCube(size: size, values: values)
        } catch {
            // Unreachable: the size and value count were checked above.
            throw .malformed(path: path, line: endLine, reason: error.description)
        }
        return Contents(shaper: shaper, inputMaximum: inputMaximum, outputBitDepth: bitDepth, table: table)
    }

    /// 10, 12 or 16 for a file whose largest code value is `largest`, allowing up to 2x overshoot
    /// above the nominal maximum (OpenColorIO's rule, without 8-bit, which .3dl files do not use).
    private static func likelyBitDepth(largest: Int) -> Int {
        switch largest {
        case ..<2048: 10
        case ..<8192: 12
        default: 16
        }
    }

    /// Token `index` of the current line as a code value (16-bit codes at most, with room for
    /// files that overshoot).
    private static func integer(_ scanner: TextLineScanner, _ index: Int, path: String) throws(LUTFileError) -> Int {
        let token = scanner.token(index)
        guard let number = scanner.integer(token) else {
            throw .malformed(path: path, line: scanner.lineNumber,
                             reason: "'\(scanner.excerpt(token))' is not a whole-number code value")
        }
        guard number <= 1 << 20 else {
            throw .malformed(path: path, line: scanner.lineNumber,
                             defect: .outOfRange(field: "code value", text: scanner.excerpt(token), range: 0...(1 << 20)))
        }
        return number
    }

    private static func checkShaper(_ shaper: [Int], path: String, line: Int) throws(LUTFileError) {
        guard ColorCube.sizeRange.contains(shaper.count) else {
            throw .malformed(path: path, line: line, reason: "the shaper line has \(shaper.count) values; "
                + "a lattice has 2...256 nodes per axis")
        }
        for index in 1..<shaper.count where shaper[index] <= shaper[index - 1] {
            throw .malformed(path: path, line: line, reason: "the shaper line is not strictly increasing: "
                + "\(shaper[index - 1]) is followed by \(shaper[index])")
        }
    }
}
