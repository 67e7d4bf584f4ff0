import ColorCubeCore

/// The image file formats colorcube reads and writes, told apart by content.
public enum ImageFormat: String, Sendable {
    case png
    case jpeg

    /// The format of the file at `path` by its first bytes, or nil when it is neither PNG nor JPEG
    /// (or cannot be read).
    public init?(sniffing path: String) {
        guard let head = BinaryFile.readPrefix(path: path, count: 8) else { return nil }
        self.init(signature: head)
    }

    /// The format whose signature starts `bytes`, or nil.
    public init?(signature bytes: [UInt8]) {
        if bytes.count >= 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
            self = .jpeg
        } else {
            return nil
        }
    }

    /// The format a file extension names (png; jpg, jpeg, jpe), or nil.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg", "jpe": self = .jpeg
        default: return nil
        }
    }
}
