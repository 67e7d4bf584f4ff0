import ColorCubeCore
import ColorCubeTransform

/// Adobe/Iridas and DaVinci Resolve text cubes (.cube).
///
/// Keyword lines come first, in any order: `TITLE "text"`, `LUT_3D_SIZE N` (2...256),
/// `DOMAIN_MIN r g b` and `DOMAIN_MAX r g b` (Adobe), and Resolve's `LUT_1D_SIZE M`,
/// `LUT_1D_INPUT_RANGE lo hi` and `LUT_3D_INPUT_RANGE lo hi`. Data lines of three numbers
/// "r g b" follow: first the M entries of the 1D table, if any, then the N^3 entries of the 3D
/// table, red fastest, then green, then blue (ColorCube's own order). `#` starts a comment, on a
/// line of its own or after a value; blank lines are skipped; lines end in LF or CR LF; keywords
/// may be upper or lower case.
///
/// Which range applies where: the 3D table's domain is `LUT_3D_INPUT_RANGE` when given, otherwise
/// `DOMAIN_MIN`/`DOMAIN_MAX` in a file without a 1D table, otherwise 0...1. A 1D table's input
/// range is `LUT_1D_INPUT_RANGE` when given, otherwise `DOMAIN_MIN`/`DOMAIN_MAX`, otherwise 0...1.
/// `LUT_1D_INPUT_RANGE` in a file without a 1D table is ignored, as Resolve does. Resolve's flags
/// `LUT_IN_VIDEO_RANGE` and `LUT_OUT_VIDEO_RANGE` say the tables take or give video range
/// (legal) codes: read as ranges mapping full range to 64...940 of 1023 before, and back after.
///
/// A file with both tables is Resolve's shaper form: the 1D table is applied first and its output
/// is the 3D table's input (in the 3D domain's units). Read as a transform: the 1D table (when
/// there is one) then the 3D table over its domain (when there is one); nothing is baked.
public struct CubeTextFormat: LUTFileFormat {
    public init() {}

    public var name: String { "cube" }
    public var displayName: String { ".cube (Adobe/Iridas, Resolve)" }
    public var noun: String { "a .cube" }
    public var extensions: [String] { ["cube", "itx"] }

    /// Text with a `LUT_3D_SIZE` or `LUT_1D_SIZE` keyword in its first 4096 bytes.
    public func sniff(_ head: [UInt8]) -> Bool {
        let text = String(decoding: head, as: UTF8.self)
        return text.contains("LUT_3D_SIZE") || text.contains("LUT_1D_SIZE")
    }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        let contents = try BinaryFile.readAll(path: path).withUnsafeBufferPointer { (bytes) throws(LUTFileError) in
            try Self.parse(bytes, path: path)
        }
        return Look(transform: try contents.transform(path: path), format: self, title: contents.title)
    }

    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        try Self.write(table, title: title, to: path, displayPath: displayPath)
    }

    public func describe(_ look: Look) -> String {
        let kinds = look.transform.operations.map { $0 is LUT3DOp }
        return displayName + (kinds == [false, true] ? " with a 1D shaper" : kinds == [false] ? ", 1D only" : "")
    }

    /// Decimals written per value: enough for 16-bit code values to survive (error <= 5e-7).
    public static let decimals = 6
    /// The 1D table sizes accepted.
    public static let shaperSizeRange = 2...65536

    /// A per-channel 1D table: Resolve's shaper, or the whole look of a 1D-only file.
    public struct Shaper: Sendable, Equatable {
        /// Per channel, the input that maps to the first entry.
        public let inputMin: SIMD3<Double>
        /// Per channel, the input that maps to the last entry; larger than `inputMin`.
        public let inputMax: SIMD3<Double>
        /// At least two entries, evenly spaced over `inputMin...inputMax`.
        public let entries: [SIMD3<Float>]
    }

    /// Everything a .cube file says.
    public struct Contents: Equatable {
        /// The TITLE text without its quotes, or nil when the file has none.
        public let title: String?
        /// The 3D table as stored, red fastest, or nil for a 1D-only file. Node i on an axis stands
        /// for the input `domainMin + i / (size - 1) * (domainMax - domainMin)`.
        public let table: ColorCube?
        /// Per channel, the input at the 3D table's first node (0 unless the file says otherwise).
        public let domainMin: SIMD3<Double>
        /// Per channel, the input at the 3D table's last node (1 unless the file says otherwise).
        public let domainMax: SIMD3<Double>
        /// The 1D table applied before the 3D table (or alone), or nil.
        public let shaper: Shaper?
        /// Resolve's `LUT_IN_VIDEO_RANGE`: the tables expect video (legal) range codes, so full-range
        /// input is mapped into 64...940 of 1023 first.
        public var inVideoRange = false
        /// Resolve's `LUT_OUT_VIDEO_RANGE`: the tables give video range codes, mapped back to full range after.
        public var outVideoRange = false

        /// The file as operations: the 1D table, then the 3D table over its domain.
        /// - Throws: `LUTFileError.malformed` when an operation refuses its data (not reached for
        ///   data `parse` accepted).
        public func transform(path: String) throws(LUTFileError) -> Transform {
            var operations: [any TransformOp] = []
            do throws(TransformError) {
                // Video range: 0 at code 64 and 1 at code 940 of 1023 (SMPTE legal range).
                if inVideoRange { operations.append(try RangeOp(scale: 876.0 / 1023, offset: 64.0 / 1023)) }
                if let shaper {
                    var curves: [Curve] = []
                    for channel in 0..<3 {
                        curves.append(try Curve(inputs: .uniform(shaper.inputMin[channel]...shaper.inputMax[channel]),
                                                outputs: shaper.entries.map { Double($0[channel]) }))
                    }
                    operations.append(try LUT1DOp(curves: curves))
                }
                if let table {
                    operations.append(try LUT3DOp(table: table, domainMin: domainMin, domainMax: domainMax))
                }
                if outVideoRange { operations.append(try RangeOp(scale: 1023.0 / 876, offset: -64.0 / 876)) }
            } catch {
                throw .malformed(path: path, line: 1, reason: error.description)
            }
            return Transform(operations)
        }
    }

    // MARK: Writing

    /// True for the chains a .cube holds as they are: a 1D table (LUT_1D_SIZE, with
    /// LUT_1D_INPUT_RANGE when its domain is not 0...1), a 1D table then a 3D table (Resolve's
    /// shaper form; the 3D domain the same in every channel, LUT_3D_INPUT_RANGE), or a 3D table
    /// over a domain other than 0...1 (DOMAIN_MIN/DOMAIN_MAX). A 1D table qualifies when its three curves are
    /// evenly spaced over one range with one length of at most 65536 entries.
    public func holdsExactly(_ transform: Transform) -> Bool {
        let ops = transform.operations
        switch ops.count {
        case 1:
            // A plain 3D table over 0...1 takes the plain path (`write`), which writes the same file.
            if let lattice = ops[0] as? LUT3DOp { return !lattice.hasUnitDomain }
            return Self.sharedSpacing(ops[0]) != nil
        case 2:
            guard Self.sharedSpacing(ops[0]) != nil, let lattice = ops[1] as? LUT3DOp else { return false }
            return lattice.domainMin == SIMD3(repeating: lattice.domainMin.x) && lattice.domainMax == SIMD3(repeating: lattice.domainMax.x)
        default:
            return false
        }
    }

    /// The one input range and length of a 1D table whose curves share them, else nil.
    private static func sharedSpacing(_ op: any TransformOp) -> (range: ClosedRange<Double>, count: Int)? {
        guard let table = op as? LUT1DOp, case .uniform(let range) = table.curves[0].inputs else { return nil }
        let count = table.curves[0].outputs.count
        guard shaperSizeRange.contains(count),
              table.curves.allSatisfy({ $0.inputs == .uniform(range) && $0.outputs.count == count }) else { return nil }
        return (range, count)
    }

    /// Writes a chain `holdsExactly` accepts: `TITLE` (a `#` comment in a file with a 1D table,
    /// which OpenColorIO would otherwise refuse), then for a 1D table `LUT_1D_SIZE` (and
    /// `LUT_1D_INPUT_RANGE` unless 0...1) and its entries; for a 3D table `LUT_3D_SIZE` with
    /// `LUT_3D_INPUT_RANGE` after a 1D table, or `DOMAIN_MIN`/`DOMAIN_MAX` alone, unless its
    /// domain is 0...1; the 1D entries come before the 3D ones. Values have `decimals` decimals.
    /// - Throws: `LUTFileError.cannotHold` for a chain a .cube cannot hold, `FileError` when the
    ///   file cannot be written.
    public func writeChain(_ transform: Transform, to path: String, displayPath: String, title: String) throws {
        guard holdsExactly(transform) else {
            throw LUTFileError.cannotHold(path: displayPath, format: noun, holds: "a 1D table, a 3D table or a 1D then a 3D table",
                                          given: "\(transform)")
        }
        let ops = transform.operations
        let table = ops.first as? LUT1DOp
        let lattice = ops.last as? LUT3DOp
        let writer = TextLineWriter(file: try OutputFile(path: path, displayPath: displayPath))
        let cleanTitle = String(title.map { character -> Character in
            character == "\"" ? "'" : (character.isNewline ? " " : character)
        })
        // OpenColorIO's reader of the Resolve form (any file with a 1D table) refuses TITLE, so
        // there the title goes in a comment.
        var header = table == nil ? "TITLE \"\(cleanTitle)\"\n" : "# \(cleanTitle)\n"
        if let table, let spacing = Self.sharedSpacing(table) {
            header += "LUT_1D_SIZE \(spacing.count)\n"
            if spacing.range != 0...1 { header += "LUT_1D_INPUT_RANGE \(spacing.range.lowerBound) \(spacing.range.upperBound)\n" }
        }
        if let lattice {
            header += "LUT_3D_SIZE \(lattice.size)\n"
            if !lattice.hasUnitDomain {
                if table != nil {
                    header += "LUT_3D_INPUT_RANGE \(lattice.domainMin.x) \(lattice.domainMax.x)\n"
                } else {
                    let (low, high) = (lattice.domainMin, lattice.domainMax)
                    header += "DOMAIN_MIN \(low.x) \(low.y) \(low.z)\nDOMAIN_MAX \(high.x) \(high.y) \(high.z)\n"
                }
            }
        }
        try writer.append(header)
        if let table {
            for index in table.curves[0].outputs.indices {
                try writer.appendFixedLine(Float(table.curves[0].outputs[index]), Float(table.curves[1].outputs[index]),
                                           Float(table.curves[2].outputs[index]))
            }
        }
        if let lattice {
            try lattice.table.forEachChunk { _, entries in
                for entry in entries { try writer.appendFixedLine(entry.x, entry.y, entry.z) }
            }
        }
        try writer.close()
    }


    /// Writes `table` as an Adobe .cube to `path` (created or truncated); `displayPath` names it in
    /// errors.
    ///
    /// Layout: `TITLE "title"`, `LUT_3D_SIZE N`, then N^3 lines "r g b", red fastest, each value
    /// with `decimals` decimals and a point as separator. Double quotes in the title become single
    /// quotes and line breaks become spaces, so the title stays one keyword line. Alpha is not
    /// written. NaN is written as 0 and infinities as the largest finite Float.
    /// - Throws: `FileError` when the file cannot be created or written.
    public static func write(_ table: some CubeTable, title: String, to path: String, displayPath: String? = nil) throws {
        let writer = TextLineWriter(file: try OutputFile(path: path, displayPath: displayPath))
        let cleanTitle = String(title.map { character -> Character in
            character == "\"" ? "'" : (character.isNewline ? " " : character)
        })
        try writer.append("TITLE \"\(cleanTitle)\"\nLUT_3D_SIZE \(table.size)\n")
        try table.forEachChunk { _, entries in
            for entry in entries {
                try writer.appendFixedLine(entry.x, entry.y, entry.z)
            }
        }
        try writer.close()
    }

    // MARK: Reading

    /// Parses .cube text; `path` names the file in errors.
    /// - Throws: `LUTFileError.malformed` with the 1-based line of the first problem: an unknown
    ///   keyword, a keyword after the first data line, a size that is not a whole number in range
    ///   (LUT_3D_SIZE 2...256, LUT_1D_SIZE 2...65536) or given twice, a domain or input range whose
    ///   maximum is not above its minimum, data before any size, a data line without exactly three
    ///   numbers, a value that is not a finite decimal number (no `nan` or `inf` in a 3D table;
    ///   in a 1D table they read as OpenColorIO reads them, see `TextLUTParsing.nonFiniteEntry`),
    ///   or more data lines than the sizes call for. Too few data lines, or no size at all, are reported at the
    ///   file's last line.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> Contents {
        var scanner = TextLineScanner(bytes)
        var header = Header()
        var layout: Layout?
        var shaperEntries: [SIMD3<Float>] = []
        var values: [Float] = []
        while scanner.nextLine() {
            guard scanner.tokenCount > 0 else { continue }
            let first = scanner.token(0)
            let line = scanner.lineNumber
            // `nan` and `inf` are data, never keywords (a 1D table may hold them).
            guard scanner.startsNumber(first) || TextLUTParsing.nonFiniteEntry(scanner.string(first)) != nil else {
                guard layout == nil else {
                    throw .malformed(path: path, line: line, reason: "'\(scanner.excerpt(first))' is not a number; "
                        + "keywords must come before the first line of numbers")
                }
                try header.read(scanner, path: path)
                continue
            }
            let current: Layout
            if let layout {
                current = layout
            } else {
                current = try header.layout(path: path, line: line)
                // A data line takes at least 6 bytes ("0 0 0\n"): a short file declaring a large
                // size reserves no more than it can hold.
                let linesLeft = bytes.count / 6
                shaperEntries.reserveCapacity(min(current.shaperSize, linesLeft))
                values.reserveCapacity(min(current.cubeEntryCount, linesLeft) * 4)
                layout = current
            }
            try TextLUTParsing.expectTokens(scanner, 3, what: TextLUTParsing.tripleWords, path: path)
            var rgb = SIMD3<Float>()
            // A 1D entry may be nan or inf, read as OpenColorIO reads them; a 3D entry may not.
            let isShaperLine = shaperEntries.count < current.shaperSize
            for channel in 0..<3 {
                let token = scanner.token(channel)
                if isShaperLine, let special = TextLUTParsing.nonFiniteEntry(scanner.string(token)) {
                    rgb[channel] = Float(special)
                    continue
                }
                guard let value = scanner.double(token), Float(value).isFinite else {
                    throw .malformed(path: path, line: line,
                                     defect: .notFinite(field: ["red", "green", "blue"][channel], text: scanner.excerpt(token)))
                }
                rgb[channel] = Float(value)
            }
            if shaperEntries.count < current.shaperSize {
                shaperEntries.append(rgb)
            } else if values.count < current.cubeEntryCount * 4 {
                values.append(rgb.x)
                values.append(rgb.y)
                values.append(rgb.z)
                values.append(1)
            } else {
                throw .malformed(path: path, line: line,
                                 reason: "more data lines than the \(current.expectation) the header calls for")
            }
        }
        let endLine = scanner.endOfFileLine
        let final: Layout
        if let layout {
            final = layout
        } else {
            final = try header.layout(path: path, line: endLine)
        }
        let found = shaperEntries.count + values.count / 4
        guard found == final.shaperSize + final.cubeEntryCount else {
            throw .malformed(path: path, line: endLine, defect: .endsEarly(
                what: "data lines", found: found, expected: final.shaperSize + final.cubeEntryCount, calledFor: final.sizes))
        }
        let table: ColorCube?
        do throws(CubeError) {
            table = final.cubeSize == 0 ? nil : try ColorCube(size: final.cubeSize, values: values)
        } catch {
            // Unreachable: the size and value count were checked above.
            throw .malformed(path: path, line: endLine, reason: error.description)
        }
        let shaper = final.shaperSize == 0
            ? nil
            : Shaper(inputMin: final.shaperMin, inputMax: final.shaperMax, entries: shaperEntries)
        var contents = Contents(title: header.title, table: table, domainMin: final.domainMin, domainMax: final.domainMax,
                                shaper: shaper)
        contents.inVideoRange = header.inVideoRange
        contents.outVideoRange = header.outVideoRange
        return contents
    }

    /// What the data section must hold, fixed once the header is complete.
    private struct Layout {
        /// 1D entries, 0 when there is no 1D table.
        var shaperSize: Int
        /// 3D lattice size, 0 when there is no 3D table.
        var cubeSize: Int
        var shaperMin: SIMD3<Double>
        var shaperMax: SIMD3<Double>
        var domainMin: SIMD3<Double>
        var domainMax: SIMD3<Double>

        var cubeEntryCount: Int { cubeSize * cubeSize * cubeSize }

        /// "LUT_3D_SIZE 3", or with a shaper "LUT_1D_SIZE 6 and LUT_3D_SIZE 3".
        var sizes: String {
            switch (shaperSize, cubeSize) {
            case (0, _): "LUT_3D_SIZE \(cubeSize)"
            case (_, 0): "LUT_1D_SIZE \(shaperSize)"
            default: "LUT_1D_SIZE \(shaperSize) and LUT_3D_SIZE \(cubeSize)"
            }
        }

        /// "27 lines of LUT_3D_SIZE 3", or with a shaper "6 + 27 lines of LUT_1D_SIZE 6 and LUT_3D_SIZE 3".
        var expectation: String {
            switch (shaperSize, cubeSize) {
            case (0, _): "\(cubeEntryCount) lines of LUT_3D_SIZE \(cubeSize)"
            case (_, 0): "\(shaperSize) lines of LUT_1D_SIZE \(shaperSize)"
            default: "\(shaperSize) + \(cubeEntryCount) lines of LUT_1D_SIZE \(shaperSize) and LUT_3D_SIZE \(cubeSize)"
            }
        }
    }

    /// The keywords seen so far, each with the line it came from.
    private struct Header {
        var title: String?
        var cubeSize: (value: Int, line: Int)?
        var shaperSize: (value: Int, line: Int)?
        var domainMin: (value: SIMD3<Double>, line: Int)?
        var domainMax: (value: SIMD3<Double>, line: Int)?
        var shaperRange: (min: Double, max: Double, line: Int)?
        var cubeRange: (min: Double, max: Double, line: Int)?
        var inVideoRange = false
        var outVideoRange = false

        static let keywords = "TITLE, LUT_3D_SIZE, LUT_1D_SIZE, DOMAIN_MIN, DOMAIN_MAX, LUT_1D_INPUT_RANGE, "
            + "LUT_3D_INPUT_RANGE, LUT_IN_VIDEO_RANGE and LUT_OUT_VIDEO_RANGE"

        mutating func read(_ scanner: TextLineScanner, path: String) throws(LUTFileError) {
            let tokens = scanner.tokens
            let line = scanner.lineNumber
            let keyword = scanner.keyword(tokens[0])
            switch keyword {
            case "TITLE":
                title = scanner.quotedRest(after: tokens[0])
            case "LUT_3D_SIZE":
                guard cubeSize == nil else {
                    throw .malformed(path: path, line: line, reason: "LUT_3D_SIZE given twice")
                }
                cubeSize = (try Self.size(scanner, range: ColorCube.sizeRange, path: path), line)
            case "LUT_1D_SIZE":
                guard shaperSize == nil else {
                    throw .malformed(path: path, line: line, reason: "LUT_1D_SIZE given twice")
                }
                shaperSize = (try Self.size(scanner, range: CubeTextFormat.shaperSizeRange, path: path), line)
            case "DOMAIN_MIN", "DOMAIN_MAX":
                let numbers = try Self.numbers(scanner, count: 3, path: path)
                let value = SIMD3(numbers[0], numbers[1], numbers[2])
                if keyword == "DOMAIN_MIN" { domainMin = (value, line) } else { domainMax = (value, line) }
            case "LUT_1D_INPUT_RANGE", "LUT_3D_INPUT_RANGE":
                let numbers = try Self.numbers(scanner, count: 2, path: path)
                guard numbers[1] > numbers[0] else {
                    throw .malformed(path: path, line: line,
                                     reason: "\(keyword) maximum \(numbers[1]) is not above its minimum \(numbers[0])")
                }
                if keyword == "LUT_1D_INPUT_RANGE" {
                    shaperRange = (numbers[0], numbers[1], line)
                } else {
                    cubeRange = (numbers[0], numbers[1], line)
                }
            case "LUT_IN_VIDEO_RANGE", "LUT_OUT_VIDEO_RANGE":
                guard scanner.tokenCount == 1 else {
                    throw .malformed(path: path, line: line, reason: "\(keyword) takes no value")
                }
                if keyword == "LUT_IN_VIDEO_RANGE" { inVideoRange = true } else { outVideoRange = true }
            default:
                throw .malformed(path: path, line: line, reason: "unknown keyword \(scanner.excerpt(tokens[0])); "
                    + "a .cube header holds only \(Self.keywords)")
            }
        }

        /// Resolves which range applies to which table (see `CubeTextFormat`) and checks them.
        func layout(path: String, line: Int) throws(LUTFileError) -> Layout {
            guard cubeSize != nil || shaperSize != nil else {
                throw .malformed(path: path, line: line,
                                 reason: "no LUT_3D_SIZE (or LUT_1D_SIZE) before the data")
            }
            let zero = SIMD3<Double>(repeating: 0)
            let one = SIMD3<Double>(repeating: 1)
            let domainLine = max(domainMin?.line ?? 0, domainMax?.line ?? 0)
            let domain = (min: domainMin?.value ?? zero, max: domainMax?.value ?? one)
            var shaperBounds = (min: zero, max: one)
            var cubeBounds = (min: zero, max: one)
            if shaperSize != nil {
                if let shaperRange {
                    shaperBounds = (SIMD3(repeating: shaperRange.min), SIMD3(repeating: shaperRange.max))
                } else {
                    shaperBounds = domain
                }
            }
            if let cubeRange {
                cubeBounds = (SIMD3(repeating: cubeRange.min), SIMD3(repeating: cubeRange.max))
            } else if shaperSize == nil {
                cubeBounds = domain
            }
            // Ranges from *_INPUT_RANGE were checked where they were read; only a DOMAIN pair that
            // is in use can still be inverted.
            let domainInUse = shaperSize != nil ? shaperRange == nil : cubeRange == nil
            if domainInUse, domainLine > 0, any(domain.max .<= domain.min) {
                throw .malformed(path: path, line: domainLine,
                                 reason: "DOMAIN_MAX \(Self.describe(domain.max)) is not above DOMAIN_MIN "
                                    + "\(Self.describe(domain.min)) in every channel")
            }
            return Layout(shaperSize: shaperSize?.value ?? 0, cubeSize: cubeSize?.value ?? 0,
                          shaperMin: shaperBounds.min, shaperMax: shaperBounds.max,
                          domainMin: cubeBounds.min, domainMax: cubeBounds.max)
        }

        private static func size(_ scanner: TextLineScanner, range: ClosedRange<Int>, path: String) throws(LUTFileError) -> Int {
            let keyword = scanner.keyword(scanner.token(0))
            try TextLUTParsing.expectTokens(scanner, 1, skipping: 1, what: "whole number after \(keyword) (e.g. \(keyword) 33)", path: path)
            return try TextLUTParsing.whole(scanner, 1, in: range, path: path, what: keyword)
        }

        private static func numbers(_ scanner: TextLineScanner, count: Int, path: String) throws(LUTFileError) -> [Double] {
            let tokens = scanner.tokens
            let keyword = scanner.keyword(tokens[0])
            var numbers: [Double] = []
            for token in tokens.dropFirst() {
                guard let number = scanner.double(token) else {
                    throw .malformed(path: path, line: scanner.lineNumber,
                                     reason: "\(keyword): '\(scanner.excerpt(token))' is not a number")
                }
                numbers.append(number)
            }
            guard numbers.count == count else {
                throw .malformed(path: path, line: scanner.lineNumber,
                                 defect: .wrongCount(what: "numbers after \(keyword)", expected: count, found: numbers.count))
            }
            return numbers
        }

        private static func describe(_ value: SIMD3<Double>) -> String {
            "\(value.x) \(value.y) \(value.z)"
        }
    }
}
