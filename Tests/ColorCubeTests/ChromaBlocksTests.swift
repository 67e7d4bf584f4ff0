import ColorCubeCore
import ColorCubeImaging
import ColorCubeLearner
import Testing

/// JPEG afters with subsampled chroma: decoded with each block's chroma repeated, and fitted per
/// block (`ChromaSubsampling`).
@Suite struct ChromaBlocksTests {
    /// A 4:2:0 JPEG of `image` at quality 90, decoded with chroma repeated or interpolated.
    static func jpeg(_ image: RasterImage, replicating: Bool) throws -> RasterImage {
        let folder = try TemporaryDirectory()
        try JPEGFile.write(image, to: folder.file("a.jpg"), quality: 90, subsampling: (2, 2))
        var options = ImageReadOptions()
        options.replicatesChroma = replicating
        return try JPEGFile.read(path: folder.file("a.jpg"), options: options)
    }

    /// Largest difference in chroma (Cb or Cr under `matrix`, 8-bit codes) between pixels of one
    /// 2x2 block, over the blocks where no pixel is clipped (a channel at 0 or 255 has lost its
    /// chroma).
    static func largestChromaSpreadInBlocks(_ image: RasterImage, matrix: ChromaMatrix = .bt601) -> Double {
        guard case .eight(let s) = image.pixels else { return .infinity }
        let c = image.channels
        func chroma(_ x: Int, _ y: Int) -> SIMD2<Double> {
            let i = (y * image.width + x) * c
            return matrix.chroma(SIMD3(Double(s[i]), Double(s[i + 1]), Double(s[i + 2])))
        }
        func clipped(_ x: Int, _ y: Int) -> Bool {
            let i = (y * image.width + x) * c
            return (i..<(i + 3)).contains { s[$0] == 0 || s[$0] == 255 }
        }
        var largest = 0.0
        for y in stride(from: 0, to: image.height - 1, by: 2) {
            for x in stride(from: 0, to: image.width - 1, by: 2) {
                if clipped(x, y) || clipped(x + 1, y) || clipped(x, y + 1) || clipped(x + 1, y + 1) { continue }
                let first = chroma(x, y)
                for (dx, dy) in [(1, 0), (0, 1), (1, 1)] {
                    let d = chroma(x + dx, y + dy) - first
                    largest = max(largest, abs(d.x), abs(d.y))
                }
            }
        }
        return largest
    }

    /// 64x64 random colours kept within 64...191, so that decoded pixels rarely clip.
    static func midToneRandomColors() -> RasterImage {
        var image = LearnBench.randomColors(side: 64, seed: 7)
        if case .eight(let samples) = image.pixels {
            image.pixels = .eight(samples.map { 64 + $0 / 2 })
        }
        return image
    }

    @Test func replicatedChromaIsConstantOverEachBlock() throws {
        let image = Self.midToneRandomColors()
        let replicated = try Self.jpeg(image, replicating: true)
        let smooth = try Self.jpeg(image, replicating: false)
        #expect(replicated.metadata.jpegSubsampling?.horizontal == 2)
        #expect(replicated.metadata.jpegSubsampling?.vertical == 2)
        let spread = Self.largestChromaSpreadInBlocks(replicated)
        print("chroma spread in a block: replicated \(spread), interpolated \(Self.largestChromaSpreadInBlocks(smooth))")
        // Only the rounding of each pixel's RGB to 8 bits (and clipping) moves it.
        #expect(spread <= 3)
        #expect(Self.largestChromaSpreadInBlocks(smooth) > 10)
    }

    @Test func subsamplingFactorsOutsideJPEGsAreRefused() {
        #expect(ChromaSubsampling(horizontal: 1, vertical: 1) == nil)
        #expect(ChromaSubsampling(horizontal: 5, vertical: 1) == nil)
        #expect(ChromaSubsampling(horizontal: 2, vertical: 1) != nil)
    }

    /// Looks learned from four sample photos with JPEG q90 4:2:0 afters and applied to the fifth:
    /// fitting chroma per block beats fitting each pixel's decoded colour.
    @Test func blockChromaBeatsPerPixelChromaOnHeldOutPhotos() throws {
        let photos = try LearnBench.photos()
        let look = try LearnBench.look("teal-orange")
        let afters = try photos.map { try Self.jpeg(LearnBench.apply(look, to: $0.image), replicating: true) }
        let smoothAfters = try photos.map { try Self.jpeg(LearnBench.apply(look, to: $0.image), replicating: false) }
        func heldOut(blocks: Bool) throws -> Double {
            var all: [Double] = []
            for held in photos.indices {
                let learner = LookLearner()
                for index in photos.indices where index != held {
                    try learner.add(before: LearnBench.buffer(photos[index].image),
                                    after: LearnBench.buffer(blocks ? afters[index] : smoothAfters[index]),
                                    afterChroma: blocks ? ChromaSubsampling(horizontal: 2, vertical: 2) : nil)
                }
                let learned = try learner.cube(size: 33)
                all += LearnBench.differences(learned, look, on: photos[held].image)
            }
            return LearnBench.summary(all).mean
        }
        let perPixel = try heldOut(blocks: false), perBlock = try heldOut(blocks: true)
        print("held out, teal-orange, JPEG q90 4:2:0 afters: per pixel \(perPixel), per block \(perBlock)")
        #expect(perBlock < perPixel)
    }
}
