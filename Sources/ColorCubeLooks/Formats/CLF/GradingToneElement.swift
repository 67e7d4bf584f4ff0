import ColorCubeCore
import ColorCubeTransform

/// OpenColorIO's `GradingTone` (CTF 2.0): see `CLFNodeReader.gradingTone(_:)`.
struct GradingToneElement: CLFElement {
    var name: String { "GradingTone" }
    var ctfOperator: CTFOperator? { CTFOperator(since: (2, 0, 0), inCLF: false) }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.gradingTone(node)]
    }
}
