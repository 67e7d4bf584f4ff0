import ColorCubeCore
import ColorCubeTransform

/// OpenColorIO's `GradingHueCurve` (CTF 2.5): see `CLFNodeReader.gradingHueCurve(_:)`.
struct GradingHueCurveElement: CLFElement {
    var name: String { "GradingHueCurve" }
    var ctfOperator: CTFOperator? { CTFOperator(since: (2, 5, 0), inCLF: false) }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.gradingHueCurve(node)]
    }
}
