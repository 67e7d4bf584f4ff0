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
    /// Read only: a grade, not a cube, so no cube size can be written.
    public var sizeDescription: String { "none (read only: a grade, not a cube)" }
    public var largestSize: Int? { nil }
    public func canHold(size: Int) -> Bool { false }

    /// XML whose root element is this kind's (`<ColorCorrection ` or `<ColorCorrection>` for a
    /// .cc, which a collection's head also contains, so the collection and list are tried first).
    public func sniff(_ head: [UInt8]) -> Bool {
        let text = String(decoding: head, as: UTF8.self)
        guard let start = text.range(of: "<" + kind.rootElement) else { return false }
        let next = text[start.upperBound...].first
        guard next == " " || next == ">" || next == "\n" || next == "\r" || next == "\t" else { return false }
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
        let operation = try ASCCDLReader.correction(chosen, style: .fwdNoClamp, path: path)
        let title = chosen.child("Description")?.text.trimmingWhitespace() ?? chosen.attribute("id")
        var look = Look(transform: Transform([operation]), format: self, title: title)
        if let note { look.notes.append(note) }
        return look
    }

    /// A plain cube cannot be an ASC CDL.
    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        throw LUTFileError.unsupported(path: displayPath, reason: "\(noun) holds slope, offset, power and saturation, "
            + "not a cube; write a .cube, .clf or another LUT format")
    }
}
