import ColorCubeCore
import ColorCubeEngine
import ColorCubeImaging

/// Applies a look to image files and decoded images: colour management in, the LUT engine, and
/// the output written in the requested format with the input's metadata.
public struct ImageApplier: Sendable {
    /// How images are read and written.
    public struct Options: Sendable {
        /// Apply the look to the code values as stored, keeping the input's colour tag, instead of
        /// converting an embedded profile to sRGB first.
        public var ignoreProfile: Bool
        /// Quality of lossy outputs (JPEG, lossy WebP, HEIC, AVIF), 1...100.
        public var quality: Int
        /// What decoders accept (the pixel limit).
        public var reading: ImageReadOptions
        /// How a 16-bit picture is brought to a format that stores fewer bits (default: rounding).
        public var dither: Dither = .none
        /// The look's own precision in output units (`Transform.nodePrecision()`): when dithering,
        /// a colour the look moves by less than this keeps its code (see `Dither`).
        public var lookPrecision: Double = 0
        /// The engine for a picture that needs its own (one whose file names its colour space,
        /// when the look is applied in a space); nil, or a nil answer, takes the applier's engine.
        public var engineForPicture: (@Sendable (RasterImage, _ path: String) throws -> LUTEngine?)?

        public init(ignoreProfile: Bool = false, quality: Int = ImageWriteOptions.defaultQuality,
                    reading: ImageReadOptions = ImageReadOptions()) {
            self.ignoreProfile = ignoreProfile
            self.quality = quality
            self.reading = reading
        }
    }

    public let engine: LUTEngine
    public let options: Options

    public init(engine: LUTEngine, options: Options = Options()) {
        self.engine = engine
        self.options = options
    }

    /// Applies the look to a decoded image in place, at its own bit depth (16-bit images are never
    /// reduced to 8 bits). Alpha is unchanged. Brings an embedded profile to sRGB first unless
    /// `options.ignoreProfile`; the result is tagged sRGB in that case.
    /// - Parameter path: names the image in errors.
    public func apply(to image: inout RasterImage, path: String = "image", parallel: Bool = true) throws {
        try prepareColors(&image, path: path)
        applyLook(to: &image, engine: try engine(for: image, path: path), parallel: parallel)
    }

    /// `options.engineForPicture`'s engine for `image`, else the applier's.
    func engine(for image: RasterImage, path: String) throws -> LUTEngine {
        try options.engineForPicture?(image, path) ?? engine
    }

    /// Brings the image into the look's space: an embedded profile converted to sRGB and the tag
    /// (and any gAMA/cHRM) replaced by sRGB, unless `options.ignoreProfile`.
    func prepareColors(_ image: inout RasterImage, path: String) throws {
        guard !options.ignoreProfile else { return }
        try ColorConversion.convertToSRGB(&image, path: path)
        image.colorSpace = .sRGB
        image.metadata.pngGamma = nil
        image.metadata.pngChromaticities = nil
    }

    /// Runs the engine over the pixels in place.
    func applyLook(to image: inout RasterImage, engine: LUTEngine, parallel: Bool) {
        let layout: PixelLayout = image.channels == 4 ? .rgba : .rgb
        let count = image.pixelCount
        switch image.pixels {
        case .eight(var samples):
            image.pixels = .eight([])  // drop the second reference so the buffer is mutated in place
            samples.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                engine.apply(UnsafePointer(base), to: base, pixelCount: count, layout: layout, parallel: parallel)
            }
            image.pixels = .eight(samples)
        case .sixteen(var samples):
            image.pixels = .sixteen([])
            samples.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                engine.apply(UnsafePointer(base), to: base, pixelCount: count, layout: layout, parallel: parallel)
            }
            image.pixels = .sixteen(samples)
        case .float(var samples):
            image.pixels = .float([])
            samples.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                engine.apply(floats: UnsafePointer(base), to: base, pixelCount: count, layout: layout, parallel: parallel)
            }
            image.pixels = .float(samples)
        }
    }

    /// What grading one file did, for reports.
    public struct FileReport: Sendable {
        /// How long each stage took.
        public var times = StageTimes()
        /// The input's format.
        public var inputFormat: ImageFormat
        /// How many images the input held; only the first was graded (multi-page TIFF).
        public var imageCount: Int
        /// What the reader said about the input (`ImageMetadata.readNotes`), to print once.
        public var readNotes: [String] = []
        /// True when another writer (another run) finished the output while this one wrote it; see
        /// `AtomicFile.Written.finishedElsewhere`.
        public var finishedElsewhere = false
        /// Leftovers of killed writers of the output, removed before writing it.
        public var staleTemporariesRemoved: [String] = []
    }

    /// Reads `input`, applies the look and writes `output` atomically (temporary name, then rename).
    /// - Parameters:
    ///   - outputFormat: the format to write; nil keeps the input's.
    ///   - overlap: what to do when another run finishes `output` while this one writes it: replace
    ///     its file (the default) or keep it; see `AtomicFile.Overlap`.
    /// - Returns: the stage times and what the input was.
    /// - Throws: `ImageError` naming the file at fault, or `FileError` for the output.
    @discardableResult
    public func apply(input: String, output: String, outputFormat: ImageFormat? = nil, parallel: Bool = true,
                      overlap: AtomicFile.Overlap = .replace) throws -> FileReport {
        var times = StageTimes()
        var clock = ContinuousClock.now
        // Taken apart at once: a second reference to the pixels would make the in-place steps copy them.
        var image: RasterImage
        let inputFormat: ImageFormat
        (image, inputFormat) = try ImageCodecs.read(path: input, options: options.reading)
        let imageCount = image.metadata.imageCount, readNotes = image.metadata.readNotes
        times.lap(\.decode, since: &clock)
        try prepareColors(&image, path: input)
        times.lap(\.colorManagement, since: &clock)
        // Dithering an 8-bit picture needs the grade before it is rounded to 8 bits: the look runs
        // at 16 bits and the result is dithered back to 8 (exact codes stay exact). The samples
        // before the look are kept (shared until the look writes) for the colours it leaves alone.
        let dithersEightBit = options.dither != .none && image.bitDepth == 8
        let original = options.dither != .none ? image.pixels : nil
        if dithersEightBit { image.widenToSixteenBits() }
        applyLook(to: &image, engine: try engine(for: image, path: input), parallel: parallel)
        times.lap(\.lut, since: &clock)
        let format = outputFormat ?? inputFormat
        if format != inputFormat {
            image.metadata = image.metadata.keepingOnlyNeutralFields()
        }
        let codec = ImageCodecs.codec(for: format)
        if codec?.storesFloats != true { image.quantizeFloats() }
        let storedBits = codec?.storedSampleBits ?? 16
        options.dither.apply(to: &image, storedBits: dithersEightBit ? min(storedBits, 8) : storedBits, original: original,
                             lookPrecision: options.lookPrecision)
        if dithersEightBit { image.narrowToEightBits() }
        let writeOptions = ImageWriteOptions(displayPath: output, quality: options.quality)
        let written = try AtomicFile.write(to: output, overlap: overlap) { temporary in
            try ImageCodecs.write(image, as: format, to: temporary, options: writeOptions)
        }
        times.lap(\.encode, since: &clock)
        return FileReport(times: times, inputFormat: inputFormat, imageCount: imageCount, readNotes: readNotes,
                          finishedElsewhere: written.finishedElsewhere,
                          staleTemporariesRemoved: written.staleTemporariesRemoved)
    }

    /// Reads an image file of any format in `ImageCodecs`, recognised by its content rather than
    /// its name.
    /// - Throws: `ImageError.cannotOpen` when the file cannot be read, `.notAnImage` when no codec
    ///   recognises it, else the decoder's error.
    public static func read(_ path: String, options: ImageReadOptions = ImageReadOptions())
        throws -> (image: RasterImage, format: ImageFormat) {
        try ImageCodecs.read(path: path, options: options)
    }
}
