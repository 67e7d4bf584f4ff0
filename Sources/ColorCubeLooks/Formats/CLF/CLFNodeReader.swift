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
    var legacyVersion: (Int, Int, Int)?
    /// Whether OpenColorIO reads the file as a CLF rather than as its own CTF: when it states a
    /// `compCLFversion` other than 0 (or the SMPTE name). This decides the operators it takes.
    var readsAsCLF = true
    /// The CTF version OpenColorIO reads the file as: a pre-SMPTE `version` itself, CTF 1.7 for
    /// a `compCLFversion` up to 2.0, CTF 2.0 for a later one.
    var ctfVersion = (2, 0, 0)
    /// The version attribute as written, e.g. `compCLFversion="2.0"`, for messages.
    var statedVersion = ""

    init(path: String, isCTF: Bool = false) {
        self.path = path
        self.isCTF = isCTF
    }

    /// The most operations a ProcessList may hold: each costs a pass over every pixel (or lattice
    /// node), and a file of thousands of trivial nodes is an attack, not a look.
    static let maxOperations = 1000

    /// What a ProcessList needs at least one of, for the message when it holds none.
    private static let operationNames = "LUT1D, LUT3D, Matrix, Range, Log, Exponent (or Gamma) and ASC_CDL"

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
        let pairs = try inversePairs(nodes.map { ($0.node, $0.element.name) })
        for (index, (node, element)) in nodes.enumerated() {
            let (inDepth, outDepth) = try depths(node)
            if let replacement = pairs[index] {
                operations.append(contentsOf: replacement)
                continue
            }
            operations.append(contentsOf: try element.operations(of: node, in: inDepth, out: outDepth, with: &self))
        }
        return Transform(operations)
    }

    /// The ProcessList's operations, each with the reader of its kind (`CLFElements`). Metadata
    /// is read by its own reader and makes no operation; a CTF operator is checked by
    /// `checkCTFOperator(_:at:)` first. The one rule for every other element: it is skipped, as
    /// OpenColorIO skips it (vendor extensions), and a note names it.
    private mutating func operationNodes(_ root: XMLElementTree) throws(LUTFileError) -> [(node: XMLElementTree, element: any CLFElement)] {
        var nodes: [(node: XMLElementTree, element: any CLFElement)] = []
        var skipped: [String] = []
        for child in root.children {
            guard let element = CLFElements.named(child.name) else {
                if !skipped.contains(child.name) { skipped.append(child.name) }
                continue
            }
            if let ctfOperator = element.ctfOperator {
                try checkCTFOperator(ctfOperator, at: child)
            }
            if element.isMetadata {
                try element.readMetadata(child, with: &self)
            } else {
                nodes.append((child, element))
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

    // MARK: Errors and bit depths

    /// The file is malformed at `element` for `reason`.
    func fail(_ element: XMLElementTree, _ reason: String) -> LUTFileError {
        .malformed(path: path, line: element.line, reason: "<\(element.name)>: \(reason)")
    }

    /// `part` ("attribute id", "<Array>") of `element` is missing; `hint` says what it holds.
    func missing(_ element: XMLElementTree, _ part: String, hint: String? = nil) -> LUTFileError {
        .malformed(path: path, line: element.line, defect: .missing(part: part, container: "<\(element.name)>", hint: hint))
    }

    /// The node's `inBitDepth` and `outBitDepth`; the first must be the previous node's second.
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
}
