import ColorCubeCore
import ColorCubeTransform

/// The CTF operators colorcube applies, read as OpenColorIO 2.6 reads them: `ExposureContrast`,
/// `FixedFunction` and its deprecated forms `Function` and `ACES`.
extension CLFNodeReader {
    /// An ExposureContrast: its `style`, its last `ECParams` (exposure, contrast and pivot
    /// required; gamma, logExposureStep and logMidGray optional) and its `DynamicParameter`s,
    /// applied with the values the file gives.
    func exposureContrast(_ node: XMLElementTree) throws(LUTFileError) -> ExposureContrastOp {
        guard let name = node.attribute("style") else { throw fail(node, "attribute style is missing") }
        guard let style = ExposureContrastOp.Style(ctfName: name) else {
            throw fail(node, "style \"\(name.excerpt)\" is not one of \(ExposureContrastOp.Style.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var values = ExposureContrastOp.Parameters()
        for element in parameters(node, "ECParams") {
            values.exposure = try number(element, "exposure")
            values.contrast = try number(element, "contrast")
            values.pivot = try number(element, "pivot")
            values.gamma = try number(element, "gamma", default: values.gamma)
            values.logExposureStep = try number(element, "logExposureStep", default: values.logExposureStep)
            values.logMidGray = try number(element, "logMidGray", default: values.logMidGray)
        }
        var dynamic: [String] = []
        for element in parameters(node, "DynamicParameter") {
            guard let param = element.attribute("param") else { continue }
            switch param.uppercased() {
            case "EXPOSURE", "CONTRAST", "GAMMA":
                if !dynamic.contains(param.uppercased()) { dynamic.append(param.uppercased()) }
            case "LOOK_SWITCH":
                break
            default:
                throw fail(element, "dynamic parameter \"\(param.excerpt)\" is not one of EXPOSURE, CONTRAST, GAMMA")
            }
        }
        return ExposureContrastOp(style: style, parameters: values, dynamic: dynamic)
    }

    /// A FixedFunction (`style` and an optional `params` list), a `Function` (style alone) or
    /// an `ACES` (style and, for the surround, an `ACESParams` gamma).
    func fixedFunction(_ node: XMLElementTree, _ kind: String) throws(LUTFileError) -> FixedFunctionOp {
        guard let name = node.attribute("style") else { throw fail(node, "attribute style is missing") }
        guard let style = FixedFunctionOp.Style(ctfName: name) else {
            throw fail(node, "style \"\(name.excerpt)\" is not a fixed function OpenColorIO knows")
        }
        var values: [Double] = []
        if kind == "FixedFunction", let text = node.attribute("params") {
            for token in text.split(whereSeparator: \.separatesNumbers) {
                guard let value = Double(token), value.isFinite else {
                    throw fail(node, "params \"\(text.excerpt)\" is not a list of numbers")
                }
                values.append(value)
            }
        }
        if kind == "ACES" {
            let elements = parameters(node, "ACESParams")
            if let element = elements.first {
                guard style.parameterCount == 1 else {
                    throw fail(element, "the \(style.rawValue) style takes no parameter; remove the <\(element.name)>")
                }
                guard elements.count == 1 else { throw fail(elements[1], "the \(style.rawValue) style takes one gamma") }
                values = [try number(element, "gamma")]
            }
        }
        do throws(TransformError) {
            return try FixedFunctionOp(style: style, parameters: values)
        } catch {
            throw fail(node, error.description)
        }
    }
}
