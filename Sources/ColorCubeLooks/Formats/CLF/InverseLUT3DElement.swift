import ColorCubeCore
import ColorCubeTransform

/// OpenColorIO's `InverseLUT3D` (CTF 1.6): a LUT3D's content applied backwards (see
/// `CLFNodeReader.inverseLUT3D(_:_:)`); next to the table it undoes, `inversePairs` reads the pair.
struct InverseLUT3DElement: CLFElement {
    var name: String { "InverseLUT3D" }
    var ctfOperator: CTFOperator? { CTFOperator(since: (1, 6, 0), inCLF: false) }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.inverseLUT3D(node, inDepth)]
    }
}
