import ColorCubeCore
import ColorCubeTransform

/// Turns a CLF or CTF `ProcessList` tree into operations (see `CLFFormat` and `CTFFormat` for
/// the rules); one reader per file, as it remembers the previous node's output depth and the title.
struct CLFNodeReader {
    let path: String
    /// Whether the file is a `.ctf`: OpenColorIO then reads a ProcessList without a version as
    /// CTF 1.2, takes `version` up to CTF's newest, and its own operators are CTF ones.
    let isCTF: Bool
    private(set) var title: String?
    private(set) var inputDescriptor: String?
    private(set) var outputDescriptor: String?
    /// What the user should know about how the file was read.
    var notes: [String] = []
    private var previousDepth: (depth: CLFBitDepth, element: String)?
    /// The pre-SMPTE `version` (major, minor, revision), when the file states one.
    private var legacyVersion: (Int, Int, Int)?
    /// Whether OpenColorIO reads the file as a CLF rather than as its own CTF: when it states a
    /// `compCLFversion` other than 0 (or the SMPTE name). This decides the operators it takes.
    private(set) var readsAsCLF = true
    /// The CTF version OpenColorIO reads the file as: a pre-SMPTE `version` itself, CTF 1.7 for
    /// a `compCLFversion` up to 2.0, CTF 2.0 for a later one.
    private(set) var ctfVersion = (2, 0, 0)
    /// The version attribute as written, e.g. `compCLFversion="2.0"`, for messages.
    private(set) var statedVersion = ""

    init(path: String, isCTF: Bool = false) {
        self.path = path
        self.isCTF = isCTF
    }

    /// The most operations a ProcessList may hold: each costs a pass over every pixel (or lattice
    /// node), and a file of thousands of trivial nodes is an attack, not a look.
    static let maxOperations = 1000

    private static let operationNames = "LUT1D, LUT3D, Matrix, Range, Log, Exponent (or Gamma) and ASC_CDL"
    /// The operations by lower-case name: OpenColorIO matches element names without regard to
    /// case. `Gamma` is OpenColorIO's CTF name for an Exponent, which it reads in a CLF too.
    private static let operationElements: [String: String] = Dictionary(
        uniqueKeysWithValues: ["LUT1D", "LUT3D", "Matrix", "Range", "Log", "Exponent", "Gamma", "ASC_CDL"].map { ($0.lowercased(), $0) })
    private static let metadataNames: Set<String> = ["Description", "InputDescriptor", "OutputDescriptor", "Info"]
    mutating func transform(of root: XMLElementTree) throws(LUTFileError) -> Transform {
        guard root.name == "ProcessList" else {
            throw fail(root, "the root element is <\(root.name)>, not <ProcessList>: this is not a \(isCTF ? "CTF" : "CLF") file")
        }
        // SMPTE ST 2136-1 files name their version by their namespace and may leave out the id.
        let smpteNamespace = root.attribute("xmlns") == Self.smpteNamespace
        if let id = root.attribute("id") {
            guard !id.isEmpty else {
                throw fail(root, "attribute id is empty; CLF requires a value, e.g. id=\"look\"")
            }
        } else if !smpteNamespace {
            throw missing(root, "attribute id", hint: "CLF requires one")
        }
        try checkVersion(root, smpteNamespace: smpteNamespace)
        try checkInfoVersion(root)
        title = root.child("Description").map { $0.text.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
            ?? root.attribute("name")
        inputDescriptor = root.child("InputDescriptor").map { $0.text.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        outputDescriptor = root.child("OutputDescriptor").map { $0.text.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        let nodes = try operationNodes(root)
        if nodes.count > Self.maxOperations {
            throw fail(root, "the ProcessList holds \(nodes.count) operations; colorcube reads up to \(Self.maxOperations) "
                + "(real looks hold a few dozen at most)")
        }
        guard !nodes.isEmpty else {
            throw fail(root, "the ProcessList holds no operation; a CLF needs at least one of \(Self.operationNames) "
                + "(an identity <Matrix> if the look changes nothing)")
        }
        var operations: [any TransformOp] = []
        let pairs = try inversePairs(nodes)
        for (index, (node, kind)) in nodes.enumerated() {
            let (inDepth, outDepth) = try depths(node)
            if let replacement = pairs[index] {
                operations.append(contentsOf: replacement)
                continue
            }
            let produced: [any TransformOp]
            switch kind {
            case "LUT1D": produced = try lut1D(node, inDepth, outDepth)
            case "LUT3D": produced = try lut3D(node, inDepth, outDepth)
            case "Matrix": produced = [try matrix(node, inDepth, outDepth)]
            case "Range": produced = [try range(node, inDepth, outDepth)]
            case "Log": produced = [try log(node)]
            case "Exponent", "Gamma": produced = [try exponent(node, params: kind + "Params")]
            case "InverseLUT1D": produced = [try inverseLUT1D(node, inDepth)]
            case "InverseLUT3D": produced = [try inverseLUT3D(node, inDepth)]
            case "Reference": produced = try reference(node)
            case "ExposureContrast": produced = [try exposureContrast(node)]
            case "FixedFunction", "Function", "ACES": produced = [try fixedFunction(node, kind)]
            case "GradingPrimary": produced = [try gradingPrimary(node)]
            case "GradingTone": produced = [try gradingTone(node)]
            case "GradingRGBCurve": produced = [try gradingRGBCurve(node)]
            case "GradingHueCurve": produced = [try gradingHueCurve(node)]
            default: produced = [try cdl(node)]
            }
            operations.append(contentsOf: produced)
        }
        return Transform(operations)
    }

    /// The ProcessList's operations with their canonical names. Metadata and elements CLF does
    /// not define are skipped, as OpenColorIO skips them (vendor extensions, `<Id>`), with a
    /// note naming them; a CTF operator is checked by `checkCTFOperator(_:at:)`.
    private mutating func operationNodes(_ root: XMLElementTree) throws(LUTFileError) -> [(XMLElementTree, String)] {
        var nodes: [(XMLElementTree, String)] = []
        var skipped: [String] = []
        for child in root.children {
            let key = child.name.lowercased()
            if let kind = Self.operationElements[key] {
                nodes.append((child, kind))
            } else if let ctfOperator = CTFOperator.all[key] {
                try checkCTFOperator(ctfOperator, at: child)
                nodes.append((child, ctfOperator.name))
            } else if !Self.metadataNames.contains(child.name), !skipped.contains(child.name) {
                skipped.append(child.name)
            }
        }
        if !skipped.isEmpty {
            let shown = skipped.prefix(5).map { "<\($0)>" }.joined(separator: ", ") + (skipped.count > 5 ? ", ..." : "")
            notes.append("elements CLF does not define were skipped, as OpenColorIO skips them: \(shown)")
        }
        return nodes
    }

    /// Refuses a CTF operator where OpenColorIO has no such element: in a file read as a CLF, or
    /// one stating a version before the operator's.
    private func checkCTFOperator(_ ctfOperator: CTFOperator, at node: XMLElementTree) throws(LUTFileError) {
        if readsAsCLF, !ctfOperator.inCLF {
            throw fail(node, "<\(node.name)> is an OpenColorIO CTF operator, not a CLF one, and a file stating \(statedVersion) "
                + "is read as a CLF: state version=\"2.0\" instead of compCLFversion")
        }
        let since = ctfOperator.since
        if ctfVersion < since {
            throw fail(node, "a file stating \(statedVersion) has no <\(node.name)> (it came with version \(since.0).\(since.1)): "
                + "state version=\"\(since.0).\(since.1)\" or later")
        }
    }

    // MARK: Attributes and numbers

    func fail(_ element: XMLElementTree, _ reason: String) -> LUTFileError {
        .malformed(path: path, line: element.line, reason: "<\(element.name)>: \(reason)")
    }

    /// `part` ("attribute id", "<Array>") of `element` is missing; `hint` says what it holds.
    private func missing(_ element: XMLElementTree, _ part: String, hint: String? = nil) -> LUTFileError {
        .malformed(path: path, line: element.line, defect: .missing(part: part, container: "<\(element.name)>", hint: hint))
    }

    /// The SMPTE ST 2136-1 `compCLFversion`, accepted as OpenColorIO accepts it.
    private static let smpteVersion = "ST2136-1:2024"

    /// The SMPTE ST 2136-1 namespace: as the root's `xmlns`, it states CLF 3 by itself.
    private static let smpteNamespace = "http://www.smpte-ra.org/ns/2136-1/2024"

    /// The newest major version of a CTF `<Info>` element OpenColorIO reads.
    private static let newestInfoVersion = 2

    /// Checks a .ctf's `<Info version="...">` as OpenColorIO does: its leading whole number (the
    /// minor version is for tracking alone) must be there and at most `newestInfoVersion`.
    private func checkInfoVersion(_ root: XMLElementTree) throws(LUTFileError) {
        guard isCTF, let info = root.child("Info"), let text = info.attribute("version") else { return }
        var rest = Substring(text.trimmingWhitespace())
        var sign = 1
        if let first = rest.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        // Nine digits at most: any longer number is refused as too new all the same.
        let digits = rest.prefix { $0.isASCII && $0.isNumber }.prefix(9)
        guard let magnitude = Int(digits) else {
            throw fail(info, "version \"\(text.excerpt)\" is not a version number; write MAJOR.MINOR, e.g. 2.0")
        }
        guard sign * magnitude <= Self.newestInfoVersion else {
            throw fail(info, "version \(text.excerpt) is newer than the Info version OpenColorIO reads (\(Self.newestInfoVersion).x)")
        }
    }

    /// Checks the version as OpenColorIO does: `MAJOR[.MINOR[.REVISION]]` in digits alone (no
    /// sign, space or exponent), up to 3.0 for `compCLFversion` (or the SMPTE name) and up to
    /// 2.0 for the pre-SMPTE `version`; the two attributes never together. The SMPTE namespace
    /// states CLF 3 by itself, and never with the pre-SMPTE `version`.
    private mutating func checkVersion(_ root: XMLElementTree, smpteNamespace: Bool) throws(LUTFileError) {
        let smpte = root.attribute("compCLFversion"), legacy = root.attribute("version")
        if smpte != nil, legacy != nil {
            throw fail(root, "it states both compCLFversion and the pre-SMPTE version; keep compCLFversion and remove version")
        }
        if smpteNamespace {
            guard legacy == nil else {
                throw fail(root, "its namespace is SMPTE ST 2136-1's, which states CLF 3, and it states the pre-SMPTE version too; "
                    + "remove version")
            }
            if smpte == nil {
                // The namespace alone: CLF 3 (the reader's defaults).
                statedVersion = "the SMPTE ST 2136-1 namespace"
                return
            }
        }
        statedVersion = smpte.map { "compCLFversion=\"\($0.excerpt)\"" } ?? legacy.map { "version=\"\($0.excerpt)\"" } ?? ""
        if let text = smpte {
            guard text != Self.smpteVersion else { return }
            guard let version = Self.versionNumbers(text) else {
                throw fail(root, "compCLFversion \"\(text.excerpt)\" is not a version number; write MAJOR[.MINOR[.REVISION]], e.g. 3.0")
            }
            guard (version.0, version.1) <= (Int(CLFFormat.newestVersion), 0) else {
                throw fail(root, "compCLFversion \(text.excerpt) is newer than CLF \(Int(CLFFormat.newestVersion)), the newest known")
            }
            readsAsCLF = version != (0, 0, 0)
            ctfVersion = version <= (2, 0, 0) ? (1, 7, 0) : (2, 0, 0)
        } else if let text = legacy {
            guard let version = Self.versionNumbers(text) else {
                throw fail(root, "version \"\(text.excerpt)\" is not a version number; write MAJOR[.MINOR[.REVISION]], e.g. 1.2")
            }
            if isCTF {
                guard version <= CTFFormat.newestVersion else {
                    let newest = CTFFormat.newestVersion
                    throw fail(root, "version \(text.excerpt) is newer than CTF \(newest.0).\(newest.1), the newest OpenColorIO reads")
                }
            } else if (version.0, version.1) > (Int(CLFFormat.newestLegacyVersion), 0) {
                throw fail(root, "version \(text.excerpt) is newer than the pre-SMPTE CLF versions (up to 2.0); "
                    + "SMPTE files state compCLFversion")
            }
            legacyVersion = version
            readsAsCLF = false
            ctfVersion = version
        } else if isCTF {
            // OpenColorIO reads a CTF that states no version as CTF 1.2.
            legacyVersion = (1, 2, 0)
            readsAsCLF = false
            ctfVersion = (1, 2, 0)
            statedVersion = "no version (read as version=\"1.2\")"
        } else {
            throw missing(root, "attribute compCLFversion (or the pre-SMPTE version)")
        }
    }

    /// The numbers of `MAJOR[.MINOR[.REVISION]]` (digits only; absent ones are 0), or nil.
    private static func versionNumbers(_ text: String) -> (Int, Int, Int)? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        let numbers = parts.compactMap { (part) -> Int? in
            guard part.utf8.count <= 9 else { return nil }
            return TextLUTParsing.wholeNumber(part)
        }
        guard numbers.count == parts.count else { return nil }
        return (numbers[0], numbers.count > 1 ? numbers[1] : 0, numbers.count > 2 ? numbers[2] : 0)
    }

    private mutating func depths(_ node: XMLElementTree) throws(LUTFileError) -> (CLFBitDepth, CLFBitDepth) {
        var found: [CLFBitDepth] = []
        for name in ["inBitDepth", "outBitDepth"] {
            guard let text = node.attribute(name) else {
                throw missing(node, "attribute \(name)", hint: "it is one of \(CLFBitDepth.names)")
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
    func number(_ element: XMLElementTree, _ name: String, default fallback: Double? = nil) throws(LUTFileError) -> Double {
        guard let text = element.attribute(name) else {
            guard let fallback else { throw missing(element, "attribute \(name)") }
            return fallback
        }
        return try number(element, name, text: text)
    }

    /// `text`, the value of attribute `name`, as a finite number.
    func number(_ element: XMLElementTree, _ name: String, text: String) throws(LUTFileError) -> Double {
        guard let value = Double(text.trimmingWhitespace()), value.isFinite else {
            throw .malformed(path: path, line: element.line, defect: .notFinite(field: "<\(element.name)> \(name)", text: text.excerpt))
        }
        return value
    }

    private func optionalNumber(_ element: XMLElementTree, _ name: String) throws(LUTFileError) -> Double? {
        element.attribute(name) == nil ? nil : try number(element, name)
    }

    /// Exactly `expected` whitespace-separated finite numbers from `element`'s text; the values are
    /// counted before any is stored, so a short declaration never makes a long file allocate.
    private func numbers(_ element: XMLElementTree, expected: Int) throws(LUTFileError) -> [Double] {
        try numbers(element, expected: expected, readingNonFinite: false).values
    }

    /// `numbers(_:expected:)`, where `readingNonFinite` reads a 1D table's entries that are not
    /// finite Float32 values as OpenColorIO reads them (`nan` as 0, `inf` and values beyond
    /// Float32 as the largest Float32 of their sign, a numeral that overflows Double, such as
    /// 1e999, as 0) and counts them.
    private func numbers(_ element: XMLElementTree, expected: Int,
                         readingNonFinite: Bool) throws(LUTFileError) -> (values: [Double], nonFinite: Int) {
        var values: [Double] = []
        var nonFinite = 0
        // Each value takes at least two bytes ("0 "): a short text reserves no more than it holds.
        values.reserveCapacity(min(expected, element.text.utf8.count / 2 + 1))
        let tokens = element.text.split(whereSeparator: \.separatesNumbers)
        guard tokens.count == expected else {
            throw .malformed(path: path, line: element.line,
                             defect: .wrongCount(what: "values in <\(element.name)> (its dimensions)", expected: expected, found: tokens.count))
        }
        for token in tokens {
            guard let parsed = Double(token), readingNonFinite || parsed.isFinite else {
                throw .malformed(path: path, line: element.line,
                                 defect: .notFinite(field: "<\(element.name)> value \(values.count + 1)", text: String(token.prefix(40))))
            }
            var value = parsed
            if readingNonFinite, !(abs(value) <= TextLUTParsing.largestTableEntry) {
                let largest = TextLUTParsing.largestTableEntry
                value = TextLUTParsing.nonFiniteEntry(token) ?? (value.isFinite ? (value < 0 ? -largest : largest) : 0)
                nonFinite += 1
            }
            values.append(value)
        }
        return (values, nonFinite)
    }

    /// The `Array` child's dimensions, accepted by `check` (`shapes` describes them for the
    /// message), and its `count(dims)` values; the dimensions are checked before any value is read.
    private func array(_ node: XMLElementTree, describe shapes: String, readingNonFinite: Bool = false,
                       check: ([Int]) -> Bool, count: ([Int]) -> Int) throws(LUTFileError)
        -> (dims: [Int], values: [Double], element: XMLElementTree, nonFinite: Int) {
        guard let array = node.child("Array") else { throw missing(node, "<Array>", hint: "it holds the values") }
        guard let dimText = array.attribute("dim") else { throw missing(array, "attribute dim", hint: "it should be \(shapes)") }
        let dims = dimText.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map { Int($0) ?? -1 }
        guard !dims.isEmpty, dims.allSatisfy({ $0 >= 0 }), check(dims) else {
            throw fail(array, "dim \"\(dimText)\" does not fit a <\(node.name)>; it should be \(shapes)")
        }
        let (values, nonFinite) = try numbers(array, expected: count(dims), readingNonFinite: readingNonFinite)
        return (dims, values, array, nonFinite)
    }

    // MARK: Operations

    /// A LUT1D's (or InverseLUT1D's) entries per channel (red, green, blue), divided by `depth`'s
    /// scale, with whether they are one per half-float bit pattern.
    mutating func lut1DEntries(_ node: XMLElementTree, scale depth: CLFBitDepth) throws(LUTFileError)
        -> (outputs: [[Double]], halfDomain: Bool, array: XMLElementTree) {
        let halfDomain = try flag(node, "halfDomain")
        let rawHalfs = try flag(node, "rawHalfs")
        let largest = CLFFormat.largest1DSize
        let (dims, values, array, nonFinite) = try self.array(node, describe: "\"N 1\" or \"N 3\" with N from 2 to \(largest)", readingNonFinite: true,
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
                    if !value.isFinite {
                        value = value.isNaN ? 0 : (value < 0 ? -TextLUTParsing.largestTableEntry : TextLUTParsing.largestTableEntry)
                    }
                }
                // An infinite entry stays the largest Float32 of its sign whatever the bit depth
                // (OpenColorIO scales the infinity, then clamps it).
                outputs[channel].append(abs(value) == TextLUTParsing.largestTableEntry ? value : value / depth.scale)
            }
        }
        if nonFinite > 0 {
            let element = node.name.lowercased() == "inverselut1d" ? "InverseLUT1D" : "LUT1D"
            notes.append("line \(array.line): \(nonFinite) entr\(nonFinite == 1 ? "y" : "ies") of the <\(element)> "
                + "\(nonFinite == 1 ? "is" : "are") NaN or beyond Float32, read as OpenColorIO reads them: NaN as 0, "
                + "infinity as the largest Float32 (3.4e38) of its sign")
        }
        return (outputs, halfDomain, array)
    }

    private mutating func lut1D(_ node: XMLElementTree, _ inDepth: CLFBitDepth, _ outDepth: CLFBitDepth) throws(LUTFileError) -> [any TransformOp] {
        let (outputs, halfDomain, array) = try lut1DEntries(node, scale: outDepth)
        var operations: [any TransformOp] = try indexMap(node, inDepth: inDepth, entries: outputs[0].count)
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
        if let table = operations.popLast() as? LUT1DOp { operations.append(try hueKept(table, node, array: array)) }
        return operations
    }

    /// Whether a LUT1D (or InverseLUT1D) keeps hue: `hueAdjust="dw3"`, the one adjustment CLF
    /// defines (any other value is refused). A CTF before version 1.4, which had no such
    /// attribute, ignores it, as OpenColorIO does.
    func keepsHue(_ node: XMLElementTree) throws(LUTFileError) -> Bool {
        guard let hue = node.attribute("hueAdjust") else { return false }
        guard hue.lowercased() == "dw3" else {
            throw fail(node, "hueAdjust=\"\(hue.excerpt)\" is not dw3, the one hue adjustment CLF defines; "
                + "remove the attribute for none")
        }
        return ctfVersion >= (1, 4, 0)
    }

    /// `table` keeping hue when `node` asks for it (`keepsHue`).
    func hueKept(_ table: LUT1DOp, _ node: XMLElementTree, array: XMLElementTree) throws(LUTFileError) -> any TransformOp {
        guard try keepsHue(node) else { return table }
        do throws(TransformError) {
            return try HueKeepingOp(table)
        } catch {
            throw fail(array, error.description)
        }
    }

    /// A LUT1D's boolean attribute: absent is false, `true` (any case) is true, and anything
    /// else is refused, as OpenColorIO refuses it.
    private func flag(_ node: XMLElementTree, _ name: String) throws(LUTFileError) -> Bool {
        guard let text = node.attribute(name) else { return false }
        guard text.lowercased() == "true" else {
            throw fail(node, "\(name)=\"\(text.excerpt)\" is not \"true\", the one value CLF allows; remove the attribute to turn \(name) off")
        }
        return true
    }

    mutating func lut3D(_ node: XMLElementTree, _ inDepth: CLFBitDepth, _ outDepth: CLFBitDepth) throws(LUTFileError) -> [any TransformOp] {
        let sizes = ColorCube.sizeRange
        let (dims, values, array, _) = try self.array(node, describe: "\"N N N 3\" with N from \(sizes.lowerBound) to \(sizes.upperBound)",
                                                   check: { $0.count == 4 && $0[0] == $0[1] && $0[1] == $0[2] && sizes.contains($0[0]) && $0[3] == 3 },
                                                   count: { $0[0] * $0[1] * $0[2] * 3 })
        let interpolation: Interpolation
        switch node.attribute("interpolation")?.lowercased() {
        // Without the attribute, trilinear: the CLF default, and what OpenColorIO 2.6 applies unless
        // the caller asks for another.
        case nil, "trilinear": interpolation = .trilinear
        case "tetrahedral": interpolation = .tetrahedral
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
        var operations = try indexMap(node, inDepth: inDepth, entries: n)
        operations.append(LUT3DOp(table: cube, interpolation: interpolation))
        return operations
    }

    /// A pre-SMPTE IndexMap, read as OpenColorIO reads it: the operations to put before the table.
    ///
    /// The map is `dim` pairs "value@index" (spaces allowed around the @), values and indices
    /// increasing, one map per table. What it does depends on the version the file states:
    /// - CLF 2 and CTF from 1.5 (a LUT1D) or 1.7 (a LUT3D): a map of two pairs is a clamping
    ///   Range from the values (in the table's input bit depth) to the indices (over the table's
    ///   `entries`), put before the table; a longer map is refused.
    /// - Older CTF versions: checked, then ignored.
    /// - CLF 3 and CTF 2, which dropped the element: its pairs are counted, then it is ignored.
    /// The notes say when a map is ignored.
    private mutating func indexMap(_ node: XMLElementTree, inDepth: CLFBitDepth, entries: Int) throws(LUTFileError) -> [any TransformOp] {
        let maps = node.children("IndexMap")
        guard let map = maps.first else { return [] }
        guard maps.count == 1 else {
            throw fail(maps[1], "a second IndexMap in one <\(node.name)>; a table has at most one: remove it")
        }
        guard let dimText = map.attribute("dim") else {
            throw missing(map, "attribute dim", hint: "it is the number of entries, e.g. dim=\"2\"")
        }
        guard let dim = TextLUTParsing.wholeNumber(dimText.trimmingWhitespace()), dim >= 2 else {
            throw fail(map, "dim \"\(dimText.excerpt)\" is not a number of entries (2 or more)")
        }
        let tokens = map.text.split { $0.separatesNumbers || $0 == "@" }
        guard tokens.count.isMultiple(of: 2) else {
            throw fail(map, "'\(map.text.trimmingWhitespace().excerpt)' is not pairs \"value@index\"")
        }
        guard tokens.count / 2 <= dim else {
            throw LUTFileError.malformed(path: path, line: map.line, defect: .wrongCount(what: "entries in <IndexMap> (its dim)", expected: dim, found: tokens.count / 2))
        }
        let dropped = ctfVersion >= (2, 0, 0)
        let fullForm = node.name == "LUT1D" ? (1, 5, 0) : (1, 7, 0)
        if !dropped {
            guard tokens.count / 2 == dim else {
                throw LUTFileError.malformed(path: path, line: map.line, defect: .wrongCount(what: "entries in <IndexMap> (its dim)", expected: dim, found: tokens.count / 2))
            }
        }
        var pairs: [(input: Double, index: Double)] = []
        for pair in 0..<(tokens.count / 2) {
            guard let input = Double(tokens[2 * pair]), let index = Double(tokens[2 * pair + 1]) else {
                throw fail(map, "'\(tokens[2 * pair].prefix(40))@\(tokens[2 * pair + 1].prefix(40))' is not \"value@index\"")
            }
            // Written so that NaN passes, as it passes OpenColorIO's check.
            if !dropped, let previous = pairs.last, previous.input >= input || previous.index >= index {
                throw fail(map, "'\(tokens[2 * pair].prefix(40))@\(tokens[2 * pair + 1].prefix(40))' does not follow the entry "
                    + "before it; values and indices must increase")
            }
            pairs.append((input, index))
        }
        let written = stride(from: 0, to: tokens.count, by: 2).map { "\(tokens[$0])@\(tokens[$0 + 1])" }.joined(separator: " ")
        guard !dropped, ctfVersion >= fullForm else {
            notes.append("line \(map.line): the IndexMap of the <\(node.name)> (\(written)) is ignored, as OpenColorIO ignores it in "
                + "\(dropped ? "CLF 3 and CTF 2, which dropped the element" : "a CTF before version \(fullForm.0).\(fullForm.1)")"
                + "; the table's entries are spread evenly over the input range")
            return []
        }
        guard pairs.count == 2 else {
            throw fail(map, "an IndexMap of \(pairs.count) entries; OpenColorIO applies two (the input range and the entries it "
                + "spans): resample the table over that range and remove the map")
        }
        let last = Double(entries - 1)
        do throws(TransformError) {
            return [try RangeOp(from: pairs[0].input / inDepth.scale, pairs[1].input / inDepth.scale,
                                to: pairs[0].index / last, pairs[1].index / last)]
        } catch {
            throw fail(map, error.description)
        }
    }

    /// A Matrix as OpenColorIO reads it. From version 1.3 (and in every CLF) the array is "3 3"
    /// or "3 4" (the fourth column is the offset), or the alpha forms "4 4" and "4 5" (the fifth
    /// column is the offset); a third dimension, if written, repeats the first.
    /// Up to version 1.2 it is "3 3 3", or in a .ctf "4 4 3" whose fourth column is the offset.
    /// The alpha row is ignored, and the alpha column adds to the offset: OpenColorIO applies a
    /// matrix to an RGB image with alpha 1.
    private func matrix(_ node: XMLElementTree, _ inDepth: CLFBitDepth, _ outDepth: CLFBitDepth) throws(LUTFileError) -> MatrixOp {
        let early = legacyVersion.map { $0 <= (1, 2, 0) } ?? false
        let (dims, values, array, _) = try self.array(node, describe: "\"3 3\", \"3 4\", \"4 4\" or \"4 5\"",
                                                 check: { Self.isMatrixShape($0) || $0 == [4, 4, 3] },
                                                 count: { $0[0] * $0[1] })
        let shape = "dim \"\(dims.map(String.init).joined(separator: " "))\""
        // OpenColorIO refuses the other shapes in a file up to version 1.2, and this one after it.
        if early, let legacyVersion, !(dims == [3, 3, 3] || dims == [4, 4, 3]) {
            throw fail(array, "\(shape) in a version \(legacyVersion.0).\(legacyVersion.1) file, "
                + "where a Matrix is \"3 3 3\"; write that, or state version 1.3 or later for \"3 3\" and \"3 4\"")
        }
        if !early, dims == [4, 4, 3] {
            throw fail(array, "\(shape) is the form of files up to version 1.2; write \"3 4\" (the fourth column is the offset)")
        }
        let columns = dims[1]
        // The column of offsets, and the alpha column, if the array has them.
        let offsetColumn = early ? (dims[0] == 4 ? 3 : nil) : (columns == 4 && dims[0] == 3 ? 3 : (columns == 5 ? 4 : nil))
        let alphaColumn = !early && dims[0] == 4 ? 3 : nil
        let gain = inDepth.scale / outDepth.scale
        var rows: [SIMD3<Double>] = []
        var offset = SIMD3<Double>.zero
        for row in 0..<3 {
            rows.append(SIMD3(values[row * columns], values[row * columns + 1], values[row * columns + 2]) * gain)
            if let offsetColumn { offset[row] = values[row * columns + offsetColumn] / outDepth.scale }
            if let alphaColumn { offset[row] += values[row * columns + alphaColumn] * gain }
        }
        do throws(TransformError) {
            return try MatrixOp(rows: rows, offset: offset)
        } catch {
            throw fail(node, error.description)
        }
    }

    /// "3 3", "3 4", "4 4" or "4 5", with an optional third dimension equal to the first. The
    /// 4-row forms (RGBA) are OpenColorIO's, which reads them in a .clf as in a .ctf.
    private static func isMatrixShape(_ dims: [Int]) -> Bool {
        guard dims.count == 2 || (dims.count == 3 && dims[2] == dims[0]) else { return false }
        return (dims[0] == 3 && (dims[1] == 3 || dims[1] == 4)) || (dims[0] == 4 && (dims[1] == 4 || dims[1] == 5))
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

    /// Which channels a params element applies to; `alpha` accepts `A`, which applies to none
    /// (colorcube's looks have no alpha).
    private func channels(_ element: XMLElementTree, alpha: Bool = false) throws(LUTFileError) -> [Int] {
        switch element.attribute("channel")?.uppercased() {
        case nil: return [0, 1, 2]
        case "R": return [0]
        case "G": return [1]
        case "B": return [2]
        case "A" where alpha: return []
        case let other?: throw fail(element, "channel \"\(other)\" is not R, G or B")
        }
    }

    /// The children called `name`, matched without regard to case as OpenColorIO matches them.
    func parameters(_ node: XMLElementTree, _ name: String) -> [XMLElementTree] {
        let lowered = name.lowercased()
        return node.children.filter { $0.name.lowercased() == lowered }
    }

    private func style(_ node: XMLElementTree) throws(LUTFileError) -> String {
        guard let style = node.attribute("style") else { throw missing(node, "attribute style") }
        return style
    }

    /// A Log. The basic styles (log10, log2 and their antilogs) take no parameters: their
    /// LogParams are ignored unread, as OpenColorIO ignores them, base and all. The parametric
    /// styles take one base for all channels (2 when none is given); `linSideBreak` and
    /// `linearSlope` belong to the camera styles, and a `linearSlope` of 0 is a flat line.
    private mutating func log(_ node: XMLElementTree) throws(LUTFileError) -> LogOp {
        let name = try style(node)
        guard let style = LogOp.Style(clfName: name) else {
            throw fail(node, "style \"\(name)\" is not one of \(LogOp.Style.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        try checkLogVersion(node, style)
        let elements = parameters(node, "LogParams")
        guard style.takesParameters else {
            if let first = elements.first {
                notes.append("line \(first.line): the LogParams of the \(name) <\(node.name)> are ignored, as OpenColorIO "
                    + "ignores them: the style takes no parameters (its base is \(name.hasSuffix("2") ? 2 : 10))")
            }
            do throws(TransformError) {
                return try LogOp(style: style)
            } catch {
                throw fail(node, error.description)
            }
        }
        if let cineon = try cineonParameters(node, style: style, elements) {
            do throws(TransformError) {
                return try LogOp(style: style, base: 10, parameters: cineon)
            } catch {
                throw fail(node, error.description)
            }
        }
        var parameters = Array(repeating: LogOp.Parameters(), count: 3)
        var bases: Set<Double> = []
        for element in elements {
            var p = LogOp.Parameters()
            p.logSideSlope = try number(element, "logSideSlope", default: 1)
            p.logSideOffset = try number(element, "logSideOffset", default: 0)
            p.linSideSlope = try number(element, "linSideSlope", default: 1)
            p.linSideOffset = try number(element, "linSideOffset", default: 0)
            p.linSideBreak = try optionalNumber(element, "linSideBreak")
            p.linearSlope = try optionalNumber(element, "linearSlope")
            if !style.isCamera, let extra = ["linSideBreak", "linearSlope"].first(where: { element.attribute($0) != nil }) {
                throw fail(element, "\(extra) is for the cameraLinToLog and cameraLogToLin styles; remove it from a \(name) Log")
            }
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

    /// Refuses a Log where OpenColorIO has none: in a file stating `compCLFversion` up to 2.0 or
    /// a pre-SMPTE `version` below 1.3, or a camera style before version 2.0 (whose LogParams then
    /// take the Cineon parameters alone, which do not define a camera log).
    private func checkLogVersion(_ node: XMLElementTree, _ style: LogOp.Style) throws(LUTFileError) {
        let advice = legacyVersion == nil ? "state compCLFversion=\"3.0\"" : "state version=\"2.0\""
        if readsAsCLF ? ctfVersion < (2, 0, 0) : ctfVersion < (1, 3, 0) {
            throw fail(node, "a file stating \(statedVersion) has no <\(node.name)> (it came with "
                + "\(readsAsCLF ? "CLF 3" : "version 1.3")): \(advice)")
        }
        if !readsAsCLF, ctfVersion < (2, 0, 0), style.isCamera {
            throw fail(node, "a file stating \(statedVersion) has no \(style.rawValue) Log (it came with version 2.0): \(advice)")
        }
    }

    /// The names of the Cineon parameters, in the order `LogOp.Parameters(cineon:)` takes them.
    private static let cineonNames = ["gamma", "refWhite", "refBlack", "highlight", "shadow"]

    /// A linToLog or logToLin Log of a pre-SMPTE file written with the Cineon parameters (gamma,
    /// refWhite, refBlack, highlight, shadow), as the LogParams of CTF files have them, each channel
    /// turned into the slopes and offsets of a base-10 log; nil when the Log is written otherwise.
    /// Before version 2.0 these are the only parameters read (others are skipped, as OpenColorIO
    /// skips them) and every channel needs all five; from 2.0 a LogParams that gives any of them is
    /// Cineon, and mixing them with CLF 3's parameters is refused.
    private mutating func cineonParameters(_ node: XMLElementTree, style: LogOp.Style,
                                           _ elements: [XMLElementTree]) throws(LUTFileError) -> [LogOp.Parameters]? {
        guard !readsAsCLF, !style.isCamera else { return nil }
        let early = ctfVersion < (2, 0, 0)
        let cineon = elements.filter { element in Self.cineonNames.contains { element.attribute($0) != nil } }
        guard early || !cineon.isEmpty else { return nil }
        let clfNames = ["logSideSlope", "logSideOffset", "linSideSlope", "linSideOffset", "base", "linSideBreak", "linearSlope"]
        var skipped: Set<String> = []
        var given: [[Double]?] = [nil, nil, nil]
        for element in elements {
            for name in clfNames where element.attribute(name) != nil {
                guard early else { throw fail(element, "\(name) is a CLF 3 parameter; a LogParams gives Cineon or CLF 3 parameters, not both") }
                skipped.insert(name)
            }
            var values: [Double] = []
            for name in Self.cineonNames { values.append(try number(element, name)) }
            for channel in try channels(element) { given[channel] = values }
        }
        if !skipped.isEmpty {
            notes.append("line \(node.line): \(skipped.sorted().joined(separator: ", ")) skipped, as OpenColorIO skips them: "
                + "a file stating \(statedVersion) gives a \(style.rawValue) Log the Cineon parameters alone")
        }
        var parameters: [LogOp.Parameters] = []
        for (channel, values) in given.enumerated() {
            guard let values else {
                throw missing(node, "the Cineon LogParams for \(["red", "green", "blue"][channel])",
                              hint: "they give \(Self.cineonNames.joined(separator: ", ")) for each channel")
            }
            do throws(TransformError) {
                parameters.append(try LogOp.Parameters(cineonGamma: values[0], refWhite: values[1], refBlack: values[2],
                                                       highlight: values[3], shadow: values[4]))
            } catch {
                throw fail(node, error.description)
            }
        }
        return parameters
    }

    /// The exponent styles a file before CLF 3 (CTF 2.0) may use.
    private static let earlyExponentStyles: [ExponentOp.Style] = [.basicFwd, .basicRev, .monCurveFwd, .monCurveRev]

    /// An Exponent, or a Gamma (OpenColorIO's CTF name for it), read as OpenColorIO reads them:
    /// its parameters are the children called `params` (`ExponentParams` or `GammaParams`; the
    /// other kind is skipped), each with `exponent` or `gamma` (the last written wins). Without
    /// any, every channel has exponent 1 and offset 0. A file that states `compCLFversion` up
    /// to 2.0 has neither element; one that states a pre-SMPTE `version` below 2.0 has the
    /// basic and monCurve styles alone, and from 1.5 may give the alpha channel parameters,
    /// which are ignored.
    private mutating func exponent(_ node: XMLElementTree, params: String) throws(LUTFileError) -> ExponentOp {
        if readsAsCLF, ctfVersion < (2, 0, 0) {
            throw fail(node, "a file stating \(statedVersion) has no <\(node.name)> (it came with CLF 3): state compCLFversion=\"3.0\"")
        }
        let name = try style(node)
        guard let style = ExponentOp.Style(clfName: name) else {
            throw fail(node, "style \"\(name)\" is not one of \(ExponentOp.Style.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if ctfVersion < (2, 0, 0), !Self.earlyExponentStyles.contains(style) {
            throw fail(node, "style \(name) came with version 2.0; a file stating \(statedVersion) has "
                + "\(Self.earlyExponentStyles.map(\.rawValue).joined(separator: ", ")): state "
                + (legacyVersion == nil ? "compCLFversion=\"3.0\"" : "version=\"2.0\""))
        }
        let elements = parameters(node, params)
        if elements.isEmpty {
            notes.append("line \(node.line): the <\(node.name)> has no <\(params)>: read with exponent 1 and offset 0, "
                + "as OpenColorIO reads it")
        }
        let alpha = !readsAsCLF && ctfVersion >= (1, 5, 0)
        var exponent = SIMD3<Double>.one, offset = SIMD3<Double>.zero
        for element in elements {
            guard let (attribute, text) = element.lastAttribute(among: ["exponent", "gamma"]) else {
                throw missing(element, "attribute exponent (or gamma)")
            }
            let g = try number(element, attribute, text: text)
            if !style.isMonCurve, element.attribute("offset") != nil {
                throw fail(element, "offset is for the monCurve styles; remove it from a \(name) \(node.name)")
            }
            let o = style.isMonCurve ? try number(element, "offset") : 0
            for channel in try channels(element, alpha: alpha) {
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

    /// An ASC_CDL, refused as OpenColorIO refuses it in a file stating a pre-SMPTE version (or a
    /// .ctf stating none) before 1.3.
    private func cdl(_ node: XMLElementTree) throws(LUTFileError) -> CDLOp {
        if !readsAsCLF, ctfVersion < (1, 3, 0) {
            throw fail(node, "a file stating \(statedVersion) has no <\(node.name)> (it came with version 1.3): state version=\"1.3\"")
        }
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
        guard let first = firstIndex(where: { !$0.isXMLSpace }), let last = lastIndex(where: { !$0.isXMLSpace }) else { return "" }
        return String(self[first...last])
    }
}

extension Character {
    /// XML's white space: a space, a tab or a line break. A Windows line break ("\r\n") is one
    /// Character in Swift, equal to neither "\r" nor "\n", so it is named here too.
    var isXMLSpace: Bool { self == " " || self == "\n" || self == "\t" || self == "\r" || self == "\r\n" }

    /// What separates the numbers of an array: XML's white space or a comma.
    var separatesNumbers: Bool { isXMLSpace || self == "," }
}
