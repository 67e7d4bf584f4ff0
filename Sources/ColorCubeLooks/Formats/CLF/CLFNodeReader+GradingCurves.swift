import ColorCubeCore
import ColorCubeTransform

/// OpenColorIO's grading curve operators read from a .ctf as OpenColorIO 2.6 reads them:
/// `<GradingRGBCurve>` and `<GradingHueCurve>`.
///
/// `<GradingRGBCurve style="..." [bypassLinToLog="true"]>` (CTF 2.0 and later, never in a file
/// read as CLF) holds up to four curve elements, `<Red>`, `<Green>`, `<Blue>` and `<Master>`
/// (any case, any order), each with `<ControlPoints>` (x y pairs) and optional `<Slopes>` (one
/// per point). A curve the file leaves out is the style's identity. Children are read in
/// document order, so a `<Slopes>` counts against the points read before it, and a curve
/// element given twice edits the same curve. `<DynamicParameter param="RGB_CURVE"/>` marks the
/// curves dynamic: the file's values are applied. Other elements are skipped, as OpenColorIO
/// skips them. The versions and CLF files are checked with the operator's `CTFOperator` rules. Values are read as
/// Float32, as OpenColorIO reads them; one that is not a finite number is refused.
extension CLFNodeReader {
    /// The RGB curve elements by lower-case name, with their index in `GradingRGBCurveOp.Curves.named`.
    private static let rgbCurveElements = ["red": 0, "green": 1, "blue": 2, "master": 3]

    /// A `<GradingRGBCurve>`, refused where OpenColorIO refuses it (see the extension's notes).
    func gradingRGBCurve(_ node: XMLElementTree) throws(LUTFileError) -> any TransformOp {
        let (style, isReverse) = try gradingStyle(node)
        var bypassLinToLog = false
        if let text = node.attribute("bypassLinToLog") {
            guard text.lowercased() == "true" else {
                throw fail(node, "bypassLinToLog \"\(text.excerpt)\" is not \"true\"; OpenColorIO takes only that value, "
                    + "so remove the attribute to keep the lin-to-log wrapping")
            }
            bypassLinToLog = true
        }
        var curves = GradingRGBCurveOp.Curves(style: style)
        var dynamic = false
        for child in node.children {
            let key = child.name.lowercased()
            if let index = Self.rgbCurveElements[key] {
                switch index {
                case 0: curves.red = try gradingCurve(child, editing: curves.red)
                case 1: curves.green = try gradingCurve(child, editing: curves.green)
                case 2: curves.blue = try gradingCurve(child, editing: curves.blue)
                default: curves.master = try gradingCurve(child, editing: curves.master)
                }
            } else if key == "dynamicparameter" {
                dynamic = try isDynamic(child, in: node) || dynamic
            }
        }
        do throws(TransformError) {
            return try GradingRGBCurveOp(style: style, curves: curves, isReverse: isReverse, bypassLinToLog: bypassLinToLog,
                                         isDynamic: dynamic)
        } catch {
            throw fail(node, "\(error.description); OpenColorIO refuses it too")
        }
    }

    /// A `<GradingHueCurve style="..." [hsyTransform="none"]>` (CTF 2.5 and later, never in a
    /// file read as CLF): up to eight curve elements named as `GradingHueCurveOp.Curve` (any
    /// case, any order), read as the RGB curves' are; `hsyTransform="none"` takes the values as
    /// HSY already, and `<DynamicParameter param="HUE_CURVE"/>` marks the curves dynamic.
    func gradingHueCurve(_ node: XMLElementTree) throws(LUTFileError) -> any TransformOp {
        let (style, isReverse) = try gradingStyle(node)
        var skipsHSY = false
        if let text = node.attribute("hsyTransform") {
            guard text.lowercased() == "none" else {
                throw fail(node, "hsyTransform \"\(text.excerpt)\" is not \"none\"; OpenColorIO takes only that value, "
                    + "so remove the attribute to convert to HSY")
            }
            skipsHSY = true
        }
        var curves = GradingHueCurveOp.Curves(style: style)
        var dynamic = false
        for child in node.children {
            let key = child.name.lowercased()
            if let name = GradingHueCurveOp.Curve.allCases.first(where: { $0.rawValue.lowercased() == key }) {
                curves[name] = try gradingCurve(child, editing: curves[name])
            } else if key == "dynamicparameter" {
                dynamic = try isDynamic(child, in: node) || dynamic
            }
        }
        do throws(TransformError) {
            return try GradingHueCurveOp(style: style, curves: curves, isReverse: isReverse, skipsHSY: skipsHSY, isDynamic: dynamic)
        } catch {
            throw fail(node, "\(error.description); OpenColorIO refuses it too")
        }
    }

    /// `curve` edited by the `<ControlPoints>` and `<Slopes>` of `element`, in document order.
    func gradingCurve(_ element: XMLElementTree, editing curve: GradingCurve) throws(LUTFileError) -> GradingCurve {
        var curve = curve
        for child in element.children {
            switch child.name.lowercased() {
            case "controlpoints":
                let values = try gradingNumbers(child)
                guard values.count.isMultiple(of: 2) else {
                    throw fail(child, "it holds \(values.count) values, an odd number; write an x y pair for each control point")
                }
                let count = values.count / 2
                curve.points = (0..<count).map { GradingCurve.Point(values[2 * $0], values[2 * $0 + 1]) }
                // OpenColorIO resizes the slopes with the points, keeping the first ones.
                curve.slopes = Array(curve.slopes.prefix(count)) + Array(repeating: 0, count: max(0, count - curve.slopes.count))
            case "slopes":
                let values = try gradingNumbers(child)
                guard values.count == curve.points.count else {
                    throw fail(child, "it holds \(values.count) slopes for \(curve.points.count) control points; "
                        + "give one slope per point, after the <ControlPoints>")
                }
                curve.slopes = values
            default:
                break
            }
        }
        return curve
    }

    /// The whitespace-separated numbers of `element`'s text, as Float32 values (OpenColorIO's
    /// precision for curves). A value that is not a finite number is refused.
    private func gradingNumbers(_ element: XMLElementTree) throws(LUTFileError) -> [Float] {
        var values: [Float] = []
        for token in element.text.split(whereSeparator: \.separatesNumbers) {
            guard let value = Double(token), value.isFinite, Float(value).isFinite else {
                throw fail(element, "value \(values.count + 1), \"\(String(token.prefix(40)))\", is not a finite number")
            }
            values.append(Float(value))
        }
        return values
    }
}
