import ColorCubeCore
import ColorCubeTransform

/// OpenColorIO's `InverseLUT1D` (CTF 1.3): a LUT1D's content applied backwards (see
/// `CLFNodeReader.inverseLUT1D(_:_:)`); next to the table it undoes, `inversePairs` reads the pair.
struct InverseLUT1DElement: CLFElement {
    var name: String { "InverseLUT1D" }
    var ctfOperator: CTFOperator? { CTFOperator(since: (1, 3, 0), inCLF: false) }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.inverseLUT1D(node, inDepth)]
    }
}
