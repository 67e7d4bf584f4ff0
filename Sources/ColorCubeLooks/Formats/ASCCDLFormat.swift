import ColorCubeCore
import ColorCubeTransform

/// ASC CDL files: a single `ColorCorrection` (.cc), a `ColorCorrectionCollection` (.ccc) or a
/// `ColorDecisionList` (.cdl). One type serves the three; each is its own line in `LUTFormats.all`.
///
/// A correction is slope, offset, power and saturation (see `ASCCDLReader`), read as a `CDLOp`
/// in the no-clamp forward style, as OpenColorIO reads these files (values outside 0...1 pass
/// through). A collection or list gives its first correction unless `LUTReadOptions.correctionID`
/// names one by its `id` or, when no id matches, by its 0-based position (as OpenColorIO's cccid
/// does; OpenColorIO 2.1 refuses a collection of several without one, colorcube takes the first
/// and says so); the look's notes say which was taken when there was a choice.
/// Refused: negative slopes or saturations, powers not above 0 (OpenColorIO refuses them too),
/// an id that no correction has, a document without corrections.
///
/// Written from a look that is one CDL in the no-clamp forward style (what these files hold),
/// as one correction: a .cc is the `ColorCorrection`, a .ccc a collection of it, a .cdl a list
/// with one `ColorDecision` holding it. A chain of CDLs is refused rather than written as a
/// collection, since a collection offers corrections to choose from, not a chain to apply.
public struct ASCCDLFormat: LUTFileFormat {
    /// The three documents.
    public enum Kind: String, Sendable {
        case cc, ccc, cdl

        var rootElement: String {
            switch self {
            case .cc: "ColorCorrection"
            case .ccc: "ColorCorrectionCollection"
            case .cdl: "ColorDecisionList"
            }
        }
    }

    public let kind: Kind

    public init(_ kind: Kind) {
        self.kind = kind
    }

    public var name: String { kind.rawValue }
    public var displayName: String {
        switch kind {
        case .cc: "ASC CDL ColorCorrection (.cc)"
        case .ccc: "ASC CDL ColorCorrectionCollection (.ccc)"
        case .cdl: "ASC CDL ColorDecisionList (.cdl)"
        }
    }
    public var noun: String { "an ASC CDL .\(kind.rawValue)" }
    public var extensions: [String] { [kind.rawValue] }
    /// A grade, not a cube: no cube size can be written.
    public var sizeDescription: String { "one grade (slope, offset, power, saturation)" }
    public var largestSize: Int? { nil }
    public func canHold(size: Int) -> Bool { false }
    public var writesLooksWithoutCube: Bool { true }

    /// XML whose root element is this kind's (`<ColorCorrection ` or `<ColorCorrection>` for a
    /// .cc, which a collection's head also contains, so the collection and list are tried first).
    public func sniff(_ head: [UInt8]) -> Bool {
        let text = String(decoding: head, as: UTF8.self)
        guard let start = text.range(of: "<" + kind.rootElement) else { return false }
        let next = text[start.upperBound...].first
        guard let next, next == ">" || next.isXMLSpace else { return false }
        if kind == .cc {
            return !text.contains("<ColorCorrectionCollection") && !text.contains("<ColorDecisionList")
        }
        return true
    }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        let root = try XMLElementTree.parse(try BinaryFile.readAll(path: path), path: path)
        let corrections = try ASCCDLReader.corrections(in: root, path: path)
        guard let first = corrections.first else {
            throw LUTFileError.malformed(path: path, line: root.line, reason: "<\(root.name)>: it holds no ColorCorrection")
        }
        var chosen = first
        var note: String?
        if let wanted = options.correctionID, kind != .cc {
            // As in OpenColorIO, an id no correction has may be a 0-based position.
            let byPosition = Int(wanted).flatMap { corrections.indices.contains($0) ? corrections[$0] : nil }
            guard let match = corrections.first(where: { $0.attribute("id") == wanted }) ?? byPosition else {
                let ids = corrections.compactMap { $0.attribute("id") }
                throw LUTFileError.unsupported(path: path, reason: "no ColorCorrection has the id \"\(wanted)\"; "
                    + (ids.isEmpty ? "its corrections have no ids" : "the ids are " + LUTFormats.list(ids.map { "\"\($0)\"" }, joinedBy: "and"))
                    + ", or give a position from 0 to \(corrections.count - 1)")
            }
            chosen = match
        } else if corrections.count > 1 {
            note = "took the first of \(corrections.count) corrections" + (first.attribute("id").map { " (id \"\($0)\")" } ?? "")
                + "; choose another by its id"
        }
        let operation = try ASCCDLReader.correction(chosen, style: .fwdNoClamp, id: chosen.attribute("id"), path: path)
        let title = chosen.child("Description")?.text.trimmingWhitespace() ?? chosen.attribute("id")
        var look = Look(transform: Transform([operation]), format: self, title: title)
        if let note { look.notes.append(note) }
        return look
    }

    /// True for every look: an ASC CDL holds no cube, so nothing is baked; `writeChain` writes a
    /// look that is one CDL and refuses any other, saying what the look holds.
    public func holdsExactly(_ transform: Transform) -> Bool { true }

    /// Writes a look that is one `CDLOp` in the `fwdNoClamp` style as this kind's document; its
    /// `id` is the CDL's own (`CDLOp.id`, the correction read, not the file's name), else `title`,
    /// else `look`; its `Description` is `title` when not empty. Numbers are
    /// written in the shortest form that reads back as the same Double (`shortestText`).
    /// - Throws: `LUTFileError.unsupported` naming what the look holds when it is anything else
    ///   (a CDL that clamps, which these files cannot say; a chain; a LUT); `FileError` when the
    ///   file cannot be written.
    public func writeChain(_ transform: Transform, to path: String, displayPath: String, title: String) throws {
        guard transform.operations.count == 1, let cdl = transform.operations.first as? CDLOp, cdl.style == .fwdNoClamp else {
            let holds = transform.operations.isEmpty ? "nothing (the identity)"
                : transform.operations.map(\.description).joined(separator: ", then ")
            throw LUTFileError.unsupported(path: displayPath, reason: "\(noun) holds one CDL without clamps (slope, offset, power, "
                + "saturation); this look is \(holds); write a .clf, .cube or another format that holds it")
        }
        let id = CLFWriter.escape(cdl.id ?? (title.isEmpty ? "look" : title))
        func triple(_ v: SIMD3<Double>) -> String { "\(v.x.shortestText) \(v.y.shortestText) \(v.z.shortestText)" }
        var document = "<ColorCorrection id=\"\(id)\">\n"
            + (title.isEmpty ? "" : "    <Description>\(CLFWriter.escape(title))</Description>\n")
            + "    <SOPNode>\n"
            + "        <Slope>\(triple(cdl.slope))</Slope>\n"
            + "        <Offset>\(triple(cdl.offset))</Offset>\n"
            + "        <Power>\(triple(cdl.power))</Power>\n"
            + "    </SOPNode>\n"
            + "    <SatNode>\n        <Saturation>\(cdl.saturation.shortestText)</Saturation>\n    </SatNode>\n"
            + "</ColorCorrection>\n"
        let indented = { (text: String, depth: Int) in
            text.split(separator: "\n").map { String(repeating: "    ", count: depth) + $0 }.joined(separator: "\n") + "\n"
        }
        switch kind {
        case .cc:
            break
        case .ccc:
            document = "<ColorCorrectionCollection xmlns=\"urn:ASC:CDL:v1.01\">\n" + indented(document, 1) + "</ColorCorrectionCollection>\n"
        case .cdl:
            document = "<ColorDecisionList xmlns=\"urn:ASC:CDL:v1.01\">\n    <ColorDecision>\n" + indented(document, 2)
                + "    </ColorDecision>\n</ColorDecisionList>\n"
        }
        let writer = TextLineWriter(file: try OutputFile(path: path, displayPath: displayPath))
        try writer.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + document)
        try writer.close()
    }

    /// A plain cube cannot be an ASC CDL.
    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        throw LUTFileError.unsupported(path: displayPath, reason: "\(noun) holds slope, offset, power and saturation, "
            + "not a cube; write a .cube, .clf or another LUT format")
    }
}
