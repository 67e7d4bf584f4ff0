import ColorCubeCore
import ColorCubeTransform

/// An `ASC_CDL`: slope, offset and power (`SOPNode`) and saturation (`SatNode`).
struct CDLElement: CLFElement {
    var name: String { "ASC_CDL" }

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.cdl(node)]
    }
}

extension CLFNodeReader {
    /// An ASC_CDL, refused as OpenColorIO refuses it in a file stating a pre-SMPTE version (or a
    /// .ctf stating none) before 1.3.
    fileprivate func cdl(_ node: XMLElementTree) throws(LUTFileError) -> CDLOp {
        if !readsAsCLF, ctfVersion < (1, 3, 0) {
            throw fail(node, "a file stating \(statedVersion) has no <\(node.name)> (it came with version 1.3): state version=\"1.3\"")
        }
        let name = node.attribute("style") ?? "Fwd"
        guard let style = CDLOp.Style(clfName: name) else {
            throw fail(node, "style \"\(name)\" is not one of Fwd, Rev, FwdNoClamp, RevNoClamp")
        }
        return try ASCCDLReader.correction(node, style: style, path: path)
    }
}
