import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// A look with curvature on every axis and crosstalk between channels, leaving 0...1 in places,
/// so that interpolation and clamping are both exercised.
func lutTestLook(_ c: SIMD3<Float>) -> SIMD3<Float> {
    let s = c * c * (3 - 2 * c)
    let grey = (s.x + s.y + s.z) / 3
    let o = grey + (s - grey) * 1.3
    return SIMD3(o.x * 1.05 + 0.02, o.y * 0.98 - 0.01, o.z * 0.9 + 0.05 * o.x)
}

/// Plain scalar trilinear, tetrahedral and nearest interpolation in Double, written independently
/// of the engine and of `CubeSampler` but with the same definition (clamp, lower node capped at
/// N-2, lerps red then green then blue, tetrahedra chosen by the order of the fractions), and
/// flat enough to evaluate 2^24 colours in a debug build. A class so that its node buffer is freed
/// with it (the sanitizer runs report leaks).
final class LUTScalarReference: @unchecked Sendable {
    let size: Int
    let interpolation: Interpolation
    /// Red, green and blue per node, red fastest; read-only after init.
    let values: UnsafeMutablePointer<Double>

    init(cube: ColorCube, interpolation: Interpolation) {
        size = cube.size
        self.interpolation = interpolation
        let count = cube.size * cube.size * cube.size
        values = .allocate(capacity: 3 * count)
        for index in 0..<count {
            let entry = cube.entry(at: index)
            values[3 * index] = Double(entry.x)
            values[3 * index + 1] = Double(entry.y)
            values[3 * index + 2] = Double(entry.z)
        }
    }

    deinit {
        values.deallocate()
    }

    /// Lower node and fraction for an input, clamped to 0...1 (NaN to 0).
    func split(_ value: Double) -> (node: Int, fraction: Double) {
        let clamped = value.isNaN ? 0 : min(max(value, 0), 1)
        let position = clamped * Double(size - 1)
        let node = min(Int(position), size - 2)
        return (node, position - Double(node))
    }

    func sample(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        let (nr, x) = split(r), (ng, y) = split(g), (nb, z) = split(b)
        return interpolate(nr, ng, nb, x, y, z)
    }

    func interpolate(_ nr: Int, _ ng: Int, _ nb: Int, _ x: Double, _ y: Double, _ z: Double) -> (Double, Double, Double) {
        let sg = 3 * size, sb = 3 * size * size
        let p = values + (3 * nr + sg * ng + sb * nb)
        switch interpolation {
        case .trilinear:
            var out: (Double, Double, Double) = (0, 0, 0)
            for c in 0..<3 {
                let c00 = p[c] + (p[3 + c] - p[c]) * x
                let c10 = p[sg + c] + (p[sg + 3 + c] - p[sg + c]) * x
                let c01 = p[sb + c] + (p[sb + 3 + c] - p[sb + c]) * x
                let c11 = p[sb + sg + c] + (p[sb + sg + 3 + c] - p[sb + sg + c]) * x
                let c0 = c00 + (c10 - c00) * y
                let c1 = c01 + (c11 - c01) * y
                let value = c0 + (c1 - c0) * z
                if c == 0 { out.0 = value } else if c == 1 { out.1 = value } else { out.2 = value }
            }
            return out
        case .tetrahedral:
            // Walk from c000 to c111 along the axes in decreasing order of their fraction.
            let (first, second, f1, f2, f3): (Int, Int, Double, Double, Double)
            if x > y {
                if y > z { (first, second, f1, f2, f3) = (3, sg, x, y, z) }
                else if x > z { (first, second, f1, f2, f3) = (3, sb, x, z, y) }
                else { (first, second, f1, f2, f3) = (sb, 3, z, x, y) }
            } else {
                if z > y { (first, second, f1, f2, f3) = (sb, sg, z, y, x) }
                else if z > x { (first, second, f1, f2, f3) = (sg, sb, y, z, x) }
                else { (first, second, f1, f2, f3) = (sg, 3, y, x, z) }
            }
            func channel(_ c: Int) -> Double {
                p[c] * (1 - f1) + p[first + c] * (f1 - f2) + p[first + second + c] * (f2 - f3) + p[sb + sg + 3 + c] * f3
            }
            return (channel(0), channel(1), channel(2))
        case .nearest:
            let offset = (x >= 0.5 ? 3 : 0) + (y >= 0.5 ? sg : 0) + (z >= 0.5 ? sb : 0)
            return (p[offset], p[offset + 1], p[offset + 2])
        }
    }
}

#if DEBUG
let isOptimizedBuild = false
#else
let isOptimizedBuild = true
#endif

/// Rounds a look value to an 8-bit code the way the reference defines it: clamp, then nearest.
func code8(_ value: Double) -> Int { Int((min(max(value, 0), 1) * 255).rounded()) }
func code16(_ value: Double) -> Int { Int((min(max(value, 0), 1) * 65535).rounded()) }
/// Byte-wise equality through memcmp: Array's == goes element by element in debug builds.
func sameBytes<T>(_ a: [T], _ b: [T]) -> Bool {
    a.count == b.count && a.withUnsafeBytes { a in b.withUnsafeBytes { b in
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        return memcmp(pa, pb, a.count) == 0
    } }
}

/// A Float32 value times `maxCode` in Float32, clamped and rounded half up, as the engine rounds.
func floatCode(_ value: Float, _ maxCode: Float) -> Int {
    Int((min(max(value * maxCode, 0), maxCode) + 0.5).rounded(.down))
}

/// All 2^24 8-bit colours as rgb24, blue slowest; built once.
let allColours = makeAllColours()

private func makeAllColours() -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: 3 << 24)
    pixels.withUnsafeMutableBufferPointer { p in
        var i = 0
        for b in 0..<256 {
            for g in 0..<256 {
                for r in 0..<256 {
                    p[i] = UInt8(r)
                    p[i + 1] = UInt8(g)
                    p[i + 2] = UInt8(b)
                    i += 3
                }
            }
        }
    }
    return pixels
}

@Suite struct LUTEngineTests {
    // MARK: Fast kernel against the scalar reference

    /// Every 8-bit colour through the fast kernel, against the plain scalar reference rounded to
    /// nearest: at most one code value apart (Float32 against Float64 near a rounding boundary).
    @Test(arguments: [Interpolation.trilinear, .tetrahedral])
    func everyEightBitColourMatchesTheLUTScalarReference(interpolation: Interpolation) throws {
        let cube = try ColorCube(size: 33, sampling: lutTestLook)
        let engine = LUTEngine(cube: cube, interpolation: interpolation)
        let reference = LUTScalarReference(cube: cube, interpolation: interpolation)
        let input = allColours
        var output = [UInt8](repeating: 0, count: input.count)
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                guard let s = source.baseAddress, let d = destination.baseAddress else { return }
                engine.apply(s, to: d, pixelCount: 1 << 24, layout: .rgb)
            }
        }
        // Blue planes in parallel; each counts its own mismatches. Debug builds check every fifth
        // blue plane for tetrahedral (the reference costs twice trilinear's), release builds all.
        let planeStep = interpolation == .tetrahedral && !isOptimizedBuild ? 5 : 1
        let splits = (0..<256).map { reference.split(Double($0) / 255) }
        let worst = UnsafeMutablePointer<Int>.allocate(capacity: 256)
        let differing = UnsafeMutablePointer<Int>.allocate(capacity: 256)
        worst.initialize(repeating: 0, count: 256)
        differing.initialize(repeating: 0, count: 256)
        defer { worst.deallocate(); differing.deallocate() }
        // Iteration b reads blue plane b of the output and writes slot b of each tally.
        let worstSlots = DisjointRegions(worst), differingSlots = DisjointRegions(differing)
        output.withUnsafeBufferPointer { out in
            guard let outBase = out.baseAddress else { return }
            let planes = DisjointRegions(outBase, itemStride: 3 * 65536)
            ParallelLoop.run(iterations: 256) { b in
                guard b % planeStep == 0 || b == 255 else { return }
                var planeWorst = 0, planeDiffering = 0
                let out = planes.start(of: b)
                var i = 0
                let sb = splits[b]
                for g in 0..<256 {
                    let sg = splits[g]
                    for r in 0..<256 {
                        let sr = splits[r]
                        let expected = reference.interpolate(sr.node, sg.node, sb.node, sr.fraction, sg.fraction, sb.fraction)
                        // code8 written out: this loop runs 2^24 times in debug builds.
                        let v0 = expected.0 * 255, v1 = expected.1 * 255, v2 = expected.2 * 255
                        let d0 = Int(out[i]) - Int(v0 < 0 ? 0 : v0 > 255 ? 255 : v0 + 0.5)
                        let d1 = Int(out[i + 1]) - Int(v1 < 0 ? 0 : v1 > 255 ? 255 : v1 + 0.5)
                        let d2 = Int(out[i + 2]) - Int(v2 < 0 ? 0 : v2 > 255 ? 255 : v2 + 0.5)
                        let e = (d0 < 0 ? -d0 : d0) > (d1 < 0 ? -d1 : d1) ? (d0 < 0 ? -d0 : d0) : (d1 < 0 ? -d1 : d1)
                        let e2 = d2 < 0 ? -d2 : d2
                        let largest = e > e2 ? e : e2
                        if largest > planeWorst { planeWorst = largest }
                        planeDiffering += (d0 != 0 ? 1 : 0) + (d1 != 0 ? 1 : 0) + (d2 != 0 ? 1 : 0)
                        i += 3
                    }
                }
                worstSlots.start(of: b).pointee = planeWorst
                differingSlots.start(of: b).pointee = planeDiffering
            }
        }
        let maxError = (0..<256).map { worst[$0] }.max() ?? 0
        let mismatches = (0..<256).map { differing[$0] }.reduce(0, +)
        #expect(maxError <= 1, "largest error \(maxError) code values")
        // Off by one only where the exact value lies within Float32 error of a half code.
        #expect(mismatches < (3 << 24) / 10_000, "\(mismatches) samples off by one")
    }

    /// The test's scalar reference is the core's `CubeSampler`, written again.
    @Test(arguments: [Interpolation.trilinear, .tetrahedral, .nearest])
    func scalarReferenceAgreesWithCubeSampler(interpolation: Interpolation) throws {
        let cube = try ColorCube(size: 9, sampling: lutTestLook)
        let sampler = CubeSampler(cube: cube, interpolation: interpolation)
        let reference = LUTScalarReference(cube: cube, interpolation: interpolation)
        var generator = TestRandom(seed: 7)
        for _ in 0..<2000 {
            let rgb = SIMD3(generator.unit(), generator.unit(), generator.unit())
            let expected = sampler.sample(rgb)
            let actual = reference.sample(rgb.x, rgb.y, rgb.z)
            #expect(abs(expected.x - actual.0) < 1e-12 && abs(expected.y - actual.1) < 1e-12
                && abs(expected.z - actual.2) < 1e-12)
        }
    }

    // MARK: Exact cases

    @Test(arguments: [4, 16, 64])
    func identityCubesReturnEveryEightBitColour(size: Int) throws {
        let input = allColours
        for interpolation in [Interpolation.trilinear, .tetrahedral] {
            let engine = LUTEngine(cube: try ColorCube.identity(size: size), interpolation: interpolation)
            var output = [UInt8](repeating: 0, count: input.count)
            input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { destination in
                    guard let s = source.baseAddress, let d = destination.baseAddress else { return }
                    engine.apply(s, to: d, pixelCount: 1 << 24, layout: .rgb)
                }
            }
            if !sameBytes(input, output) {
                let first = input.indices.first { input[$0] != output[$0] } ?? 0
                Issue.record("size \(size) \(interpolation): sample \(first) is \(output[first]), not \(input[first])")
            }
        }
    }

    /// A 256-cube has a node at every 8-bit code. Building its 16.7M entries takes seconds in a
    /// debug build, so this runs in optimised test builds (`swift test -c release`).
    @Test(.enabled(if: isOptimizedBuild, "debug build")) func identity256CubeReturnsItsInput() throws {
        let cube = try ColorCube.identity(size: 256)
        var generator = TestRandom(seed: 256)
        var input: [UInt8] = (0..<256).flatMap { (code: Int) -> [UInt8] in [UInt8(code), UInt8(code), UInt8(code)] }
        input += (0..<(3 * 65536)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let engine = LUTEngine(cube: cube, interpolation: .trilinear)
        var output = [UInt8](repeating: 0, count: input.count)
        engine.apply(input, to: &output, pixelCount: input.count / 3, layout: .rgb)
        #expect(sameBytes(output, input))
    }

    /// The engine packs any `CubeTable` without a `ColorCube` on the way; a view (the identity
    /// computed on demand) gives the same bytes as the same table stored as Float32.
    @Test func engineOverAViewMatchesEngineOverItsCopy() throws {
        let view = try IdentityTable(size: 33)
        let stored = ColorCube(view)
        var generator = TestRandom(seed: 33)
        let input = (0..<(3 * 65536)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        for interpolation in Interpolation.allCases {
            var fromView = [UInt8](repeating: 0, count: input.count)
            var fromCopy = [UInt8](repeating: 0, count: input.count)
            LUTEngine(table: view, interpolation: interpolation, colorMemory: .none)
                .apply(input, to: &fromView, pixelCount: 65536, layout: .rgb)
            LUTEngine(cube: stored, interpolation: interpolation, colorMemory: .none)
                .apply(input, to: &fromCopy, pixelCount: 65536, layout: .rgb)
            #expect(sameBytes(fromView, fromCopy), "\(interpolation)")
            if interpolation != .nearest {
                #expect(sameBytes(fromView, input), "\(interpolation)")
            }
        }
    }

    @Test func nearestSnapsToTheNearestNode() throws {
        let engine = LUTEngine(cube: try ColorCube.identity(size: 4), interpolation: .nearest)
        var pixels: [UInt8] = (0..<256).flatMap { (code: Int) -> [UInt8] in [UInt8(code), UInt8(255 - code), UInt8(code / 2)] }
        let input = pixels
        engine.apply(input, to: &pixels, pixelCount: 256, layout: .rgb)
        // Nodes at codes 0, 85, 170, 255; a code snaps to the closest (never a tie: 255 is odd).
        func snapped(_ code: UInt8) -> UInt8 { UInt8((Int(code) * 3 + 127) / 255 * 85) }
        #expect(pixels == input.map(snapped))
    }

    @Test(arguments: [Interpolation.trilinear, .tetrahedral])
    func identityIsExactInSixteenBits(interpolation: Interpolation) throws {
        for size in [4, 17, 64] {
            let engine = LUTEngine(cube: try ColorCube.identity(size: size), interpolation: interpolation)
            var generator = TestRandom(seed: UInt64(size))
            // The whole grey axis, then random colours.
            var input: [UInt16] = (0..<65536).flatMap { (code: Int) -> [UInt16] in [UInt16(code), UInt16(code), UInt16(code)] }
            for _ in 0..<65536 {
                input += [generator.code16(), generator.code16(), generator.code16()]
            }
            var output = [UInt16](repeating: 0, count: input.count)
            engine.apply(input, to: &output, pixelCount: input.count / 3, layout: .rgb)
            if input != output {
                let first = input.indices.first { input[$0] != output[$0] } ?? 0
                Issue.record("size \(size): sample \(first) is \(output[first]), not \(input[first])")
            }
        }
    }

    /// Inputs that fall on lattice nodes return the table's values, in every depth.
    @Test(arguments: [Interpolation.trilinear, .tetrahedral, .nearest])
    func latticeNodesReturnTableValues(interpolation: Interpolation) throws {
        let size = 18  // nodes every 15 codes in 8 bits, every 3855 in 16 bits
        var generator = TestRandom(seed: 3)
        let values = (0..<(size * size * size * 4)).map { _ in Float(generator.unit()) }
        let cube = try ColorCube(size: size, values: values)
        let engine = LUTEngine(cube: cube, interpolation: interpolation)
        for _ in 0..<500 {
            let node = SIMD3(Int(generator.next() % 18), Int(generator.next() % 18), Int(generator.next() % 18))
            let entry = cube.entry(r: node.x, g: node.y, b: node.z)
            var eight = [UInt8(node.x * 15), UInt8(node.y * 15), UInt8(node.z * 15)]
            engine.apply(eight, to: &eight, pixelCount: 1, layout: .rgb)
            // The engine scales in Float32, so the expectation does too (a Float64 product can
            // round the other way when it lies within Float32 error of a half code).
            #expect(eight.map(Int.init) == [floatCode(entry.x, 255), floatCode(entry.y, 255), floatCode(entry.z, 255)])
            var sixteen = [UInt16(node.x * 3855), UInt16(node.y * 3855), UInt16(node.z * 3855)]
            engine.apply(sixteen, to: &sixteen, pixelCount: 1, layout: .rgb)
            #expect(sixteen.map(Int.init) == [floatCode(entry.x, 65535), floatCode(entry.y, 65535), floatCode(entry.z, 65535)])
            let float = engine.sample(SIMD3<Float>(node) / 17)
            #expect(abs(float.x - entry.x) < 1e-6 && abs(float.y - entry.y) < 1e-6 && abs(float.z - entry.z) < 1e-6)
        }
    }

    /// Trilinear and tetrahedral interpolation reproduce an affine map exactly, so outputs are
    /// the map's values rounded (within half a code plus Float32 error).
    @Test(arguments: [Interpolation.trilinear, .tetrahedral])
    func affineMapsAreReproduced(interpolation: Interpolation) throws {
        func affine(_ c: SIMD3<Float>) -> SIMD3<Float> {
            SIMD3(0.6 * c.x + 0.2 * c.y + 0.1 * c.z + 0.05,
                  0.1 * c.x + 0.7 * c.y + 0.1 * c.z + 0.02,
                  0.2 * c.x + 0.1 * c.y + 0.5 * c.z + 0.1)
        }
        let engine = LUTEngine(cube: try ColorCube(size: 9, sampling: affine), interpolation: interpolation)
        var generator = TestRandom(seed: 11)
        let input = (0..<30_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var output = input
        engine.apply(input, to: &output, pixelCount: 10_000, layout: .rgb)
        var worst: Float = 0
        for pixel in 0..<10_000 {
            let rgb = SIMD3<Float>(Float(input[3 * pixel]), Float(input[3 * pixel + 1]), Float(input[3 * pixel + 2])) / 255
            let exact = affine(rgb) * 255
            for channel in 0..<3 {
                worst = max(worst, abs(Float(output[3 * pixel + channel]) - exact[channel]))
            }
        }
        #expect(worst <= 0.5 + 1e-3, "worst error \(worst) code values")
    }

    // MARK: Strength

    @Test(arguments: [Interpolation.trilinear, .tetrahedral, .nearest])
    func strengthZeroReturnsTheInput(interpolation: Interpolation) throws {
        let engine = LUTEngine(cube: try ColorCube(size: 17, sampling: lutTestLook), interpolation: interpolation, strength: 0)
        var generator = TestRandom(seed: 5)
        let eight = (0..<30_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var eightOut = eight
        engine.apply(eight, to: &eightOut, pixelCount: 10_000, layout: .rgb)
        #expect(eightOut == eight)
        let sixteen = (0..<30_000).map { _ in generator.code16() }
        var sixteenOut = sixteen
        engine.apply(sixteen, to: &sixteenOut, pixelCount: 10_000, layout: .rgb)
        #expect(sixteenOut == sixteen)
        let colour = SIMD3<Float>(0.25, 0.5, 0.75)
        #expect(engine.sample(colour) == colour)
    }

    @Test func strengthHalfIsTheMidpoint() throws {
        let cube = try ColorCube(size: 17, sampling: lutTestLook)
        let engine = LUTEngine(cube: cube, interpolation: .trilinear, strength: 0.5)
        let reference = LUTScalarReference(cube: cube, interpolation: .trilinear)
        var generator = TestRandom(seed: 9)
        let input = (0..<30_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var output = input
        engine.apply(input, to: &output, pixelCount: 10_000, layout: .rgb)
        for pixel in 0..<10_000 {
            let codes = (0..<3).map { Double(input[3 * pixel + $0]) }
            let look = reference.sample(codes[0] / 255, codes[1] / 255, codes[2] / 255)
            // The mix takes the look's unclamped value; the result is clamped.
            let expected = [look.0, look.1, look.2].enumerated().map { channel, value in
                Int(min(max(codes[channel] + 0.5 * (value * 255 - codes[channel]), 0), 255).rounded())
            }
            let actual = (0..<3).map { Int(output[3 * pixel + $0]) }
            #expect(zip(expected, actual).allSatisfy { abs($0 - $1) <= 1 }, "pixel \(codes): \(expected) against \(actual)")
        }
    }

    // MARK: Layouts and depths

    @Test func layoutsPlaceChannelsAndKeepAlpha() throws {
        let engine = LUTEngine(cube: try ColorCube(size: 17, sampling: lutTestLook))
        var generator = TestRandom(seed: 13)
        let rgb = (0..<3000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var expected = rgb
        engine.apply(rgb, to: &expected, pixelCount: 1000, layout: .rgb)
        let alpha = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        for layout in [PixelLayout.bgr, .rgba, .bgra] {
            var packed = [UInt8](repeating: 0, count: 1000 * layout.stride)
            for pixel in 0..<1000 {
                packed[pixel * layout.stride + layout.red] = rgb[3 * pixel]
                packed[pixel * layout.stride + layout.green] = rgb[3 * pixel + 1]
                packed[pixel * layout.stride + layout.blue] = rgb[3 * pixel + 2]
                if layout.stride == 4 { packed[pixel * 4 + 3] = alpha[pixel] }
            }
            var separate = [UInt8](repeating: 0, count: packed.count)
            engine.apply(packed, to: &separate, pixelCount: 1000, layout: layout)
            packed.withUnsafeMutableBufferPointer { buffer in  // in place
                guard let base = buffer.baseAddress else { return }
                engine.apply(base, to: base, pixelCount: 1000, layout: layout)
            }
            #expect(separate == packed)
            for pixel in 0..<1000 {
                #expect(packed[pixel * layout.stride + layout.red] == expected[3 * pixel])
                #expect(packed[pixel * layout.stride + layout.green] == expected[3 * pixel + 1])
                #expect(packed[pixel * layout.stride + layout.blue] == expected[3 * pixel + 2])
                if layout.stride == 4 { #expect(packed[pixel * 4 + 3] == alpha[pixel]) }
            }
        }
    }

    @Test(arguments: [Interpolation.trilinear, .tetrahedral, .nearest])
    func sixteenBitsAndFloatsMatchTheLUTScalarReference(interpolation: Interpolation) throws {
        let cube = try ColorCube(size: 33, sampling: lutTestLook)
        let engine = LUTEngine(cube: cube, interpolation: interpolation)
        let reference = LUTScalarReference(cube: cube, interpolation: interpolation)
        var generator = TestRandom(seed: 17)
        let input = (0..<30_000).map { _ in generator.code16() }
        var output = input
        engine.apply(input, to: &output, pixelCount: 10_000, layout: .rgb)
        var red = (0..<10_000).map { _ in Float(generator.unit()) }
        var green = (0..<10_000).map { _ in Float(generator.unit()) }
        var blue = (0..<10_000).map { _ in Float(generator.unit()) }
        let floats = (red, green, blue)
        red.withUnsafeMutableBufferPointer { r in
            green.withUnsafeMutableBufferPointer { g in
                blue.withUnsafeMutableBufferPointer { b in
                    guard let r = r.baseAddress, let g = g.baseAddress, let b = b.baseAddress else { return }
                    engine.apply(red: r, green: g, blue: b, pixelCount: 10_000)
                }
            }
        }
        for pixel in 0..<10_000 {
            let codes = (0..<3).map { Double(input[3 * pixel + $0]) / 65535 }
            let look = reference.sample(codes[0], codes[1], codes[2])
            #expect(abs(Int(output[3 * pixel]) - code16(look.0)) <= 1)
            #expect(abs(Int(output[3 * pixel + 1]) - code16(look.1)) <= 1)
            #expect(abs(Int(output[3 * pixel + 2]) - code16(look.2)) <= 1)
            let floatLook = reference.sample(Double(floats.0[pixel]), Double(floats.1[pixel]), Double(floats.2[pixel]))
            #expect(abs(Double(red[pixel]) - floatLook.0) < 1e-5)
            #expect(abs(Double(green[pixel]) - floatLook.1) < 1e-5)
            #expect(abs(Double(blue[pixel]) - floatLook.2) < 1e-5)
        }
    }

    /// Float inputs outside 0...1 read as the nearest bound and NaN as 0; outputs stay unclamped.
    @Test func floatInputsAreClamped() throws {
        let cube = try ColorCube(size: 17, sampling: lutTestLook)
        let engine = LUTEngine(cube: cube)
        #expect(engine.sample(SIMD3(-3, 0.5, 7)) == engine.sample(SIMD3(0, 0.5, 1)))
        #expect(engine.sample(SIMD3(.nan, .infinity, -.infinity)) == engine.sample(SIMD3(0, 1, 0)))
        // The look leaves 0...1 at white (1.05 + 0.02 in red): the output is not clamped.
        #expect(engine.sample(SIMD3(1, 1, 1)).x > 1)
    }
}
