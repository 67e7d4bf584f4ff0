/// A video stream's colour description as FFmpeg names it (`ffprobe`'s `color_space`,
/// `color_range`, `color_primaries`, `color_transfer`); nil where the stream is untagged.
public struct VideoColor: Sendable, Equatable {
    /// The YCbCr matrix: bt709, smpte170m, bt470bg, bt2020nc, ...
    public var matrix: String?
    /// tv (limited, 16-235) or pc (full, 0-255).
    public var range: String?
    public var primaries: String?
    public var transfer: String?

    public init(matrix: String? = nil, range: String? = nil, primaries: String? = nil, transfer: String? = nil) {
        self.matrix = matrix
        self.range = range
        self.primaries = primaries
        self.transfer = transfer
    }

    /// The matrix the pixels are converted with: the tagged one, or for an untagged stream what
    /// players assume, BT.709 from 720 lines up and BT.601 below.
    public func effectiveMatrix(height: Int) -> String {
        if let matrix { return matrix }
        return height >= 720 ? "bt709" : "smpte170m"
    }

    /// The range the pixels are converted with: the tagged one, else limited (tv), as every
    /// player assumes for YCbCr video.
    public var effectiveRange: String { range ?? "tv" }

    /// FFmpeg's scaler's name for a matrix (its `in_color_matrix` / `out_color_matrix`), or nil
    /// for a matrix it cannot convert.
    public static func scalerMatrix(_ matrix: String) -> String? {
        switch matrix {
        case "bt709": "bt709"
        case "smpte170m", "bt470bg": "bt601"
        case "bt2020nc", "bt2020c": "bt2020"
        case "fcc": "fcc"
        case "smpte240m": "smpte240m"
        default: nil
        }
    }

    /// True when the transfer is PQ or HLG: the look then sees HDR code values.
    public var isHDR: Bool { hdrSignal != nil }
}
