/// An image handed to `LookLearner`: interleaved RGB or RGBA samples of 8 or 16 bits, rows top to
/// bottom, 16-bit samples in host byte order.
///
/// Code values are read as sRGB (code / 255 or code / 65535): a caller whose pixels carry another
/// colour profile converts them first. Alpha, when present, only marks pixels to leave out: a
/// pixel with alpha 0 in either image of a pair says nothing about its colour.
public struct PixelBuffer: Sendable {
    /// The samples at one of the two bit depths.
    public enum Samples: Sendable {
        case eight([UInt8])
        case sixteen([UInt16])
    }

    public let width: Int
    public let height: Int
    /// 3 (RGB) or 4 (RGBA).
    public let channels: Int
    public let samples: Samples

    /// Wraps samples without copying them.
    /// - Throws: `LearnError.badBuffer` when `channels` is not 3 or 4, a dimension is not positive,
    ///   or the sample count is not width * height * channels.
    public init(width: Int, height: Int, channels: Int, samples: Samples) throws(LearnError) {
        guard channels == 3 || channels == 4 else {
            throw .badBuffer(reason: "\(channels) channels per pixel; RGB (3) or RGBA (4) is needed")
        }
        guard width > 0, height > 0 else {
            throw .badBuffer(reason: "\(width)x\(height) pixels; both sides must be at least 1")
        }
        let count: Int
        switch samples {
        case .eight(let values): count = values.count
        case .sixteen(let values): count = values.count
        }
        guard count == width * height * channels else {
            throw .badBuffer(reason: "\(count) samples for \(width)x\(height) pixels of \(channels) channels "
                + "(\(width * height * channels) expected)")
        }
        self.width = width
        self.height = height
        self.channels = channels
        self.samples = samples
    }

    /// Bits per sample, 8 or 16.
    public var bitDepth: Int {
        switch samples {
        case .eight: 8
        case .sixteen: 16
        }
    }
}
