import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Engine speed in memory, without pipes or files: printed figures, no assertions on time (the
/// machine is shared). Skipped unless COLORCUBE_BENCH is set; run in release:
///
///     COLORCUBE_BENCH=1 swift test -c release --filter EngineSpeedTests
///
/// COLORCUBE_BENCH_FRAME names a raw rgb24 file to use as the frame (its first 24 Mpx); without
/// it the frame is a smooth synthetic gradient. Each figure is the median of 5 runs; "1 thread" is
/// thread CPU time on the calling thread (steady under load), "all cores" is wall time.
@Suite(.serialized, .enabled(if: getenv("COLORCUBE_BENCH") != nil, "set COLORCUBE_BENCH=1 to measure"))
struct EngineSpeedTests {
    static let width = 6000, height = 4000

    /// The frame: a file's first frame, or a gradient with texture.
    static func frame() -> [UInt8] {
        let count = width * height * 3
        if let path = getenv("COLORCUBE_BENCH_FRAME"), let file = fopen(path, "rb") {
            defer { fclose(file) }
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
            if read == count { return bytes }
        }
        var bytes = [UInt8](repeating: 0, count: count)
        var generator = TestRandom(seed: 1)
        for y in 0..<height {
            for x in 0..<width {
                let i = 3 * (y * width + x)
                let noise = Int(generator.next() % 5)
                bytes[i] = UInt8(truncatingIfNeeded: x * 255 / width + noise)
                bytes[i + 1] = UInt8(truncatingIfNeeded: y * 255 / height + noise)
                bytes[i + 2] = UInt8(truncatingIfNeeded: (x + y) * 255 / (width + height) + noise)
            }
        }
        return bytes
    }

    static func seconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Median Mpx/s of `runs` applications of `make()`'s engine to `input` (one engine for all
    /// runs, or a new one each run when `fresh`: a colour memo that starts empty every time).
    static func rate(_ make: () -> LUTEngine, _ input: [UInt8], parallel: Bool, fresh: Bool, runs: Int = 5) -> Double {
        var output = [UInt8](repeating: 0, count: input.count)
        let clock = parallel ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID
        var rates: [Double] = []
        var engine = make()
        for run in 0..<runs {
            if fresh && run > 0 { engine = make() }
            let start = seconds(clock)
            engine.apply(input, to: &output, pixelCount: input.count / 3, layout: .rgb, parallel: parallel)
            rates.append(Double(input.count / 3) / 1e6 / (seconds(clock) - start))
        }
        return rates.sorted()[runs / 2]
    }

    static func line(_ name: String, _ input: [UInt8], fresh: Bool = false, _ make: () -> LUTEngine) -> String {
        let single = rate(make, input, parallel: false, fresh: fresh)
        let all = rate(make, input, parallel: true, fresh: fresh)
        return "\(name): \(Int(single.rounded())) Mpx/s on 1 thread, \(Int(all.rounded())) Mpx/s on all cores"
    }

    @Test func eightBitStream() throws {
        let cube = try ColorCube(size: 64, sampling: lutTestLook)
        let input = Self.frame()
        for interpolation in [Interpolation.trilinear, .tetrahedral] {
            for vectorized in [false, true] {
                let name = "8-bit \(interpolation), \(vectorized ? "vector" : "portable")"
                print(Self.line("\(name), no memo", input) {
                    LUTEngine(cube: cube, interpolation: interpolation, colorMemory: .none, vectorized: vectorized)
                })
                print(Self.line("\(name), memo filling", input, fresh: true) {
                    LUTEngine(cube: cube, interpolation: interpolation, vectorized: vectorized)
                })
                print(Self.line("\(name), memo filled", input) {
                    LUTEngine(cube: cube, interpolation: interpolation, vectorized: vectorized)
                })
            }
        }
        // The fixed-point loop needs a look inside 0...1: the same look held there, both loops.
        let inside = try ColorCube(size: 64, sampling: FixedPointKernelTests.look)
        for fixedPoint in [false, true] {
            print(Self.line("8-bit trilinear, look in 0...1, \(fixedPoint ? "fixed point" : "Float vector"), no memo", input) {
                LUTEngine(cube: inside, colorMemory: .none, fixedPoint: fixedPoint)
            })
        }
    }

    /// The 1D + 3D + 1D shape against the lattice alone (no memo, so every pixel is interpolated):
    /// an input stage (folded into the 8-bit tables), an output stage, both.
    @Test func stagedChains() throws {
        let cube = try ColorCube(size: 64, sampling: lutTestLook)
        let input = Self.frame()
        let shaper: @Sendable (Int, Double) -> Double = { _, v in v * (0.7 + 0.3 * v) }
        let curve: @Sendable (Int, Double) -> Double = { _, v in 0.9 * v + 0.1 * v * v }
        let chains: [(String, ChannelStages)] = [
            ("3D alone", .none), ("1D + 3D", ChannelStages(input: shaper)), ("3D + 1D", ChannelStages(output: curve)),
            ("1D + 3D + 1D", ChannelStages(input: shaper, output: curve)),
        ]
        for interpolation in [Interpolation.trilinear, .tetrahedral] {
            for (name, stages) in chains {
                print(Self.line("8-bit \(interpolation) \(name), no memo", input) {
                    LUTEngine(cube: cube, interpolation: interpolation, colorMemory: .none, stages: stages)
                })
                print(Self.line("8-bit \(interpolation) \(name), memo filling", input, fresh: true) {
                    LUTEngine(cube: cube, interpolation: interpolation, stages: stages)
                })
            }
        }
    }

    /// 16-bit interleaved and planar Float frames (the same frame, widened), lattice alone.
    @Test func sixteenBitAndFloat() throws {
        let cube = try ColorCube(size: 64, sampling: lutTestLook)
        let eight = Self.frame()
        let sixteen = eight.map { UInt16($0) * 257 }
        let pixels = eight.count / 3
        for interpolation in [Interpolation.trilinear, .tetrahedral] {
            let engine = LUTEngine(cube: cube, interpolation: interpolation)
            var output = sixteen
            var rates: [Double] = []
            for _ in 0..<5 {
                let start = Self.seconds(CLOCK_MONOTONIC)
                engine.apply(sixteen, to: &output, pixelCount: pixels, layout: .rgb)
                rates.append(Double(pixels) / 1e6 / (Self.seconds(CLOCK_MONOTONIC) - start))
            }
            print("16-bit \(interpolation): \(Int(rates.sorted()[2].rounded())) Mpx/s on all cores")
            let red = (0..<pixels).map { Float(eight[3 * $0]) / 255 }
            let green = (0..<pixels).map { Float(eight[3 * $0 + 1]) / 255 }
            let blue = (0..<pixels).map { Float(eight[3 * $0 + 2]) / 255 }
            for vectorized in [false, true] {
                let planar = LUTEngine(cube: cube, interpolation: interpolation, vectorized: vectorized)
                for parallel in [false, true] {
                    let clock = parallel ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID
                    rates = []
                    for _ in 0..<5 {
                        var (r, g, b) = (red, green, blue)
                        (r[0], g[0], b[0]) = (red[0], green[0], blue[0])  // copied here, not on the clock
                        let start = Self.seconds(clock)
                        planar.apply(red: &r, green: &g, blue: &b, pixelCount: pixels, parallel: parallel)
                        rates.append(Double(pixels) / 1e6 / (Self.seconds(clock) - start))
                    }
                    print("Float planar \(interpolation), \(vectorized ? "vector" : "portable"): "
                          + "\(Int(rates.sorted()[2].rounded())) Mpx/s on \(parallel ? "all cores" : "1 thread")")
                }
            }
        }
    }
}
