import ColorCubeCore
import ColorCubeTransform

/// Turns a CLF `ProcessList` tree into operations (see `CLFFormat` for the rules); one reader
/// per file, as it remembers the previous node's output depth and the title.
struct CLFNodeReader {
    let path: String
    private(set) var title: String?
    private(set) var inputDescriptor: String?
    private(set) var outputDescriptor: String?
    /// What the user should know about how the file was read.
    private(set) var notes: [String] = []
    private var previousDepth: (depth: CLFBitDepth, element: String)?

    init(path: String) {
        self.path = path
    }

    /// The most operations a ProcessList may hold: each costs a pass over every pixel (or lattice
    /// node), and a file of thousands of trivial nodes is an attack, not a look.
    static let maxOperations = 1000

    private static let operationNames = "LUT1D, LUT3D, Matrix, Range, Log, Exponent and ASC_CDL"
    private static let operationElements: Set<String> = ["LUT1D", "LUT3D", "Matrix", "Range", "Log", "Exponent", "ASC_CDL"]
    private static let metadataNames: Set<String> = ["Description", "InputDescriptor", "OutputDescriptor", "Info"]

    mutating func transform(of root: XMLElementTree) throws(LUTFileError) -> Transform {
        guard root.name == "ProcessList" else {
            throw fail(root, "the root element is <\(root.name)>, not <ProcessList>: this is not a CLF file")
        }
        guard root.attribute("id") != nil else {
            throw fail(root, "attribute id is missing (CLF requires one)")
        }
        try checkVersion(root)
        title = root.child("Description").map { $0.text.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
            ?? root.attribute("name")
        inputDescriptor = root.child("InputDescriptor").map { $0.text.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        outputDescriptor = root.child("OutputDescriptor").map { $0.text.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        let nodes = root.children.filter { !Self.metadataNames.contains($0.name) }
        if nodes.count > Self.maxOperations {
            throw fail(root, "the ProcessList holds \(nodes.count) operations; colorcube reads up to \(Self.maxOperations) "
                + "(real looks hold a few dozen at most)")
        }
        var operations: [any TransformOp] = []
        for node in nodes {
            let (inDepth, outDepth) = try depths(node)
            let produced: [any TransformOp]
            switch node.name {
            case "LUT1D": produced = try lut1D(node, inDepth, outDepth)
            case "LUT3D": produced = try lut3D(node, inDepth, outDepth)
            case "Matrix": produced = [try matrix(node, inDepth, outDepth)]
            case "Range": produced = [try range(node, inDepth, outDepth)]
            case "Log": produced = [try log(node)]
            case "Exponent": produced = [try exponent(node)]
            case "ASC_CDL": produced = [try cdl(node)]
            default:
                throw fail(node, "unknown element <\(node.name)> in the ProcessList; CLF operations are \(Self.operationNames)")
            }
            operations.append(contentsOf: produced)
        }
        return Transform(operations)
    }

    // MARK: Attributes and numbers

    private func fail(_ element: XMLElementTree, _ reason: String) -> LUTFileError {
        .malformed(path: path, line: element.line, reason: "<\(element.name)>: \(reason)")
    }

    private func checkVersion(_ root: XMLElementTree) throws(LUTFileError) {
        if let text = root.attribute("compCLFversion") {
            guard let version = Double(text.trimmingWhitespace()), version.isFinite, version > 0 else {
                throw fail(root, "compCLFversion \"\(text.excerpt)\" is not a version number")
            }
            guard version <= CLFFormat.newestVersion else {
                throw fail(root, "compCLFversion \(text.excerpt) is newer than CLF \(Int(CLFFormat.newestVersion)), the newest known")
            }
        } else if let text = root.attribute("version") {
            guard let version = Double(text.trimmingWhitespace()), version.isFinite, version > 0 else {
                throw fail(root, "version \"\(text.excerpt)\" is not a version number")
            }
            guard version <= CLFFormat.newestLegacyVersion else {
                throw fail(root, "version \(text.excerpt) is newer than the pre-SMPTE CLF versions (up to 2); "
                    + "SMPTE files state compCLFversion")
            }
        } else {
            throw fail(root, "attribute compCLFversion (or the pre-SMPTE version) is missing")
        }
    }

    private mutating func depths(_ node: XMLElementTree) throws(LUTFileError) -> (CLFBitDepth, CLFBitDepth) {
        var found: [CLFBitDepth] = []
        for name in ["inBitDepth", "outBitDepth"] {
            guard let text = node.attribute(name) else {
                if Self.operationElements.contains(node.name) {
                    throw fail(node, "\(name) is missing; it is one of \(CLFBitDepth.names)")
                }
                throw fail(node, "unknown element <\(node.name)> in the ProcessList; CLF operations are \(Self.operationNames)")
            }
            guard let depth = CLFBitDepth(rawValue: text.trimmingWhitespace().lowercased()) else {
                throw fail(node, "\(name) \"\(text.excerpt)\" is not a bit depth; use one of \(CLFBitDepth.names)")
            }
            found.append(depth)
        }
        if let previousDepth, previousDepth.depth != found[0] {
            throw fail(node, "inBitDepth \(found[0].rawValue) does not match the outBitDepth \(previousDepth.depth.rawValue) "
                + "of the <\(previousDepth.element)> before it")
        }
        previousDepth = (found[1], node.name)
        return (found[0], found[1])
    }

    /// The number in attribute `name`, or `fallback` when absent.
    private func number(_ element: XMLElementTree, _ name: String, default fallback: Double? = nil) throws(LUTFileError) -> Double {
        guard let text = element.attribute(name) else {
            guard let fallback else { throw fail(element, "attribute \(name) is missing") }
            return fallback
        }
        guard let value = Double(text.trimmingWhitespace()), value.isFinite else {
            throw fail(element, "\(name) \"\(text.excerpt)\" is not a finite number")
        }
        return value
    }

    private func optionalNumber(_ element: XMLElementTree, _ name: String) throws(LUTFileError) -> Double? {
        element.attribute(name) == nil ? nil : try number(element, name)
    }

    /// Exactly `expected` whitespace-separated finite numbers from `element`'s text; stops at the
    /// first one too many, so a short declaration never makes a long file allocate.
    private func numbers(_ element: XMLElementTree, expected: Int) throws(LUTFileError) -> [Double] {
        var values: [Double] = []
        // Each value takes at least two bytes ("0 "): a short text reserves no more than it holds.
        values.reserveCapacity(min(expected, element.text.utf8.count / 2 + 1))
        for token in element.text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "," }) {
            guard values.count < expected else {
                throw fail(element, "more values than the \(expected) its dimensions call for")
            }
            guard let value = Double(token), value.isFinite else {
                throw fail(element, "value \(values.count + 1), '\(token.prefix(40))', is not a finite number")
            }
            values.append(value)
        }
        guard values.count == expected else {
            throw fail(element, "\(values.count) values where its dimensions call for \(expected)")
        }
        return values
    }

    /// The `Array` child's dimensions, accepted by `check` (`shapes` describes them for the
    /// message), and its `count(dims)` values; the dimensions are checked before any value is read.
    private func array(_ node: XMLElementTree, describe shapes: String,
                       check: ([Int]) -> Bool, count: ([Int]) -> Int) throws(LUTFileError) -> (dims: [Int], values: [Double], element: XMLElementTree) {
        guard let array = node.child("Array") else { throw fail(node, "the <Array> of values is missing") }
        guard let dimText = array.attribute("dim") else { throw fail(array, "attribute dim is missing; it should be \(shapes)") }
        let dims = dimText.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map { Int($0) ?? -1 }
        guard !dims.isEmpty, dims.allSatisfy({ $0 >= 0 }), check(dims) else {
            throw fail(array, "dim \"\(dimText)\" does not fit a <\(node.name)>; it should be \(shapes)")
        }
        return (dims, try numbers(array, expected: count(dims)), array)
    }

    // MARK: Operations

    private mutating func lut1D(_ node: XMLElementTree, _ inDepth: CLFBitDepth, _ outDepth: CLFBitDepth) throws(LUTFileError) -> [any TransformOp] {
        if let hue = node.attribute("hueAdjust"), hue.lowercased() != "none" {
            throw fail(node, "hueAdjust=\"\(hue)\" is not supported")
        }
        let halfDomain = node.attribute("halfDomain")?.lowercased() == "true"
        let rawHalfs = node.attribute("rawHalfs")?.lowercased() == "true"
        let largest = CLFFormat.largest1DSize
        let (dims, values, array) = try self.array(node, describe: "\"N 1\" or \"N 3\" with N from 2 to \(largest)",
                                                   check: { $0.count == 2 && (2...largest).contains($0[0]) && ($0[1] == 1 || $0[1] == 3) },
                                                   count: { $0[0] * $0[1] })
        let entries = dims[0], components = dims[1]
        if halfDomain, entries != 65536 {
            throw fail(array, "a halfDomain LUT1D has 65536 entries (one per half-float value), not \(entries)")
        }
        var outputs: [[Double]] = Array(repeating: [], count: 3)
        for channel in 0..<3 { outputs[channel].reserveCapacity(entries) }
        for index in 0..<entries {
            for channel in 0..<3 {
                var value = values[index * components + (components == 1 ? 0 : channel)]
                if rawHalfs {
                    guard value == value.rounded(), (0...65535).contains(value) else {
                        throw fail(array, "rawHalfs value \(value) at entry \(index + 1) is not a 16-bit pattern (0 to 65535)")
                    }
                    value = HalfFloat.value(bits: UInt16(value))
                }
                outputs[channel].append(value / outDepth.scale)
            }
        }
        var operations: [any TransformOp] = try indexMap(node, inDepth, entries: entries)
        var curves: [Curve] = []
        do throws(TransformError) {
            for channel in 0..<3 {
                if halfDomain {
                    let (inputs, kept) = HalfFloat.finiteDomain(outputs[channel])
                    if let bad = kept.firstIndex(where: { !$0.isFinite }) {
                        throw TransformError.invalidOperation(operation: "1D LUT", reason: "entry for input \(inputs[bad]) is not finite")
                    }
                    curves.append(try Curve(inputs: .points(inputs), outputs: kept))
                } else {
                    curves.append(try Curve(inputs: .uniform(0...1), outputs: outputs[channel]))
                }
            }
            operations.append(try LUT1DOp(curves: curves))
        } catch {
            throw fail(array, error.description)
        }
        return operations
    }

    private mutating func lut3D(_ node: XMLElementTree, _ inDepth: CLFBitDepth, _ outDepth: CLFBitDepth) throws(LUTFileError) -> [any TransformOp] {
        let sizes = ColorCube.sizeRange
        let (dims, values, array) = try self.array(node, describe: "\"N N N 3\" with N from \(sizes.lowerBound) to \(sizes.upperBound)",
                                                   check: { $0.count == 4 && $0[0] == $0[1] && $0[1] == $0[2] && sizes.contains($0[0]) && $0[3] == 3 },
                                                   count: { $0[0] * $0[1] * $0[2] * 3 })
        let interpolation: Interpolation
        switch node.attribute("interpolation")?.lowercased() {
        case "trilinear": interpolation = .trilinear
        // Without the attribute OpenColorIO 2.1 reads tetrahedrally (checked with ociobakelut).
        case nil, "tetrahedral": interpolation = .tetrahedral
        case let other?: throw fail(node, "interpolation \"\(other)\" is not trilinear or tetrahedral")
        }
        let n = dims[0]
        let scale = Float(outDepth.scale)
        var rgba = [Float](repeating: 1, count: n * n * n * 4)
        // The file's blue varies fastest: entry (r, g, b) is at (r * n + g) * n + b there and at
        // r + n * (g + n * b) in ColorCube.
        for r in 0..<n {
            for g in 0..<n {
                for b in 0..<n {
                    let source = ((r * n + g) * n + b) * 3
                    let target = (r + n * (g + n * b)) * 4
                    for channel in 0..<3 {
                        rgba[target + channel] = Float(values[source + channel]) / scale
                    }
                }
            }
        }
        let cube: ColorCube
        do throws(CubeError) {
            cube = try ColorCube(size: n, values: rgba)
        } catch {
            throw fail(array, error.description)
        }
        var operations = try indexMap(node, inDepth, entries: n)
        operations.append(LUT3DOp(table: cube, interpolation: interpolation))
        return operations
    }

    /// Checks a pre-SMPTE IndexMap and notes that it is not applied: OpenColorIO 2.1 reads a
    /// two-entry IndexMap and then ignores it (checked with ociobakelut: "64@0 940@4" and
    /// "512@0 1023@4" give the same output as no map), and colorcube matches OpenColorIO, the
    /// reference other tools follow. Returns no operations.
    private mutating func indexMap(_ node: XMLElementTree, _ inDepth: CLFBitDepth, entries: Int) throws(LUTFileError) -> [any TransformOp] {
        guard let map = node.child("IndexMap") else { return [] }
        let pairs = map.text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        guard pairs.count == 2 else {
            throw fail(map, "\(pairs.count) entries; only two-entry IndexMaps are supported")
        }
        var points: [(input: Double, index: Double)] = []
        for pair in pairs {
            let parts = pair.split(separator: "@")
            guard parts.count == 2, let input = Double(parts[0]), let index = Double(parts[1]), input.isFinite, index.isFinite else {
                throw fail(map, "'\(pair.prefix(40))' is not \"value@index\"")
            }
            points.append((input, index))
        }
        guard points[1].input != points[0].input, (0...Double(entries - 1)).contains(points[0].index),
              (0...Double(entries - 1)).contains(points[1].index) else {
            throw fail(map, "its inputs must differ and its indices lie in 0...\(entries - 1)")
        }
        notes.append("line \(map.line): the IndexMap of the <\(node.name)> (\(pairs.joined(separator: " "))) is ignored, "
            + "as OpenColorIO 2.1 ignores it; the table's entries are spread evenly over the input range")
        return []
    }

    private func matrix(_ node: XMLElementTree, _ inDepth: CLFBitDepth, _ outDepth: CLFBitDepth) throws(LUTFileError) -> MatrixOp {
        let (dims, values, _) = try array(node, describe: "\"3 3\" or \"3 4\"",
                                           check: { ($0.count == 2 || ($0.count == 3 && $0[2] == 3)) && $0[0] == 3 && ($0[1] == 3 || $0[1] == 4) },
                                           count: { $0[0] * $0[1] })
        let columns = dims[1]
        let gain = inDepth.scale / outDepth.scale
        var rows: [SIMD3<Double>] = []
        var offset = SIMD3<Double>.zero
        for row in 0..<3 {
            rows.append(SIMD3(values[row * columns], values[row * columns + 1], values[row * columns + 2]) * gain)
            if columns == 4 { offset[row] = values[row * columns + 3] / outDepth.scale }
        }
        do throws(TransformError) {
            return try MatrixOp(rows: rows, offset: offset)
        } catch {
            throw fail(node, error.description)
        }
    }

    private func range(_ node: XMLElementTree, _ inDepth: CLFBitDepth, _ outDepth: CLFBitDepth) throws(LUTFileError) -> RangeOp {
        func value(_ name: String, _ scale: Double) throws(LUTFileError) -> Double? {
            guard let element = node.child(name) else { return nil }
            return try numbers(element, expected: 1)[0] / scale
        }
        let minIn = try value("minInValue", inDepth.scale), maxIn = try value("maxInValue", inDepth.scale)
        let minOut = try value("minOutValue", outDepth.scale), maxOut = try value("maxOutValue", outDepth.scale)
        let style = node.attribute("style")?.lowercased() ?? "clamp"
        guard style == "clamp" || style == "noclamp" else {
            throw fail(node, "style \"\(node.attribute("style") ?? "")\" is not Clamp or noClamp")
        }
        guard (minIn == nil) == (minOut == nil), (maxIn == nil) == (maxOut == nil) else {
            throw fail(node, "minInValue and minOutValue (and maxInValue and maxOutValue) come in pairs")
        }
        let complete = minIn != nil && maxIn != nil
        if style == "noclamp", !complete {
            throw fail(node, "a noClamp Range needs all four of minInValue, maxInValue, minOutValue and maxOutValue")
        }
        // A one-sided range only clamps: its in and out limits must be the same value (after
        // scaling by the bit depths), as OpenColorIO requires.
        for (name, input, output) in [("minimum", minIn, minOut), ("maximum", maxIn, maxOut)] where !complete {
            if let input, let output, abs(input - output) > 1e-9 {
                throw fail(node, "with only a \(name) pair, the in and out \(name)s must be equal (the range only clamps); "
                    + "found \(input) and \(output) as fractions of white")
            }
        }
        do throws(TransformError) {
            switch (minIn, maxIn, minOut, maxOut) {
            case let (minIn?, maxIn?, minOut?, maxOut?):
                return try RangeOp(from: minIn, maxIn, to: minOut, maxOut, clamps: style == "clamp")
            case let (_?, nil, minOut?, nil):
                return try RangeOp(lower: minOut)
            case let (nil, _?, nil, maxOut?):
                return try RangeOp(upper: maxOut)
            default:
                throw TransformError.invalidOperation(operation: "range", reason: "it has none of minInValue, maxInValue, minOutValue, maxOutValue")
            }
        } catch {
            throw fail(node, error.description)
        }
    }

    /// Which channels a params element applies to.
    private func channels(_ element: XMLElementTree) throws(LUTFileError) -> [Int] {
        switch element.attribute("channel")?.uppercased() {
        case nil: return [0, 1, 2]
        case "R": return [0]
        case "G": return [1]
        case "B": return [2]
        case "A": return []
        case let other?: throw fail(element, "channel \"\(other)\" is not R, G or B")
        }
    }

    private func style(_ node: XMLElementTree) throws(LUTFileError) -> String {
        guard let style = node.attribute("style") else { throw fail(node, "attribute style is missing") }
        return style
    }

    private func log(_ node: XMLElementTree) throws(LUTFileError) -> LogOp {
        let name = try style(node)
        guard let style = LogOp.Style(clfName: name) else {
            throw fail(node, "style \"\(name)\" is not one of \(LogOp.Style.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var parameters = Array(repeating: LogOp.Parameters(), count: 3)
        var bases: Set<Double> = []
        for element in node.children("LogParams") {
            var p = LogOp.Parameters()
            p.logSideSlope = try number(element, "logSideSlope", default: 1)
            p.logSideOffset = try number(element, "logSideOffset", default: 0)
            p.linSideSlope = try number(element, "linSideSlope", default: 1)
            p.linSideOffset = try number(element, "linSideOffset", default: 0)
            p.linSideBreak = try optionalNumber(element, "linSideBreak")
            p.linearSlope = try optionalNumber(element, "linearSlope")
            bases.insert(try number(element, "base", default: 2))
            for channel in try channels(element) { parameters[channel] = p }
        }
        guard bases.count <= 1 else {
            throw fail(node, "its LogParams give different bases; one Log has one base")
        }
        do throws(TransformError) {
            return try LogOp(style: style, base: bases.first ?? 2, parameters: parameters)
        } catch {
            throw fail(node, error.description)
        }
    }

    private func exponent(_ node: XMLElementTree) throws(LUTFileError) -> ExponentOp {
        let name = try style(node)
        guard let style = ExponentOp.Style(clfName: name) else {
            throw fail(node, "style \"\(name)\" is not one of \(ExponentOp.Style.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let params = node.children("ExponentParams")
        guard !params.isEmpty else { throw fail(node, "the <ExponentParams> are missing") }
        var exponent = SIMD3<Double>.one, offset = SIMD3<Double>.zero
        for element in params {
            let g = try number(element, "exponent")
            let o = style.isMonCurve ? try number(element, "offset") : 0
            for channel in try channels(element) {
                exponent[channel] = g
                offset[channel] = o
            }
        }
        do throws(TransformError) {
            return try ExponentOp(style: style, exponent: exponent, offset: offset)
        } catch {
            throw fail(node, error.description)
        }
    }

    private func cdl(_ node: XMLElementTree) throws(LUTFileError) -> CDLOp {
        let name = node.attribute("style") ?? "Fwd"
        guard let style = CDLOp.Style(clfName: name) else {
            throw fail(node, "style \"\(name)\" is not one of Fwd, Rev, FwdNoClamp, RevNoClamp")
        }
        return try ASCCDLReader.correction(node, style: style, path: path)
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks (Foundation-free).
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
