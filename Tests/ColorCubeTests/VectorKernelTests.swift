import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
import Testing

/// The AVX2 8-bit loops against the portable Swift loops (the engine's loops before the AVX2 ones,
/// unchanged): the same interpolation with fused multiply-adds and, for trilinear, the lerps in
/// another order, so an output may differ by one code where the exact value lies within Float32
/// error of a half code. Skipped where the CPU has no AVX2 (there the portable loops run).
@Suite(.enabled(if: LUTEngine.hasVectorKernel, "no AVX2 on this CPU"))
struct VectorKernelTests {
    static func run(_ engine: LUTEngine, _ input: [UInt8], _ layout: PixelLayout) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: input.count)
        engine.apply(input, to: &output, pixelCount: input.count / layout.stride, layout: layout)
        return output
    }

    /// Largest difference in code values, and how many samples differ.
    static func compare(_ a: [UInt8], _ b: [UInt8]) -> (worst: Int, differing: Int) {
        var worst = 0, differing = 0
        for i in a.indices where a[i] != b[i] {
            worst = max(worst, abs(Int(a[i]) - Int(b[i])))
            differing += 1
        }
        return (worst, differing)
    }

    /// All 2^24 colours through the 64-cube of the stream benchmark's kind: within one code of
    /// the portable loops, and rarely off at all (the count is printed: it is the number of
    /// samples whose 8-bit result the AVX2 loops changed).
    @Test(arguments: [Interpolation.trilinear, .tetrahedral])
    func everyEightBitColourMatchesThePortableLoops(interpolation: Interpolation) throws {
        let cube = try ColorCube(size: 64, sampling: lutTestLook)
        let vector = LUTEngine(cube: cube, interpolation: interpolation, colorMemory: .none)
        let portable = LUTEngine(cube: cube, interpolation: interpolation, colorMemory: .none, vectorized: false)
        #expect(vector.isVectorized && !portable.isVectorized)
        let (worst, differing) = Self.compare(Self.run(portable, allColours, .rgb), Self.run(vector, allColours, .rgb))
        print("\(interpolation): \(differing) of \(3 << 24) samples differ from the portable loops, by at most \(worst)")
        #expect(worst <= 1)
        #expect(differing < (3 << 24) / 10_000)
    }

    /// Strength below 1, an output stage, every layout, short runs, in place and not: within one
    /// code of the portable loops, and in place the same bytes as out of place.
    @Test(arguments: [Interpolation.trilinear, .tetrahedral])
    func mixesStagesAndLayoutsMatchThePortableLoops(interpolation: Interpolation) throws {
        let cube = try ColorCube(size: 17, sampling: lutTestLook)
        let stages = ChannelStages(output: { channel, value in 0.9 * value * value + 0.05 * Double(channel) })
        var generator = TestRandom(seed: 23)
        for strength in [Float(1), 0.6] {
            for stage in [ChannelStages.none, stages] {
                let vector = LUTEngine(cube: cube, interpolation: interpolation, strength: strength,
                                       colorMemory: .none, stages: stage)
                let portable = LUTEngine(cube: cube, interpolation: interpolation, strength: strength,
                                         colorMemory: .none, stages: stage, vectorized: false)
                for layout in [PixelLayout.rgb, .bgr, .rgba, .bgra] {
                    for pixels in [1, 2, 7, 4099] {
                        let input = (0..<(pixels * layout.stride)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                        let expected = Self.run(vector, input, layout)
                        let (worst, differing) = Self.compare(Self.run(portable, input, layout), expected)
                        #expect(worst <= 1 && differing * 1000 <= input.count, "\(strength) \(layout) \(pixels): \(differing) off by up to \(worst)")
                        var inPlace = input
                        inPlace.withUnsafeMutableBufferPointer { buffer in
                            guard let base = buffer.baseAddress else { return }
                            vector.apply(base, to: base, pixelCount: pixels, layout: layout)
                        }
                        #expect(inPlace == expected, "in place: \(strength) \(layout) \(pixels)")
                    }
                }
            }
        }
    }

    /// Planar Float pixels, inside and outside 0...1 and NaN, with strength below 1 and both
    /// stages: the AVX2 loop within a few units in the last place of the portable Swift loop (the
    /// same operations, with fused multiply-adds and another lerp order), tails of every length.
    @Test(arguments: [Interpolation.trilinear, .tetrahedral])
    func planarFloatMatchesThePortableLoop(interpolation: Interpolation) throws {
        let cube = try ColorCube(size: 33, sampling: lutTestLook)
        let stages = ChannelStages(input: { channel, value in value * (0.8 + 0.2 * value) + 0.01 * Double(channel) },
                                   output: { channel, value in 0.9 * value * value + 0.05 * Double(channel) })
        var generator = TestRandom(seed: 29)
        for strength in [Float(1), 0.7] {
            for stage in [ChannelStages.none, stages] {
                let vector = LUTEngine(cube: cube, interpolation: interpolation, strength: strength, stages: stage)
                let portable = LUTEngine(cube: cube, interpolation: interpolation, strength: strength, stages: stage,
                                         vectorized: false)
                #expect(vector.isVectorized && !portable.isVectorized)
                for pixels in [1, 7, 8, 9, 1000] {
                    let planes = (0..<3).map { _ in
                        (0..<pixels).map { _ in Float(Int(generator.next() % 1200)) / 1000 - 0.1 }
                    }
                    var (red, green, blue) = (planes[0], planes[1], planes[2])
                    green[0] = .nan
                    var (fastRed, fastGreen, fastBlue) = (red, green, blue)
                    vector.apply(red: &fastRed, green: &fastGreen, blue: &fastBlue, pixelCount: pixels)
                    portable.apply(red: &red, green: &green, blue: &blue, pixelCount: pixels)
                    var worst: Float = 0
                    for i in 0..<pixels {
                        worst = max(worst, abs(fastRed[i] - red[i]), abs(fastGreen[i] - green[i]), abs(fastBlue[i] - blue[i]))
                    }
                    #expect(worst <= 4e-6, "\(interpolation) \(strength) \(pixels): off by up to \(worst)")
                }
            }
        }
    }
}
