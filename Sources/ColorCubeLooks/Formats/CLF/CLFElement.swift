import ColorCubeCore
import ColorCubeTransform

/// The reader of one kind of ProcessList child: every element CLF and OpenColorIO's CTF define
/// is one conforming type, registered by name in `CLFElements.all`, which is the one list of
/// what a ProcessList may hold. The reader it is handed (`CLFNodeReader`) knows the version the
/// file states, parses numbers and arrays, and collects the notes.
protocol CLFElement: Sendable {
    /// The element's name as the formats spell it; files may write it in any case, as
    /// OpenColorIO reads them.
    var name: String { get }
    /// For an OpenColorIO CTF operator beyond CLF's own, the versions and files that have it
    /// (checked before the element is read); nil for CLF's elements and metadata.
    var ctfOperator: CTFOperator? { get }
    /// True for metadata, which makes no operation and has no bit depths.
    var isMetadata: Bool { get }
    /// Reads the metadata `node`, adding what the user should know to `reader.notes`.
    func readMetadata(_ node: XMLElementTree, with reader: inout CLFNodeReader) throws(LUTFileError)
    /// The operations `node` makes, its values written in `inDepth` and `outDepth`.
    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp]
}

extension CLFElement {
    var ctfOperator: CTFOperator? { nil }
    var isMetadata: Bool { false }
    func readMetadata(_ node: XMLElementTree, with reader: inout CLFNodeReader) throws(LUTFileError) {}
    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] { [] }
}
