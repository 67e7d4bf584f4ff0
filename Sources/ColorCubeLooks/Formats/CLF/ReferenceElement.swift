import ColorCubeCore
import ColorCubeTransform

/// OpenColorIO's `Reference`, in every version and in a CLF too: the look of another file
/// (see `CLFNodeReader.reference(_:)` and `CTFReference`).
struct ReferenceElement: CLFElement {
    var name: String { "Reference" }
    var ctfOperator: CTFOperator? { CTFOperator(since: (0, 0, 0), inCLF: true) }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        try reader.reference(node)
    }
}
