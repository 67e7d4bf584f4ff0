import ColorCubeImaging
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
        var total = 0.0, blocks = 0
        for by in 0..<8 {
            for bx in 0..<32 {
                for channel in 0..<3 {
                    var difference = 0.0
                    for y in 0..<8 {
                        for x in 0..<8 {
                            let index = ((by * 8 + y) * 256 + bx * 8 + x) * 3 + channel
                            difference += Double(SampleDepth.eightBit(dithered[index])) - Double(exact[index]) / 257
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
}
