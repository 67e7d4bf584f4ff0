import ColorCubeCore
import ColorCubeTransform

/// An `Exponent`, or a `Gamma` (OpenColorIO's CTF name for it), whose parameters are the
/// children called `ExponentParams` or `GammaParams` after the element's name.
struct ExponentElement: CLFElement {
    let name: String

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.exponent(node, params: name + "Params")]
    }
}

extension CLFNodeReader {
    /// The exponent styles a file before CLF 3 (CTF 2.0) may use.
    private static let earlyExponentStyles: [ExponentOp.Style] = [.basicFwd, .basicRev, .monCurveFwd, .monCurveRev]

    /// An Exponent, or a Gamma (OpenColorIO's CTF name for it), read as OpenColorIO reads them:
    /// its parameters are the children called `params` (`ExponentParams` or `GammaParams`; the
    /// other kind is skipped), each with `exponent` or `gamma` (the last written wins). Without
    /// any, every channel has exponent 1 and offset 0. A file that states `compCLFversion` up
    /// to 2.0 has neither element; one that states a pre-SMPTE `version` below 2.0 has the
    /// basic and monCurve styles alone, and from 1.5 may give the alpha channel parameters,
    /// which are ignored.
    fileprivate mutating func exponent(_ node: XMLElementTree, params: String) throws(LUTFileError) -> ExponentOp {
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
}
