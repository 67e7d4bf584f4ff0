import ColorCubeCore
import ColorCubeTransform

/// A `Range`: a map from one interval to another, clamping unless `noClamp`, or a one-sided clamp.
struct RangeElement: CLFElement {
    var name: String { "Range" }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.range(node, inDepth, outDepth)]
    }
}

extension CLFNodeReader {
    fileprivate func range(_ node: XMLElementTree, _ inDepth: CLFBitDepth, _ outDepth: CLFBitDepth) throws(LUTFileError) -> RangeOp {
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
}
