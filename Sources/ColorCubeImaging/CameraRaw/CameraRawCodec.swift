extension ImageFormat {
    /// Camera raw files: recognised so that they are never graded as images, and refused.
    public static let cameraRaw = ImageFormat(identifier: "camera-raw")
}

/// Camera raw files in the codec table: recognised, never decoded.
///
/// A raw file holds sensor data that has to be demosaiced, white-balanced and tone-mapped before it
/// is a picture; most are TIFF files underneath whose first image is a small JPEG or RGB preview,
/// which a TIFF reader would grade as if it were the photo. This codec sits before TIFF in the
/// table and claims:
/// - TIFF files with a DNGVersion tag (DNG), a Canon "CR" marker (CR2), or any directory (the
///   chain or SubIFDs) whose photometric interpretation is CFA or LinearRaw (NEF, ARW, PEF, ...);
/// - raw formats with their own signatures: Olympus ORF, Panasonic RW2, Fujifilm RAF, Canon CR3.
public struct CameraRawCodec: ImageCodec {
    public init() {}

    public var format: ImageFormat { .cameraRaw }
    public var displayName: String { "camera raw" }
    public var fileExtensions: [String] { [] }
    public var isReadable: Bool { false }

    public func matches(_ probe: FileProbe) -> Bool {
        kind(of: probe) != nil
    }

    /// Always throws: raw files are developed elsewhere first.
    /// - Throws: `ImageError.cameraRaw` naming the kind of raw file.
    public func read(path: String, options: ImageReadOptions) throws(ImageError) -> RasterImage {
        let kind = (try? FileProbe(path: path)).flatMap { self.kind(of: $0) } ?? "raw"
        throw .cameraRaw(path: path, kind: kind)
    }

    public func write(_ image: RasterImage, to path: String, options: ImageWriteOptions) throws(ImageError) {
        throw .cannotWrite(path: options.displayPath ?? path, reason: "colorcube does not write camera raw files")
    }

    /// The kind of raw file behind `probe` ("DNG", "Canon CR2", ...), or nil for anything else.
    public func kind(of probe: FileProbe) -> String? {
        if probe.headHas(Array("FUJIFILMCCD-RAW".utf8)) { return "Fujifilm RAF" }
        if probe.headHas(Array("ftypcrx ".utf8), at: 4) { return "Canon CR3" }
        if probe.headHas(Array("IIRO".utf8)) || probe.headHas(Array("IIRS".utf8)) || probe.headHas(Array("MMOR".utf8)) {
            return "Olympus ORF"
        }
        if probe.headHas([0x49, 0x49, 0x55, 0x00]) { return "Panasonic RW2" }
        guard let directories = TIFFDirectoryScanner(probe: probe) else { return nil }
        if probe.headHas(Array("CR".utf8), at: 8) { return "Canon CR2" }
        if directories.hasTag(TIFFDirectoryScanner.dngVersionTag) { return "DNG" }
        if directories.hasSensorData { return "TIFF-based raw" }
        return nil
    }
}
