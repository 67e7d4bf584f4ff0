/// A planar YCbCr frame as FFmpeg's rawvideo encoder lays it out (`yuv420p`, `yuv422p10le`,
/// `yuv444p16le`, ...): the Y plane, then Cb, then Cr, each row after row with no padding; one
/// byte a sample at 8 bits, two little-endian bytes deeper. Chroma planes are
/// `ceil(width / 2^chromaShiftX)` by `ceil(height / 2^chromaShiftY)` samples.
///
/// The formats colorcube grades video in when a clip's own pixel format is one of them (or its
/// big-endian twin): frames then cross the pipes as the decoder made them, and the conversion
/// to RGB and back is `YCbCrFrameGrader`'s, which keeps colours outside the RGB cube.
public struct YCbCrFrameFormat: Sendable, Equatable {
    /// FFmpeg's name of the format, little-endian when deeper than 8 bits.
    public let name: String
    /// log2 of the horizontal and vertical chroma subsampling: 1, 1 for 4:2:0; 1, 0 for 4:2:2.
    public let chromaShiftX: Int
    public let chromaShiftY: Int
    /// Bits per sample, 8 to 16.
    public let bitDepth: Int

    /// The format for a clip in `source`, or nil when it is not planar YCbCr with 4:2:0, 4:2:2 or
    /// 4:4:4 chroma (formats with alpha, packed and semi-planar formats go through FFmpeg's
    /// scaler to RGB instead). The deprecated full-range names (yuvj420p ...) have the layout of
    /// their plain twins and are named so: the range travels separately.
    public init?(source: VideoPixelFormat) {
        var rest = Substring(source.name)
        if rest.hasPrefix("yuvj") {
            rest = rest.dropFirst(4)
            guard ["420p", "422p", "444p"].contains(rest) else { return nil }
        } else {
            guard rest.hasPrefix("yuv") else { return nil }
            rest = rest.dropFirst(3)
        }
        let shifts: (Int, Int)
        switch rest.prefix(4) {
        case "420p": shifts = (1, 1)
        case "422p": shifts = (1, 0)
        case "444p": shifts = (0, 0)
        default: return nil
        }
        rest = rest.dropFirst(4)
        if rest.isEmpty {
            bitDepth = 8
        } else {
            guard rest.hasSuffix("le") || rest.hasSuffix("be"), let depth = Int(rest.dropLast(2)),
                  (9...16).contains(depth) else { return nil }
            bitDepth = depth
        }
        name = "yuv" + source.name.dropFirst(source.impliesFullRange ? 4 : 3).prefix(4) + (bitDepth > 8 ? "\(bitDepth)le" : "")
        (chromaShiftX, chromaShiftY) = shifts
    }

    /// Bytes a sample takes: 1 at 8 bits, else 2.
    public var bytesPerSample: Int { bitDepth > 8 ? 2 : 1 }

    /// Chroma samples per row for frames `width` pixels wide.
    public func chromaWidth(_ width: Int) -> Int { (width + (1 << chromaShiftX) - 1) >> chromaShiftX }

    /// Chroma rows for frames `height` pixels high.
    public func chromaHeight(_ height: Int) -> Int { (height + (1 << chromaShiftY) - 1) >> chromaShiftY }

    /// Bytes in one frame.
    public func frameBytes(width: Int, height: Int) -> Int {
        (width * height + 2 * chromaWidth(width) * chromaHeight(height)) * bytesPerSample
    }
}
