/// A decoded image as RGB or RGBA samples of 8 or 16 bits, rows top to bottom, channels interleaved.
///
/// Whatever the file stored (palette, grey, 1-bit, interlaced), readers expand it to this form
/// without changing any code value; 16-bit samples are in host byte order.
public struct RasterImage: Sendable {
    public var width: Int
    public var height: Int
    /// 3 (RGB) or 4 (RGBA).
    public var channels: Int
    public var pixels: PixelStorage
    /// The colour space the file declares.
    public var colorSpace: ColorSpaceTag
    /// Metadata to carry to an output of the same format.
    public var metadata: ImageMetadata

    public init(width: Int, height: Int, channels: Int, pixels: PixelStorage,
                colorSpace: ColorSpaceTag = .unspecified, metadata: ImageMetadata = ImageMetadata()) {
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
        self.colorSpace = colorSpace
        self.metadata = metadata
    }

    /// 8 or 16.
    public var bitDepth: Int { pixels.bitDepth }
    /// True when the image has an alpha channel.
    public var hasAlpha: Bool { channels == 4 }
    /// width * height.
    public var pixelCount: Int { width * height }
}

/// Interleaved samples at one of the two bit depths.
public enum PixelStorage: Sendable {
    case eight([UInt8])
    case sixteen([UInt16])

    /// 8 or 16.
    public var bitDepth: Int {
        switch self {
        case .eight: 8
        case .sixteen: 16
        }
    }

    /// The largest code value, 255 or 65535.
    public var maxCode: Int { bitDepth == 8 ? 255 : 65535 }

    /// Number of samples.
    public var count: Int {
        switch self {
        case .eight(let samples): samples.count
        case .sixteen(let samples): samples.count
        }
    }

    /// Sample `index` as an integer code value.
    @inlinable
    public subscript(index: Int) -> Int {
        switch self {
        case .eight(let samples): Int(samples[index])
        case .sixteen(let samples): Int(samples[index])
        }
    }
}

extension RasterImage {
    /// Checks, before an encoder starts, that the image is RGB or RGBA and that its samples fill
    /// width x height x channels: the writers' shared precondition.
    /// - Parameter holds: what the format holds, for the message ("JPEG holds RGB").
    /// - Throws: `ImageError.cannotWrite` naming `path`.
    func checkWritable(holds: String, path: String) throws(ImageError) {
        guard channels == 3 || channels == 4 else {
            throw .cannotWrite(path: path, reason: "\(holds), and the image has \(channels) channels")
        }
        guard pixels.count == width * height * channels else {
            throw .cannotWrite(path: path, reason: "the image has \(pixels.count) samples, not "
                               + "\(width)x\(height)x\(channels)")
        }
    }
}
