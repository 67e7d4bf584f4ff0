import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

@Suite struct ColorMemoTests {
    /// Every 8-bit colour once, in `layout`; a fourth sample (alpha) is red xor blue, so that its
    /// copy is checked too.
    static func allColors(_ layout: PixelLayout) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: layout.stride << 24)
        for index in 0..<(1 << 24) {
            let r = UInt8(truncatingIfNeeded: index), g = UInt8(truncatingIfNeeded: index >> 8), b = UInt8(truncatingIfNeeded: index >> 16)
            let base = layout.stride * index
            pixels[base + layout.red] = r
            pixels[base + layout.green] = g
            pixels[base + layout.blue] = b
            if layout.stride == 4 { pixels[base + 6 - layout.red - layout.green - layout.blue] = r ^ b }
        }
        return pixels
    }

    static func run(_ engine: LUTEngine, _ input: [UInt8], _ layout: PixelLayout) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: input.count)
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                guard let from = source.baseAddress, let to = destination.baseAddress else { return }
                engine.apply(from, to: to, pixelCount: input.count / layout.stride, layout: layout)
            }
        }
        return output
    }

    /// The remembering engine against the interpolating one over all 2^24 colours, with both
    /// memories, in the layouts with their own loops (RGB and RGBA read whole words) and one general
    /// layout, in place and not.
    @Test(arguments: [(Interpolation.trilinear, Float(1), PixelLayout.rgb, ColorMemory.recent),
                      (.trilinear, 1, .rgb, .every), (.tetrahedral, 0.7, .rgba, .every), (.nearest, 1, .bgra, .recent)])
    func rememberedColorsAreTheKernelsResults(setting: (Interpolation, Float, PixelLayout, ColorMemory)) throws {
        let (interpolation, strength, layout, memory) = setting
        let cube = try ColorCube(size: 33, sampling: lutTestLook)
        // The recent-colours cache is kept only beside the portable loops (or an output stage).
        let vectorized = memory != .recent
        let interpolating = LUTEngine(cube: cube, interpolation: interpolation, strength: strength, colorMemory: .none,
                                      vectorized: vectorized)
        let remembering = LUTEngine(cube: cube, interpolation: interpolation, strength: strength, colorMemory: memory,
                                    vectorized: vectorized)
        #expect(remembering.remembersColors)
        let input = Self.allColors(layout)
        let expected = Self.run(interpolating, input, layout)
        // The first pass computes and remembers every colour, the second reads them all back.
        for pass in ["filling", "remembered"] {
            let observed = Self.run(remembering, input, layout)
            let mismatches = zip(expected, observed).filter { $0 != $1 }.count
            #expect(mismatches == 0, "\(pass): \(mismatches) samples differ from the kernel's")
        }
        var inPlace = input
        inPlace.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            remembering.apply(base, to: base, pixelCount: buffer.count / layout.stride, layout: layout)
        }
        #expect(inPlace == expected, "in place")
    }

    /// Which engines keep which memory: the recent-colours cache is dropped where the AVX2 loops
    /// interpolate faster than it answers (no output stage), the table of every colour never.
    @Test func recentColorsAreKeptWhereMissesCostMore() throws {
        let cube = try ColorCube(size: 17, sampling: lutTestLook)
        let output = ChannelStages(output: { _, value in value * value })
        let vector = LUTEngine.hasVectorKernel
        #expect(LUTEngine(cube: cube).remembersColors == !vector)
        #expect(LUTEngine(cube: cube, interpolation: .tetrahedral).remembersColors == !vector)
        #expect(LUTEngine(cube: cube, interpolation: .nearest).remembersColors)
        #expect(LUTEngine(cube: cube, stages: output).remembersColors)
        #expect(LUTEngine(cube: cube, vectorized: false).remembersColors)
        #expect(LUTEngine(cube: cube, colorMemory: .every).remembersColors)
        #expect(!LUTEngine(cube: cube, colorMemory: .none).remembersColors)
    }

    /// Short RGB runs (the word loop's first and last pixels), in place and not: the kernel's
    /// results, and not a byte written past the pixels given.
    @Test func shortRGBRunsStayInsideTheirPixels() throws {
        // The portable loops, beside which the recent-colours cache is kept.
        let engine = LUTEngine(cube: try ColorCube(size: 17, sampling: lutTestLook), vectorized: false)
        let interpolating = LUTEngine(cube: try ColorCube(size: 17, sampling: lutTestLook), colorMemory: .none,
                                      vectorized: false)
        #expect(engine.remembersColors)
        for count in 1...9 {
            let input = (0..<(3 * count)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ count) }
            let expected = Self.run(interpolating, input, .rgb)
            let guardBytes: [UInt8] = [0xA5, 0x5A, 0xC3, 0x3C]
            var outOfPlace = [UInt8](repeating: 0, count: input.count) + guardBytes
            var inPlace = input + guardBytes
            input.withUnsafeBufferPointer { source in
                outOfPlace.withUnsafeMutableBufferPointer { destination in
                    guard let from = source.baseAddress, let to = destination.baseAddress else { return }
                    engine.apply(from, to: to, pixelCount: count, layout: .rgb)
                }
            }
            inPlace.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                engine.apply(base, to: base, pixelCount: count, layout: .rgb)
            }
            #expect(Array(outOfPlace.prefix(input.count)) == expected, "\(count) pixels")
            #expect(Array(inPlace.prefix(input.count)) == expected, "\(count) pixels in place")
            #expect(Array(outOfPlace.suffix(4)) == guardBytes && Array(inPlace.suffix(4)) == guardBytes, "\(count) pixels")
        }
    }
}
