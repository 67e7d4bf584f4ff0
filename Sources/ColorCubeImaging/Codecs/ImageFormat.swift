/// The name of one image file format in the codec table (`ImageCodecs`), e.g. `.png` or `.tiff`.
///
/// A format is an identity, not a switch: what a format can do is asked of its codec
/// (`ImageCodecs.codec(for:)`), so adding a format touches no code that uses formats. Each codec's
/// file declares its format's static constant.
public struct ImageFormat: Hashable, Sendable, CustomStringConvertible {
    /// A short lower-case identifier ("png", "jpeg", "tiff", ...), stable across versions.
    public let identifier: String

    public init(identifier: String) {
        self.identifier = identifier
    }

    public var description: String { identifier }

    /// The format of the file at `path` by its content, or nil when no codec recognises it (or it
    /// cannot be read). Camera raw files are recognised as `.cameraRaw`.
    public init?(sniffing path: String) {
        guard let codec = ImageCodecs.sniff(path: path) else { return nil }
        self = codec.format
    }

    /// The format whose signature starts `bytes`, judged from those bytes alone, or nil.
    public init?(signature bytes: [UInt8]) {
        guard let codec = ImageCodecs.sniff(probe: FileProbe(head: bytes)) else { return nil }
        self = codec.format
    }

    /// The writable format a file extension names ("png"; "jpg", "jpeg", "jpe"; "tif", "tiff";
    /// ...), case-insensitively, or nil.
    public init?(pathExtension: String) {
        guard let codec = ImageCodecs.writer(forExtension: pathExtension) else { return nil }
        self = codec.format
    }
}
