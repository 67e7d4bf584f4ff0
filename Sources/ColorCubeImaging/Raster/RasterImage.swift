/// A decoded image as RGB or RGBA samples of 8 or 16 bits or 32-bit floats, rows top to bottom,
/// channels interleaved.
///
/// Whatever the file stored (palette, grey, 1-bit, interlaced), readers expand it to this form
/// without changing any code value; 16-bit samples are in host byte order. Formats that store
/// floats (OpenEXR's half and float, float TIFF) give `.float` samples, values as stored: above
/// 1.0 and below 0 kept.
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

    /// 8, 16 or 32 (floats).
    public var bitDepth: Int { pixels.bitDepth }
    /// True when the image has an alpha channel.
    public var hasAlpha: Bool { channels == 4 }
    /// width * height.
    public var pixelCount: Int { width * height }
}

/// Interleaved samples: 8 or 16-bit codes, or floats.
public enum PixelStorage: Sendable {
    case eight([UInt8])
    case sixteen([UInt16])
    /// Values with 1.0 as full scale, not limited to 0...1 (scene-linear highlights stay above 1.0).
    case float([Float])

    /// 8, 16 or 32.
    public var bitDepth: Int {
        switch self {
        case .eight: 8
        case .sixteen: 16
        case .float: 32
        }
    }

    /// The largest code value, 255 or 65535 (65535 for floats too: the scale `subscript` reads them at).
    public var maxCode: Int { bitDepth == 8 ? 255 : 65535 }

    /// Number of samples.
    public var count: Int {
        switch self {
        case .eight(let samples): samples.count
        case .sixteen(let samples): samples.count
        case .float(let samples): samples.count
        }
    }

    /// Sample `index` as an integer code value (a float as its 16-bit code, `SampleDepth.sixteenBit`).
    @inlinable
    public subscript(index: Int) -> Int {
        switch self {
        case .eight(let samples): Int(samples[index])
        case .sixteen(let samples): Int(samples[index])
        case .float(let samples): Int(SampleDepth.sixteenBit(samples[index]))
        }
    }

    /// True for float samples.
    public var isFloat: Bool {
        if case .float = self { true } else { false }
    }
}

extension RasterImage {
    /// Brings float samples to 16-bit codes (`SampleDepth.sixteenBit`: clamped to 0...1, rounded),
    /// for a writer or a reader of codes; 8 and 16-bit images are left as they are.
    public mutating func quantizeFloats() {
        guard case .float(let samples) = pixels else { return }
        pixels = .sixteen(samples.map(SampleDepth.sixteenBit))
    }

    /// The samples as codes, for a writer of a format that stores integers: 8 and 16-bit as they
    /// are, floats as 16-bit codes (see `quantizeFloats()`).
    public var integerSamples: IntegerSamples {
        switch pixels {
        case .eight(let samples): .eight(samples)
        case .sixteen(let samples): .sixteen(samples)
        case .float(let samples): .sixteen(samples.map(SampleDepth.sixteenBit))
        }
    }

    /// Makes 8-bit samples 16-bit (each code times 257, the same value); others are left as they are.
    public mutating func widenToSixteenBits() {
        guard case .eight(let samples) = pixels else { return }
        pixels = .sixteen(samples.map { UInt16($0) &* 257 })
    }

    /// Makes 16-bit samples 8-bit, each rounded to the nearest code (`SampleDepth.eightBit`: exact
    /// for values that are 8-bit codes times 257, as a dithered picture's are).
    public mutating func narrowToEightBits() {
        guard case .sixteen(let samples) = pixels else { return }
        pixels = .eight(samples.map(SampleDepth.eightBit))
    }

    /// The image with float samples brought to 16-bit codes (see `quantizeFloats()`).
    public func quantizingFloats() -> RasterImage {
        var copy = self
        copy.quantizeFloats()
        return copy
    }
}

/// Samples as integer codes: `RasterImage.integerSamples`, what writers of integer formats switch over.
public enum IntegerSamples: Sendable {
    case eight([UInt8])
    case sixteen([UInt16])

    /// 8 or 16.
    public var bitDepth: Int {
        switch self {
        case .eight: 8
        case .sixteen: 16
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
