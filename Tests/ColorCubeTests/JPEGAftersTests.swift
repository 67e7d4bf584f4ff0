import ColorCubeCore
import ColorCubeImaging
import ColorCubeLearner
import Foundation
import Testing

/// JPEG afters fitted to their stored DCT coefficients (`JPEGCoefficients`, the learner's
/// `JPEGAfters`).
@Suite struct JPEGAftersTests {
    /// `image` written as a quality-90 JPEG with `subsampling` into `folder`; its path.
    static func write(_ image: RasterImage, _ folder: TemporaryDirectory, _ name: String,
                      subsampling: (Int, Int) = (2, 2)) throws -> String {
        let path = folder.file(name)
        try JPEGFile.write(image, to: path, quality: 90, subsampling: subsampling)
        return path
    }

    /// The samples a component's stored coefficients decode to (inverse DCT of coefficient x step,
    /// plus 128), row-major over widthInBlocks*8 samples a row: written here from the DCT's
    /// definition, independently of the learner's transform.
    static func decode(_ component: JPEGCoefficients.Component) -> [Double] {
        let width = component.widthInBlocks * 8
        var samples = [Double](repeating: 0, count: width * component.heightInBlocks * 8)
        func c(_ u: Int) -> Double { u == 0 ? 1 / 2.0.squareRoot() : 1 }
        for by in 0..<component.heightInBlocks {
            for bx in 0..<component.widthInBlocks {
                let block = (by * component.widthInBlocks + bx) * 64
                for y in 0..<8 {
                    for x in 0..<8 {
                        var sum = 0.0
                        for v in 0..<8 {
                            for u in 0..<8 {
                                let k = v * 8 + u
                                let value = Double(component.coefficients[block + k]) * Double(component.quantization[k])
                                sum += c(u) * c(v) * value * cos(Double((2 * x + 1) * u) * .pi / 16)
                                    * cos(Double((2 * y + 1) * v) * .pi / 16)
                            }
                        }
                        samples[(by * 8 + y) * width + bx * 8 + x] = sum / 4 + 128
                    }
                }
            }
        }
        return samples
    }

    @Test func coefficientsDecodeToTheDecodersLuma() throws {
        let folder = try TemporaryDirectory()
        let image = ChromaBlocksTests.midToneRandomColors()
        let path = try Self.write(image, folder, "a.jpg")
        let stored = try #require(try JPEGCoefficients.read(path: path))
        #expect(stored.width == 64 && stored.height == 64)
        #expect(stored.components.map(\.horizontalStep) == [1, 2, 2])
        #expect(stored.components.map(\.verticalStep) == [1, 2, 2])
        #expect(stored.components.map(\.widthInBlocks) == [8, 4, 4])
        let luma = Self.decode(stored.components[0])
        let decoded = try JPEGFile.read(path: path)
        guard case .eight(let pixels) = decoded.pixels else { throw LearnError.noPixels }
        var largest = 0.0
        for pixel in 0..<(64 * 64) {
            let rgb = SIMD3(Double(pixels[pixel * 3]), Double(pixels[pixel * 3 + 1]), Double(pixels[pixel * 3 + 2]))
            let y = 0.299 * rgb.x + 0.587 * rgb.y + 0.114 * rgb.z
            largest = max(largest, abs(y - luma[pixel]))
        }
        print("largest luma difference, stored coefficients against decoded pixels: \(largest)")
        // The decoder rounds each channel to 8 bits (and its chroma upsampling moves RGB, not luma).
        #expect(largest < 3)
    }

    /// A greyscale JPEG (one component, as editors save a black and white photo) is read as its
    /// luma alone, which decodes to the decoder's grey pixels.
    @Test func greyscaleFilesAreReadAsTheirLuma() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("grey.jpg")
        try JPEGFile.write(ChromaBlocksTests.midToneRandomColors(), to: path, quality: 90, greyscale: true)
        let stored = try #require(try JPEGCoefficients.read(path: path))
        #expect(stored.components.count == 1)
        #expect(stored.components[0].horizontalStep == 1 && stored.components[0].verticalStep == 1)
        let luma = Self.decode(stored.components[0])
        let decoded = try JPEGFile.read(path: path)
        guard case .eight(let pixels) = decoded.pixels else { throw LearnError.noPixels }
        var largest = 0.0
        for pixel in 0..<(64 * 64) {
            #expect(pixels[pixel * 3] == pixels[pixel * 3 + 1] && pixels[pixel * 3 + 1] == pixels[pixel * 3 + 2])
            largest = max(largest, abs(Double(pixels[pixel * 3]) - luma[stored.components[0].widthInBlocks * 8 * (pixel / 64) + pixel % 64]))
        }
        print("largest difference, greyscale coefficients against decoded pixels: \(largest)")
        #expect(largest < 1)  // the decoder's integer inverse DCT, rounded
    }

    @Test func damagedAndOversizedFilesAreErrorsAndOtherFilesNil() throws {
        let folder = try TemporaryDirectory()
        let path = try Self.write(ChromaBlocksTests.midToneRandomColors(), folder, "a.jpg")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = folder.file("cut.jpg")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        #expect(throws: ImageError.self) { try JPEGCoefficients.read(path: cut) }
        do {
            _ = try JPEGCoefficients.read(path: path, options: ImageReadOptions(pixelLimit: 1000))
            Issue.record("a 64x64 JPEG passed a limit of 1000 pixels")
        } catch {
            guard case .pixelLimit = error else {
                Issue.record("expected a pixel-limit error, got \(error)")
                return
            }
        }
        let png = folder.file("a.png")
        try PNGFile.write(ChromaBlocksTests.midToneRandomColors(), to: png)
        #expect(throws: ImageError.self) { try JPEGCoefficients.read(path: png) }
    }

    @Test func theSmoothnessFallsToTheAskedOneOverTheRounds() throws {
        let folder = try TemporaryDirectory()
        let photo = try #require(try LearnBench.photos().first)
        let look = try LearnBench.look("teal-orange")
        let path = try Self.write(LearnBench.apply(look, to: photo.image), folder, "after.jpg")
        var options = ImageReadOptions()
        options.replicatesChroma = true
        let learner = LookLearner()
        try learner.add(before: LearnBench.buffer(photo.image),
                        after: LearnBench.buffer(JPEGFile.read(path: path, options: options)),
                        afterCoefficients: try #require(try JPEGCoefficients.read(path: path)))
        let learned = try learner.fit(size: 17, smoothness: 1e-7)
        let report = learner.report(for: learned)
        #expect(report.afterNoise > 0)
        #expect(report.smoothness > 1e-7)
        #expect(report.finalSmoothness == 1e-7)
        #expect(learned.iterations.count == 12)
    }

    /// Looks learned from four sample photos with JPEG q90 afters (4:2:0 and 4:2:2) and applied to
    /// the fifth: fitting the stored coefficients beats fitting the decoded pixels with chroma per
    /// block, the learner's previous model.
    @Test(arguments: [(2, 2), (2, 1)])
    func storedCoefficientsBeatDecodedBlocksOnHeldOutPhotos(subsampling: (Int, Int)) throws {
        let folder = try TemporaryDirectory()
        let photos = try LearnBench.photos()
        let look = try LearnBench.look("teal-orange")
        var afters: [RasterImage] = [], stored: [JPEGCoefficients] = []
        for (index, photo) in photos.enumerated() {
            let path = try Self.write(LearnBench.apply(look, to: photo.image), folder, "\(index).jpg",
                                      subsampling: subsampling)
            var options = ImageReadOptions()
            options.replicatesChroma = true
            afters.append(try JPEGFile.read(path: path, options: options))
            stored.append(try #require(try JPEGCoefficients.read(path: path)))
        }
        let blocks = try #require(ChromaSubsampling(horizontal: subsampling.0, vertical: subsampling.1))
        func heldOut(coefficients: Bool) throws -> Double {
            var all: [Double] = []
            for held in photos.indices {
                let learner = LookLearner()
                for index in photos.indices where index != held {
                    try learner.add(before: LearnBench.buffer(photos[index].image), after: LearnBench.buffer(afters[index]),
                                    afterChroma: blocks, afterCoefficients: coefficients ? stored[index] : nil)
                }
                let learned = try learner.cube(size: 33)
                all += LearnBench.differences(learned, look, on: photos[held].image)
            }
            return LearnBench.summary(all).mean
        }
        let perBlock = try heldOut(coefficients: false), fitted = try heldOut(coefficients: true)
        print("held out, teal-orange, JPEG q90 \(subsampling): chroma blocks \(perBlock), stored coefficients \(fitted)")
        #expect(fitted < perBlock)
    }
}
