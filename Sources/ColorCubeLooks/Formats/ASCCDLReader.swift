import ColorCubeCore
import ColorCubeTransform

/// Reads ASC CDL corrections from XML: the `SOPNode` (`Slope`, `Offset`, `Power`, three numbers
/// each) and `SatNode` (or `SATNode`, `Saturation`) of a `ColorCorrection` or a CLF `ASC_CDL`,
/// and the corrections of a `.cc`, `.ccc` or `.cdl` document.
enum ASCCDLReader {
    /// One correction as a `CDLOp` in `style`, named `id` (`CDLOp.id`); a missing SOP or saturation
    /// part is the identity's.
    /// - Throws: `LUTFileError.malformed` naming the element for a value that is not three finite
    ///   numbers (one for saturation), a negative slope or saturation, or a power not above 0.
    static func correction(_ element: XMLElementTree, style: CDLOp.Style, id: String? = nil, path: String) throws(LUTFileError) -> CDLOp {
        func fail(_ at: XMLElementTree, _ reason: String) -> LUTFileError {
            .malformed(path: path, line: at.line, reason: "<\(at.name)>: \(reason)")
        }
        func triple(_ name: String, in sop: XMLElementTree?, default fallback: SIMD3<Double>) throws(LUTFileError) -> SIMD3<Double> {
            guard let sop else { return fallback }
            guard let node = sop.child(name) else {
                throw .malformed(path: path, line: sop.line, defect: .missing(part: "<\(name)>", container: "<\(sop.name)>", hint: nil))
            }
            let values = try numbers(node, count: 3, path: path)
            return SIMD3(values[0], values[1], values[2])
        }
        let sop = element.child("SOPNode")
        let slope = try triple("Slope", in: sop, default: .one)
        let offset = try triple("Offset", in: sop, default: .zero)
        let power = try triple("Power", in: sop, default: .one)
        var saturation = 1.0
        if let sat = element.child("SatNode") ?? element.child("SATNode") {
            guard let node = sat.child("Saturation") else {
                throw .malformed(path: path, line: sat.line, defect: .missing(part: "<Saturation>", container: "<\(sat.name)>", hint: nil))
            }
            saturation = try numbers(node, count: 1, path: path)[0]
        }
        do throws(TransformError) {
            return try CDLOp(slope: slope, offset: offset, power: power, saturation: saturation, style: style, id: id)
        } catch {
            throw fail(element, error.description)
        }
    }

    /// Exactly `count` finite numbers from `element`'s text.
    static func numbers(_ element: XMLElementTree, count: Int, path: String) throws(LUTFileError) -> [Double] {
        let tokens = element.text.split(whereSeparator: \.isXMLSpace)
        guard tokens.count == count else {
            throw .malformed(path: path, line: element.line,
                             defect: .wrongCount(what: "number\(count == 1 ? "" : "s") in <\(element.name)>", expected: count, found: tokens.count))
        }
        var values: [Double] = []
        for token in tokens {
            guard let value = Double(token), value.isFinite else {
                throw .malformed(path: path, line: element.line,
                                 defect: .notFinite(field: "<\(element.name)>", text: String(token.prefix(40))))
            }
            values.append(value)
        }
        return values
    }

    /// The `ColorCorrection` elements of a document, in order: the root itself for a .cc, its
    /// children for a .ccc, those inside each `ColorDecision` for a .cdl.
    /// - Throws: `LUTFileError.malformed` when the root is none of those, and for a
    ///   `ColorCorrectionRef` (a reference to another file, which is not followed).
    static func corrections(in root: XMLElementTree, path: String) throws(LUTFileError) -> [XMLElementTree] {
        switch root.name {
        case "ColorCorrection":
            return [root]
        case "ColorCorrectionCollection":
            return root.children("ColorCorrection")
        case "ColorDecisionList":
            var found: [XMLElementTree] = []
            for decision in root.children("ColorDecision") {
                if let reference = decision.child("ColorCorrectionRef") {
                    throw .malformed(path: path, line: reference.line, reason: "<ColorCorrectionRef>: references to "
                        + "corrections in other files are not followed; put the ColorCorrection in the list")
                }
                found.append(contentsOf: decision.children("ColorCorrection"))
            }
            return found
        default:
            throw .malformed(path: path, line: root.line, reason: "the root element is <\(root.name)>, not "
                + "<ColorCorrection>, <ColorCorrectionCollection> or <ColorDecisionList>")
        }
    }
}
