import ColorCubeApplier
import ColorCubeEngine
import ColorCubeImaging
import ColorCubeTransform
import Foundation
import Testing

/// Dithering a 16-bit picture into 8 bits: closer block means, exact codes kept, same bytes twice.
@Suite struct DitherTests {
    /// A slow 16-bit ramp, 256x64: about 12 8-bit codes across, so rounding bands.
    static func gradient() -> RasterImage {
        var samples: [UInt16] = []
        for _ in 0..<64 {
            for x in 0..<256 {
                let value = 0.30 + 0.05 * Double(x) / 255
                samples += [UInt16(value * 65535), UInt16((value * 0.9 + 0.02) * 65535), UInt16((value * 0.8 + 0.05) * 65535)]
            }
        }
        return RasterImage(width: 256, height: 64, channels: 3, pixels: .sixteen(samples))
    }

    /// The RMS over 8x8 blocks of (mean 8-bit code - mean exact value) after `dither`.
    static func blockError(_ dither: Dither) -> Double {
        var image = gradient()
        guard case .sixteen(let exact) = image.pixels else { return .nan }
        dither.apply(to: &image, storedBits: 8)
        guard case .sixteen(let dithered) = image.pixels else { return .nan }
        return blockError(code: { Double(SampleDepth.eightBit(dithered[$0])) }, exact: { Double(exact[$0]) / 257 })
    }

    /// The RMS over the 8x8 blocks of a 256x64 RGB picture of (mean code - mean exact value), with
    /// `code` and `exact` giving each sample's 8-bit code and exact value (in codes).
    static func blockError(code: (Int) -> Double, exact: (Int) -> Double) -> Double {
        var total = 0.0, blocks = 0
        for by in 0..<8 {
            for bx in 0..<32 {
                for channel in 0..<3 {
                    var difference = 0.0
                    for y in 0..<8 {
                        for x in 0..<8 {
                            let index = ((by * 8 + y) * 256 + bx * 8 + x) * 3 + channel
                            difference += code(index) - exact(index)
                        }
                    }
                    total += (difference / 64) * (difference / 64)
                    blocks += 1
                }
            }
        }
        return (total / Double(blocks)).squareRoot()
    }

    @Test func ditheredBlockMeansAreAtLeastTwiceAsClose() {
        let rounded = Self.blockError(.none)
        for dither in [Dither.ordered, .blueNoise] {
            let error = Self.blockError(dither)
            print("dither \(dither): 8x8 block-mean error \(error) codes RMS, rounding \(rounded)")
            #expect(error * 2 <= rounded, "\(dither): \(error) against \(rounded) rounded")
        }
    }

    @Test func codesThatFitStayAndRerunsAreIdentical() {
        let codes: [UInt16] = (0..<(64 * 64 * 3)).map { (index: Int) -> UInt16 in
            let code = UInt16((index * 7) % 256)
            return code * 257
        }
        for dither in Dither.allCases {
            var image = RasterImage(width: 64, height: 64, channels: 3, pixels: .sixteen(codes))
            dither.apply(to: &image, storedBits: 8)
            guard case .sixteen(let kept) = image.pixels else { return }
            #expect(kept == codes, "\(dither) moved an exact code")
            var first = Self.gradient(), second = Self.gradient()
            dither.apply(to: &first, storedBits: 8)
            dither.apply(to: &second, storedBits: 8)
            guard case .sixteen(let a) = first.pixels, case .sixteen(let b) = second.pixels else { return }
            #expect(a == b)
        }
    }

    /// An 8-bit picture graded with dithering: the look runs at 16 bits and its result is dithered
    /// to 8, so 8x8 block means follow the exact grade; an identity still returns every code.
    @Test func anEightBitPictureIsDitheredFromItsUnroundedGrade() throws {
        let folder = try TemporaryDirectory()
        // An 8-bit ramp over 64 codes, 256 wide: every code a run of 4 pixels.
        var samples: [UInt8] = []
        for _ in 0..<64 {
            for x in 0..<256 { samples += [UInt8(64 + x / 4), UInt8(100 + x / 8), UInt8(30 + x / 4)] }
        }
        let input = RasterImage(width: 256, height: 64, channels: 3, pixels: .eight(samples))
        try PNGFile.write(input, to: folder.file("in.png"))
        // A gain of 0.7: most results fall between codes.
        let darker = try LUTEngine(transform: Transform([try MatrixOp(rows: [SIMD3(0.7, 0, 0), SIMD3(0, 0.7, 0), SIMD3(0, 0, 0.7)])]))
        func graded(_ dither: Dither, engine: LUTEngine) throws -> [UInt8] {
            var options = ImageApplier.Options(ignoreProfile: true)
            options.dither = dither
            let output = folder.file("\(dither.rawValue).png")
            try ImageApplier(engine: engine, options: options).apply(input: folder.file("in.png"), output: output)
            let image = try ImageCodecs.read(path: output).image
            guard case .eight(let codes) = image.pixels else { Issue.record("\(dither): not 8-bit"); return [] }
            return codes
        }
        func blockError(_ codes: [UInt8]) -> Double {
            Self.blockError(code: { Double(codes[$0]) }, exact: { Double(samples[$0]) * 0.7 })
        }
        let rounded = blockError(try graded(.none, engine: darker))
        let blue = blockError(try graded(.blueNoise, engine: darker))
        print("8-bit picture, gain 0.7: 8x8 block-mean error \(blue) codes RMS with blue noise, \(rounded) rounded")
        #expect(blue * 2 <= rounded, "blue noise \(blue) against \(rounded) rounded")
        let identity = try LUTEngine(transform: Transform([try MatrixOp(rows: [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)])]))
        #expect(try graded(.blueNoise, engine: identity) == samples)
        #expect(try graded(.ordered, engine: darker) == (try graded(.ordered, engine: darker)))
    }
}
