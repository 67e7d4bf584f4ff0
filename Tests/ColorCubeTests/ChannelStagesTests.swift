import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
import Testing

/// Per-channel stages around the lattice, against `CubeSampler` evaluated on the shaped input and
/// the output closure applied in Double.
@Suite struct ChannelStagesTests {
    /// A smooth, increasing shaper, different per channel.
    static let shaper: @Sendable (Int, Double) -> Double = { channel, value in
        let bend = 0.3 + 0.2 * Double(channel)
        return (1 - bend) * value + bend * value * value
    }
    /// A smooth output curve with |f''| <= 2.4, different per channel.
    static let curve: @Sendable (Int, Double) -> Double = { channel, value in
        0.05 * Double(channel) + 0.8 * value + 0.3 * value * value - 0.4 * value * value * value
    }

    static func shapedReference(_ sampler: CubeSampler, _ rgb: SIMD3<Double>, input: Bool, output: Bool) -> SIMD3<Double> {
        var shaped = rgb
        if input {
            for c in 0..<3 { shaped[c] = shaper(c, rgb[c]) }
        }
        var look = sampler.sample(shaped)
        if output {
            for c in 0..<3 { look[c] = curve(c, look[c]) }
        }
        return look
    }

    /// An identity input stage changes no 8-bit result: the same bytes for all 2^24 colours.
    @Test(arguments: [Interpolation.trilinear, .tetrahedral, .nearest])
    func everyEightBitColourIsUnchangedByAnIdentityInputStage(interpolation: Interpolation) throws {
        let cube = try ColorCube(size: 33, sampling: lutTestLook)
        let plain = LUTEngine(cube: cube, interpolation: interpolation, colorMemory: .none)
        let staged = LUTEngine(cube: cube, interpolation: interpolation, colorMemory: .none,
                               stages: ChannelStages(input: { _, value in value }))
        var expected = [UInt8](repeating: 0, count: allColours.count), observed = expected
        plain.apply(allColours, to: &expected, pixelCount: 1 << 24, layout: .rgb)
        staged.apply(allColours, to: &observed, pixelCount: 1 << 24, layout: .rgb)
        #expect(sameBytes(expected, observed), "\(zip(expected, observed).filter { $0 != $1 }.count) samples differ")
    }

    /// An identity input stage on an identity cube returns every 16-bit code (the grey axis and
    /// random colours) and Float values within Float32 error.
    @Test func identityInputStageKeepsSixteenBitCodes() throws {
        let engine = LUTEngine(cube: try ColorCube.identity(size: 17), stages: ChannelStages(input: { _, value in value }))
        var generator = TestRandom(seed: 41)
        var input: [UInt16] = (0..<65536).flatMap { (code: Int) -> [UInt16] in [UInt16(code), UInt16(code), UInt16(code)] }
        for _ in 0..<65536 { input += [generator.code16(), generator.code16(), generator.code16()] }
        var output = [UInt16](repeating: 0, count: input.count)
        engine.apply(input, to: &output, pixelCount: input.count / 3, layout: .rgb)
        #expect(input == output)
        let colour = SIMD3<Float>(0.123, 0.5, 0.987)
        let sampled = engine.sample(colour)
        #expect(abs(sampled.x - colour.x) < 1e-6 && abs(sampled.y - colour.y) < 1e-6 && abs(sampled.z - colour.z) < 1e-6)
    }

    /// Input stage, output stage and both, in 8 and 16 bits and Float, against the reference: 8 and
    /// 16-bit codes within one code value, Float within 1e-5 (the engine's existing tolerances).
    @Test(arguments: [(true, false), (false, true), (true, true)])
    func stagesMatchTheReference(setting: (Bool, Bool)) throws {
        let (input, output) = setting
        let cube = try ColorCube(size: 33, sampling: lutTestLook)
        for interpolation in [Interpolation.trilinear, .tetrahedral] {
            let sampler = CubeSampler(cube: cube, interpolation: interpolation)
            let stages = ChannelStages(input: input ? Self.shaper : nil, output: output ? Self.curve : nil)
            for vectorized in [true, false] {
                let engine = LUTEngine(cube: cube, interpolation: interpolation, colorMemory: .none,
                                       stages: stages, vectorized: vectorized)
                var generator = TestRandom(seed: 43)
                let eight = (0..<30_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                var eightOut = eight
                engine.apply(eight, to: &eightOut, pixelCount: 10_000, layout: .rgb)
                let sixteen = (0..<30_000).map { _ in generator.code16() }
                var sixteenOut = sixteen
                engine.apply(sixteen, to: &sixteenOut, pixelCount: 10_000, layout: .rgb)
                var worst8 = 0, worst16 = 0, worstFloat = 0.0
                for pixel in 0..<10_000 {
                    let rgb8 = SIMD3<Double>((0..<3).map { Double(eight[3 * pixel + $0]) / 255 })
                    let rgb16 = SIMD3<Double>((0..<3).map { Double(sixteen[3 * pixel + $0]) / 65535 })
                    let look8 = Self.shapedReference(sampler, rgb8, input: input, output: output)
                    let look16 = Self.shapedReference(sampler, rgb16, input: input, output: output)
                    let float = engine.sample(SIMD3<Float>(rgb16))
                    for c in 0..<3 {
                        worst8 = max(worst8, abs(Int(eightOut[3 * pixel + c]) - code8(look8[c])))
                        worst16 = max(worst16, abs(Int(sixteenOut[3 * pixel + c]) - code16(look16[c])))
                        worstFloat = max(worstFloat, abs(Double(float[c]) - look16[c]))
                    }
                }
                let name = "\(interpolation) input \(input) output \(output) vectorized \(vectorized)"
                #expect(worst8 <= 1, "\(name): 8-bit off by \(worst8)")
                #expect(worst16 <= 1, "\(name): 16-bit off by \(worst16)")
                #expect(worstFloat < 1e-5, "\(name): Float off by \(worstFloat)")
            }
        }
    }

    /// The output table against the closure at many values inside the lattice's range: within
    /// the documented bound h^2/8 * max|f''| (h = range / 16384) plus Float32 rounding.
    @Test func outputStageIsWithinItsBound() throws {
        // An identity lattice: the look is the input, so the engine's Float output is curve(input).
        let engine = LUTEngine(cube: try ColorCube.identity(size: 9), stages: ChannelStages(output: Self.curve))
        let h = 1.0 / 16384, secondDerivative = 2.4 + 0.6  // |0.6 - 2.4 v| <= 1.8 on 0...1; 3 bounds it
        let bound = h * h / 8 * secondDerivative + 2e-7  // plus Float32 rounding of the table, the lerp and the look
        var worst = 0.0
        for step in 0...10_000 {
            let value = Double(step) / 10_000
            let sampled = engine.sample(SIMD3(repeating: Float(value)))
            for c in 0..<3 {
                worst = max(worst, abs(Double(sampled[c]) - Self.curve(c, Double(Float(value)))))
            }
        }
        #expect(worst < bound, "worst error \(worst), bound \(bound)")
        #expect(worst < 1.0 / 65535 / 20)
    }

    /// A flat channel (every node equal) reads the curve at that one value; NaN Float inputs and
    /// values outside 0...1 go through the input stage clamped.
    @Test func flatChannelsAndOutOfRangeInputs() throws {
        let cube = try ColorCube(size: 5) { SIMD3(0.25, $0.y, $0.z) }
        let engine = LUTEngine(cube: cube, stages: ChannelStages(input: Self.shaper, output: Self.curve))
        let sampled = engine.sample(SIMD3(0.7, 0.3, 0.9))
        #expect(abs(Double(sampled.x) - Self.curve(0, 0.25)) < 1e-6)
        #expect(engine.sample(SIMD3(.nan, 2, -1)) == engine.sample(SIMD3(0, 1, 0)))
    }
}
