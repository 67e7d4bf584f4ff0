import ColorCubeCore

/// Metadata of a ProcessList (`Description`, `InputDescriptor`, `OutputDescriptor`, `Info`):
/// no operation. The title and descriptors are taken by `CLFNodeReader.transform(of:)`, the
/// `Info` version checked by `checkInfoVersion(_:)`.
struct MetadataElement: CLFElement {
    let name: String
    var isMetadata: Bool { true }
}
