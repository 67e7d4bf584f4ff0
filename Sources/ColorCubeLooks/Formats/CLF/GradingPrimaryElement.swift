import ColorCubeCore
import ColorCubeTransform

/// OpenColorIO's `GradingPrimary` (CTF 2.0): see `CLFNodeReader.gradingPrimary(_:)`.
struct GradingPrimaryElement: CLFElement {
    var name: String { "GradingPrimary" }
    var ctfOperator: CTFOperator? { CTFOperator(since: (2, 0, 0), inCLF: false) }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.gradingPrimary(node)]
    }
}
