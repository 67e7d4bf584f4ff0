import ColorCubeApplier
import ColorCubeCore
import Testing

/// The AVX2 8-bit loops against the portable Swift loops: the same operations in the same order,
/// so the same bytes, in every combination of interpolation, strength, output stage and layout.
/// Skipped where the CPU has no AVX2 (there the portable loops are all there is).
@Suite(.enabled(if: LUTEngine.hasVectorKernel, "no AVX2 on this CPU"))
struct VectorKernelTests {
    static func run(_ engine: LUTEngine, _ input: [UInt8], _ layout: PixelLayout) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: input.count)
        engine.apply(input, to: &output, pixelCount: input.count / layout.stride, layout: layout)
        return output
    }

    /// All 2^24 colours, full strength: byte for byte the portable loops' output.
    @Test(arguments: [Interpolation.trilinear, .tetrahedral])
    func everyEightBitColourMatchesThePortableLoops(interpolation: Interpolation) throws {
        let cube = try ColorCube(size: 33, sampling: lutTestLook)
        let vector = LUTEngine(cube: cube, interpolation: interpolation, remembersColors: false)
        let portable = LUTEngine(cube: cube, interpolation: interpolation, remembersColors: false, vectorized: false)
        #expect(vector.isVectorized && !portable.isVectorized)
        let expected = Self.run(portable, allColours, .rgb), observed = Self.run(vector, allColours, .rgb)
        #expect(sameBytes(expected, observed), "\(zip(expected, observed).filter { $0 != $1 }.count) samples differ")
    }

    /// Strength below 1, an output stage, every layout, odd counts (the last pixel alone), in
    /// place and not.
    @Test(arguments: [Interpolation.trilinear, .tetrahedral])
    func mixesStagesAndLayoutsMatchThePortableLoops(interpolation: Interpolation) throws {
        let cube = try ColorCube(size: 17, sampling: lutTestLook)
        let stages = ChannelStages(output: { channel, value in 0.9 * value * value + 0.05 * Double(channel) })
        var generator = TestRandom(seed: 23)
        for strength in [Float(1), 0.6] {
            for stage in [ChannelStages.none, stages] {
                let vector = LUTEngine(cube: cube, interpolation: interpolation, strength: strength,
                                       remembersColors: false, stages: stage)
                let portable = LUTEngine(cube: cube, interpolation: interpolation, strength: strength,
                                         remembersColors: false, stages: stage, vectorized: false)
                for layout in [PixelLayout.rgb, .bgr, .rgba, .bgra] {
                    for pixels in [1, 2, 7, 4099] {
                        let input = (0..<(pixels * layout.stride)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                        let expected = Self.run(portable, input, layout)
                        #expect(Self.run(vector, input, layout) == expected, "\(strength) \(layout) \(pixels)")
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
}
