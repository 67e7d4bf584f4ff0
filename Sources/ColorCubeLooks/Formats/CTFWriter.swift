import ColorCubeCore
import ColorCubeTransform

/// Writes a transform as an OpenColorIO CTF (`version="2"`, or 2.5 when it holds a hue curve,
/// the version that brought it), every node 32f in and out, as OpenColorIO 2.6 reads it back.
///
/// What a CLF holds is written as `CLFWriter` writes it; the operations CLF has no node for
/// become OpenColorIO's CTF operators:
/// - a `FixedFunctionOp` a `FixedFunction` (its style, and its `params` when it has any);
/// - an `ExposureContrastOp` an `ExposureContrast` with its `ECParams` and `DynamicParameter`s;
/// - an `HLGSystemGammaOp` the steps of its formula: a `Matrix` scaling the input, a
///   `FixedFunction` `Rec2100SurroundFwd` with the system gamma (its reciprocal for the inverse,
///   which has the same floor on luminance), and a `Matrix` scaling the output; this is how
///   OpenColorIO writes BT.2100 HLG's system gamma;
/// - the grading operators their own elements (`CTFWriter+Grading`).
/// A curve neither format names (a camera's published transfer function) is sampled as a
/// half-domain `LUT1D`, as in a CLF, and as OpenColorIO writes its built-in curves.
enum CTFWriter {
    /// - Throws: `LUTFileError.cannotHold` for an operation a CTF cannot hold, `FileError` when
    ///   the file cannot be written.
    static func write(_ transform: Transform, to path: String, displayPath: String, title: String) throws {
        let version = transform.operations.contains { $0 is GradingHueCurveOp } ? "2.5" : "2"
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<ProcessList version=\"\(version)\" id=\"\(CLFWriter.escape(title))\" name=\"\(CLFWriter.escape(title))\">\n"
        text += "    <Description>\(CLFWriter.escape(title))</Description>\n"
        for (index, operation) in transform.operations.enumerated() {
            text += try node(operation, id: "op\(index + 1)", path: displayPath)
        }
        if transform.operations.isEmpty {
            // A ProcessList needs one node: the identity as a matrix.
            text += CLFWriter.scaleNode(.one, id: "op1")
        }
        text += "</ProcessList>\n"
        let writer = TextLineWriter(file: try OutputFile(path: path, displayPath: displayPath))
        try writer.append(text)
        try writer.close()
    }

    /// True for the operations a CTF holds and a CLF does not.
    static func holds(_ operation: any TransformOp) -> Bool {
        operation is FixedFunctionOp || operation is ExposureContrastOp || operation is HLGSystemGammaOp
            || operation is GradingPrimaryOp || operation is GradingToneOp || operation is GradingRGBCurveOp
            || operation is GradingHueCurveOp
    }

    private static func node(_ operation: any TransformOp, id: String, path: String) throws -> String {
        switch operation {
        case let function as FixedFunctionOp:
            return fixedFunctionNode(function.style.rawValue, parameters: function.parameters, id: id)
        case let exposure as ExposureContrastOp:
            let p = exposure.parameters
            return CLFWriter.open("ExposureContrast", id: id, extra: " style=\"\(exposure.style.rawValue)\"")
                + "        <ECParams exposure=\"\(p.exposure)\" contrast=\"\(p.contrast)\" gamma=\"\(p.gamma)\" pivot=\"\(p.pivot)\""
                + " logExposureStep=\"\(p.logExposureStep)\" logMidGray=\"\(p.logMidGray)\"/>\n"
                + exposure.dynamic.map { "        <DynamicParameter param=\"\($0)\"/>\n" }.joined()
                + "    </ExposureContrast>\n"
        case let system as HLGSystemGammaOp:
            let scene = HLGSystemGammaOp.sceneScale, display = system.displayScale
            if system.inverted {
                return CLFWriter.scaleNode(SIMD3(repeating: 1 / display), id: id + "-display")
                    + fixedFunctionNode(FixedFunctionOp.Style.rec2100SurroundFwd.rawValue, parameters: [1 / system.gamma], id: id)
                    + CLFWriter.scaleNode(SIMD3(repeating: 1 / scene), id: id + "-scene")
            }
            return CLFWriter.scaleNode(SIMD3(repeating: scene), id: id + "-scene")
                + fixedFunctionNode(FixedFunctionOp.Style.rec2100SurroundFwd.rawValue, parameters: [system.gamma], id: id)
                + CLFWriter.scaleNode(SIMD3(repeating: display), id: id + "-display")
        case let primary as GradingPrimaryOp:
            return gradingPrimaryNode(primary, id: id)
        case let tone as GradingToneOp:
            return gradingToneNode(tone, id: id)
        case let curves as GradingRGBCurveOp:
            return gradingRGBCurveNode(curves, id: id)
        case let curves as GradingHueCurveOp:
            return gradingHueCurveNode(curves, id: id)
        default:
            return try CLFWriter.node(operation, id: id, path: path, format: "a CTF file")
        }
    }

    private static func fixedFunctionNode(_ style: String, parameters: [Double], id: String) -> String {
        let params = parameters.isEmpty ? "" : " params=\"\(parameters.map { "\($0)" }.joined(separator: " "))\""
        return CLFWriter.open("FixedFunction", id: id, extra: " style=\"\(style)\"" + params) + "    </FixedFunction>\n"
    }
}
