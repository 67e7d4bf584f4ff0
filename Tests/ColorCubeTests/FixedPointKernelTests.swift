import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
import Testing

/// The fixed-point 8-bit trilinear loop (Int16 lattice; `LUTEngine`'s `fixedPoint`) against the
/// exact trilinear value in Double and against the Float AVX2 loop. Skipped where the CPU has no
/// AVX2 (there the portable loops run).
@Suite(.enabled(if: LUTEngine.hasVectorKernel, "no AVX2 on this CPU"))
struct FixedPointKernelTests {
    /// The test look held inside 0...1, as the fixed-point loop requires.
    static func look(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let v = lutTestLook(c)
        return v.replacing(with: 0, where: v .< 0).replacing(with: 1, where: v .> 1)
    }

    /// The error bound of cclattice_trilinear8_fixed where neighbouring nodes differ by little:
    /// 2 units of 1/128 code (see cclattice.h).
    static let bound = 1.0 / 64

    /// All 2^24 colours through a 64-cube: every 8-bit output is the exact value rounded to
    /// nearest, except where that value lies within `bound` of a half code, and there it is the
    /// neighbouring code. The count of such samples is printed.
    @Test func everyEightBitColourIsTheExactValueRoundedOrNextToAHalfCode() throws {
        let cube = try ColorCube(size: 64, sampling: Self.look)
        let engine = LUTEngine(cube: cube, colorMemory: .none)
        #expect(engine.isFixedPoint)
        var output = [UInt8](repeating: 0, count: allColours.count)
        engine.apply(allColours, to: &output, pixelCount: 1 << 24, layout: .rgb)
        let reference = LUTScalarReference(cube: cube, interpolation: .trilinear)
        var differing = 0, farthest = 0.0, worst = 0
        output.withUnsafeBufferPointer { out in
            for colour in 0..<(1 << 24) {
                let r = colour & 255, g = (colour >> 8) & 255, b = colour >> 16
                let exact = reference.sample(Double(r) / 255, Double(g) / 255, Double(b) / 255)
                for (channel, value) in [exact.0, exact.1, exact.2].enumerated() {
                    let got = Int(out[3 * colour + channel]), expected = code8(value)
                    guard got != expected else { continue }
                    let scaled = min(max(value, 0), 1) * 255
                    differing += 1
                    worst = max(worst, abs(got - expected))
                    farthest = max(farthest, abs(scaled - scaled.rounded(.down) - 0.5))
                }
            }
        }
        print("fixed point: \(differing) of \(3 << 24) samples differ from the exact value rounded, "
              + "by at most \(worst), the exact value at most \(farthest) of a code from a half code")
        #expect(worst <= 1)
        #expect(farthest <= Self.bound)
    }

    /// Every layout, short runs and tails, in place and not: within one code of the Float AVX2
    /// loop, the same bytes in place as out of place, and the fourth sample copied.
    @Test func layoutsAndRunsMatchTheFloatLoop() throws {
        let cube = try ColorCube(size: 17, sampling: Self.look)
        let fixed = LUTEngine(cube: cube, colorMemory: .none)
        let float = LUTEngine(cube: cube, colorMemory: .none, fixedPoint: false)
        #expect(fixed.isFixedPoint && !float.isFixedPoint && float.isVectorized)
        var generator = TestRandom(seed: 31)
        let odd = PixelLayout(stride: 4, red: 1, green: 3, blue: 0)
        for layout in [PixelLayout.rgb, .bgr, .rgba, .bgra, odd] {
            for pixels in [1, 2, 3, 4, 5, 6, 7, 4099] {
                let input = (0..<(pixels * layout.stride)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                let expected = VectorKernelTests.run(float, input, layout)
                let got = VectorKernelTests.run(fixed, input, layout)
                let (worst, differing) = VectorKernelTests.compare(expected, got)
                #expect(worst <= 1 && differing * 100 <= input.count, "\(layout) \(pixels): \(differing) off by up to \(worst)")
                if layout.stride == 4 {
                    let extra = 6 - layout.red - layout.green - layout.blue
                    #expect(stride(from: extra, to: input.count, by: 4).allSatisfy { got[$0] == input[$0] })
                }
                var inPlace = input
                inPlace.withUnsafeMutableBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    fixed.apply(base, to: base, pixelCount: pixels, layout: layout)
                }
                #expect(inPlace == got, "in place: \(layout) \(pixels)")
            }
        }
    }

    /// Identity cubes of several sizes return every 8-bit colour unchanged through the fixed loop.
    @Test(arguments: [2, 17, 64])
    func identityReturnsEveryCode(size: Int) throws {
        let engine = LUTEngine(table: try IdentityTable(size: size), colorMemory: .none)
        #expect(engine.isFixedPoint)
        // Every red and green pair, blue their sum: every code on every channel, and each cell.
        var input = [UInt8]()
        for pair in 0..<(256 * 256) {
            let red = pair & 255, green = pair >> 8
            input += [UInt8(red), UInt8(green), UInt8((red + green) & 255)]
        }
        let output = VectorKernelTests.run(engine, input, .rgb)
        #expect(sameBytes(input, output))
    }

    /// The loop runs only where the look allows it; otherwise the Float loops do.
    @Test func runsOnlyWhereTheLookFits() throws {
        let inside = try ColorCube(size: 9, sampling: Self.look)
        let outside = try ColorCube(size: 9, sampling: lutTestLook)  // leaves 0...1 by more than 1/255
        #expect(LUTEngine(cube: inside).isFixedPoint)
        #expect(!LUTEngine(cube: outside).isFixedPoint)
        #expect(!LUTEngine(cube: inside, interpolation: .tetrahedral).isFixedPoint)
        #expect(!LUTEngine(cube: inside, strength: 0.5).isFixedPoint)
        #expect(!LUTEngine(cube: inside, stages: ChannelStages(input: { _, value in value })).isFixedPoint)
        #expect(!LUTEngine(cube: inside, stages: ChannelStages(output: { _, value in value })).isFixedPoint)
        #expect(!LUTEngine(cube: inside, vectorized: false).isFixedPoint)
        #expect(!LUTEngine(cube: inside, fixedPoint: false).isFixedPoint)
        #expect(LUTEngine(table: try IdentityTable(size: 129)).isFixedPoint)
        #expect(!LUTEngine(table: try IdentityTable(size: 130)).isFixedPoint)  // see FixedPointLattice.largestSize
        var values = [Float](repeating: 0.5, count: 4 * 729)
        values[401] = .nan
        #expect(!LUTEngine(cube: try ColorCube(size: 9, values: values)).isFixedPoint)
    }
}
