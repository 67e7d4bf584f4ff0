import ColorCubeImaging

/// Carries metadata across formats where both can hold it. EXIF is the one piece photographers
/// need whichever way they convert: a JPEG's APP1 "Exif\0\0" payload is the same TIFF structure a
/// PNG eXIf chunk holds. Everything else stays with its own format.
enum MetadataBridge {
    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]

    static func adapt(_ metadata: inout ImageMetadata, from source: ImageFormat, to destination: ImageFormat) {
        guard source != destination else { return }
        switch (source, destination) {
        case (.jpeg, .png):
            let exif = metadata.jpegMarkers.first { $0.code == 0xE1 && $0.data.starts(with: exifHeader) }
            metadata.jpegMarkers = []
            metadata.pngChunks = exif.map { [PNGChunk(name: "eXIf", location: 0x02, data: Array($0.data.dropFirst(6)))] } ?? []
        case (.png, .jpeg):
            let exif = metadata.pngChunks.first { $0.name == "eXIf" }
            metadata.pngChunks = []
            metadata.jpegMarkers = exif.map { [JPEGMarker(code: 0xE1, data: exifHeader + $0.data)] } ?? []
        default:
            break
        }
    }
}
