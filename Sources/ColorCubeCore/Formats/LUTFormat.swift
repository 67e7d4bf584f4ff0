/// The LUT file formats colorcube reads and writes.
public enum LUTFormat: String, CaseIterable, Sendable {
    /// Core Image cube data: size^3 RGBA Float32 little-endian entries, red fastest (.bin, .raw).
    case raw
    /// Adobe/Iridas and Resolve text cube (.cube).
    case cube
    /// Lustre/Flame integer cube (.3dl).
    case threeDL = "3dl"
    /// A reference or Hald CLUT image (.png).
    case hald = "png"
    /// An ICC device-link profile (.icc, .icm).
    case icc

    /// The format a file extension names, or nil when it names none.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "bin", "raw": self = .raw
        case "cube": self = .cube
        case "3dl": self = .threeDL
        case "png": self = .hald
        case "icc", "icm": self = .icc
        default: return nil
        }
    }

    /// The format of `path` by its extension, or nil.
    public init?(path: String) {
        self.init(pathExtension: FilePath.pathExtension(path))
    }

    /// The usual extension, without the dot.
    public var defaultExtension: String {
        switch self {
        case .raw: "bin"
        case .cube: "cube"
        case .threeDL: "3dl"
        case .hald: "png"
        case .icc: "icc"
        }
    }
}
