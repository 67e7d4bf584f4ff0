import ColorCubeCore
import ColorCubeTransform

/// OpenColorIO's `ExposureContrast`, in every CTF version (not in a file read as a CLF).
struct ExposureContrastElement: CLFElement {
    var name: String { "ExposureContrast" }
    var ctfOperator: CTFOperator? { CTFOperator(since: (0, 0, 0), inCLF: false) }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.exposureContrast(node)]
    }
}

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
}
