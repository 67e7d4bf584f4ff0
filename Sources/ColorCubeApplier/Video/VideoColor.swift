/// A video stream's colour description: its YCbCr matrix, range, primaries, transfer and chroma
/// siting, each as the code ITU-T H.273 gives it, which FFmpeg's `AVColorSpace`, `AVColorRange`,
/// `AVColorPrimaries`, `AVColorTransferCharacteristic` and `AVChromaLocation` share. They are
/// mapped once from FFmpeg's integers (`VideoProbe`) and handed back to the encoder as integers;
/// nil where the stream is untagged (unspecified, reserved or an unknown code).
public struct VideoColor: Sendable, Equatable {
    public var matrix: Matrix?
    public var range: Range?
    public var primaries: Primaries?
    public var transfer: Transfer?
    /// Where chroma samples sit against luma (left for MPEG-2 and H.264 4:2:0, top-left for HEVC
    /// HDR and BT.2020 masters).
    public var chromaLocation: ChromaLocation?

    public init(matrix: Matrix? = nil, range: Range? = nil, primaries: Primaries? = nil, transfer: Transfer? = nil,
                chromaLocation: ChromaLocation? = nil) {
        self.matrix = matrix
        self.range = range
        self.primaries = primaries
        self.transfer = transfer
        self.chromaLocation = chromaLocation
    }

    /// The matrix the pixels are converted with: the tagged one, or for an untagged stream what
    /// players assume, BT.709 from 720 lines up and BT.601 (SMPTE 170M) below.
    public func effectiveMatrix(height: Int) -> Matrix {
        if let matrix { return matrix }
        return height >= 720 ? .bt709 : .smpte170m
    }

    /// The range the pixels are converted with: the tagged one, else limited, as every player
    /// assumes for YCbCr video.
    public var effectiveRange: Range { range ?? .limited }

    /// True when the transfer is PQ or HLG: the look then sees HDR code values.
    public var isHDR: Bool { hdrSignal != nil }
}
