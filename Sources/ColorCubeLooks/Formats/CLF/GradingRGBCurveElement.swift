import ColorCubeCore
import ColorCubeTransform

/// OpenColorIO's `GradingRGBCurve` (CTF 2.0): see `CLFNodeReader.gradingRGBCurve(_:)`.
struct GradingRGBCurveElement: CLFElement {
    var name: String { "GradingRGBCurve" }
    var ctfOperator: CTFOperator? { CTFOperator(since: (2, 0, 0), inCLF: false) }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.gradingRGBCurve(node)]
    }
}
