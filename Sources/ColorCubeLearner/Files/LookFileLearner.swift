import ColorCubeConverter
import ColorCubeCore
import ColorCubeImaging
import ColorCubeLooks
import ColorCubeTransform
import Foundation

/// Learns a look from before/after image files or folders and writes it as any LUT format: what
/// `colorcube learn` runs.
public enum LookFileLearner {
    /// What was learned and from what.
    public struct Result: Sendable {
        public var pairs: ImagePairs
        /// The cube learned on the photos (before any conversion for `Spaces.look`) and how the
        /// fit reached it.
        public var learned: LearnedLook
        public var report: LearnReport
    }

    /// The colour spaces of a look learned for another space than its photos': the pairs are in
    /// `picture`; the look written expects and gives `look` (a look made on photos for log footage).
    public struct Spaces: Sendable {
        public var picture: ColorSpace
        public var look: ColorSpace

        public init(picture: ColorSpace, look: ColorSpace) {
            self.picture = picture
            self.look = look
        }
    }

    /// The lattice size a format gets unless one is asked for: the format's `preferredSize` (64
    /// for Core Image data and Hald PNGs, the reference size; 33 for the text and ICC formats).
    public static func defaultSize(for format: any LUTFileFormat) -> Int {
        format.preferredSize
    }

    /// Pairs `before` with `after` (two images or two folders, see `ImagePairs`), learns the look
    /// and writes it to `output` atomically in `format`. Each pair is decoded (the two images at
    /// once), summed by colour and dropped before the next is read.
    /// - Parameter size: lattice points per axis; nil takes `defaultSize(for:)`.
    /// - Parameter reportPicture: where to write the report picture (PNG, see `ReportPicture`), written
    ///   atomically after the look; nil writes none.
    /// - Parameter spaces: when given, the look is learned on the photos as they are (in
    ///   `spaces.picture`), then written for `spaces.look`: the conversion into the photos' space,
    ///   the learned cube and the conversion back, baked into a cube of `size` over `spaces.look`'s
    ///   codes. The report measures the cube learned on the photos.
    /// - Throws: `LearnError` (pairing, different pixel sizes: checked before anything is
    ///   written), `ImageError` for an unreadable image, `ConversionError` when the format cannot
    ///   hold the size, `ColorSpaceError` when the two spaces are not of one kind, `SafetyError`
    ///   when `output` is an input. Nothing is written on failure.
    public static func learn(before: String, after: String, output: String, format: any LUTFileFormat,
                             size: Int? = nil, smoothness: Double = LookLearner.defaultSmoothness,
                             reportPicture: String? = nil, spaces: Spaces? = nil) throws -> Result {
        let size = size ?? defaultSize(for: format)
        guard LearnError.sizeRange.contains(size) else { throw LearnError.invalidSize(size) }
        try format.validate(size: size, bitDepth: nil, path: output)
        if let spaces { _ = try ColorSpaces.conversion(from: spaces.picture, to: spaces.look) }
        let pairs = try ImagePairs.find(before: before, after: after)
        let inputs = pairs.pairs.flatMap { [$0.before, $0.after] }
        try OutputSafety.refuseOverwritingInput(output: output, inputs: inputs)
        if let reportPicture {
            try OutputSafety.refuseOverwritingInput(output: reportPicture, inputs: inputs + [output])
        }
        var picture = ReportPicture()
        let learner = LookLearner()
        for pair in pairs.pairs {
            let (beforeImage, (afterImage, afterIsCoded)) = try readBoth(pair)
            guard beforeImage.width == afterImage.width, beforeImage.height == afterImage.height else {
                throw LearnError.sizeMismatch(before: pair.before, beforeWidth: beforeImage.width,
                                              beforeHeight: beforeImage.height, after: pair.after,
                                              afterWidth: afterImage.width, afterHeight: afterImage.height)
            }
            let blocks = ChromaSubsampling(metadata: afterImage.metadata)
            let beforeBuffer = try buffer(beforeImage), afterBuffer = try buffer(afterImage)
            // A JPEG after still in its coded values (no profile converted), colour or greyscale, is
            // fitted to its stored coefficients.
            let coefficients = afterIsCoded && ImageFormat(sniffing: pair.after) == .jpeg
                ? try JPEGCoefficients.read(path: pair.after) : nil
            try learner.add(before: beforeBuffer, after: afterBuffer, name: pair.name, afterChroma: blocks,
                            afterCoefficients: coefficients)
            if reportPicture != nil { picture.add(before: beforeBuffer, after: afterBuffer) }
        }
        let learned = try learner.fit(size: size, smoothness: smoothness)
        let cube = learned.cube
        let report = learner.report(for: learned)
        if let spaces {
            let look = try Look(cube: cube, format: format).seen(from: spaces.look, lookSpace: spaces.picture)
            try LUTWriter.write(look, format: format, to: output, title: FilePath.stem(output), size: size)
        } else {
            try LUTWriter.write(cube, format: format, to: output, title: FilePath.stem(output))
        }
        if let reportPicture {
            let image = picture.render(cube: cube, occupied: learner.occupiedCells(perAxis: ReportPicture.cellsPerAxis))
            try AtomicFile.write(to: reportPicture) { temporary in
                try PNGFile.write(image, to: temporary, displayPath: reportPicture)
            }
        }
        return Result(pairs: pairs, learned: learned, report: report)
    }

    /// Decodes both images of a pair at once, one on each of two threads; a JPEG, lossy WebP, HEIC
    /// or AVIF after with its chroma blocks repeated (see `ChromaSubsampling`).
    private static func readBoth(_ pair: ImagePairs.Pair) throws -> (RasterImage, (RasterImage, isCoded: Bool)) {
        let results = Locked<[Swift.Result<(image: RasterImage, isCoded: Bool), any Error>?]>([nil, nil])
        ParallelLoop.run(iterations: 2) { index in
            let path = index == 0 ? pair.before : pair.after
            let result = Swift.Result<(image: RasterImage, isCoded: Bool), any Error> {
                try PairImageReader.read(path, replicatingChroma: index == 1)
            }
            results.withLock { $0[index] = result }
        }
        let (before, after) = results.withLock { ($0[0], $0[1]) }
        guard let before, let after else { throw LearnError.noPixels }
        return (try before.get().image, try after.get())
    }

    /// The picture's codes (floats as 16-bit codes: the learner fits looks over 0...1).
    private static func buffer(_ image: RasterImage) throws -> PixelBuffer {
        switch image.integerSamples {
        case .eight(let samples):
            try PixelBuffer(width: image.width, height: image.height, channels: image.channels, samples: .eight(samples))
        case .sixteen(let samples):
            try PixelBuffer(width: image.width, height: image.height, channels: image.channels, samples: .sixteen(samples))
        }
    }
}
