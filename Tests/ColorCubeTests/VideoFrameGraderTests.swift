import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
import Foundation
import Testing

/// colorcube's own YCbCr <-> RGB conversion around the look, on frames made here: no FFmpeg.
@Suite struct VideoFrameGraderTests {
    @Test(arguments: [
        ("yuv420p", "yuv420p", 1, 1, 8), ("yuv422p10le", "yuv422p10le", 1, 0, 10),
        ("yuv444p12be", "yuv444p12le", 0, 0, 12), ("yuv420p16le", "yuv420p16le", 1, 1, 16),
        ("yuvj420p", "yuv420p", 1, 1, 8), ("yuvj444p", "yuv444p", 0, 0, 8),
    ] as [(String, String, Int, Int, Int)])
    func planarYCbCrFormatsAreGradedInTheirOwnLayout(source: String, name: String, shiftX: Int, shiftY: Int, depth: Int) throws {
        let format = try #require(YCbCrFrameFormat(source: VideoPixelFormat(source)))
        #expect(format.name == name)
        #expect(format.chromaShiftX == shiftX && format.chromaShiftY == shiftY && format.bitDepth == depth)
    }

    @Test(arguments: ["yuvj411p", "nv12", "p010le", "yuva420p", "yuv411p", "yuv440p", "gbrp10le", "rgb24", "gray", "yuv420p8le"])
    func otherFormatsGoThroughTheScaler(source: String) {
        #expect(YCbCrFrameFormat(source: VideoPixelFormat(source)) == nil)
    }

    @Test func oddSizesRoundChromaUp() throws {
        let format = try #require(YCbCrFrameFormat(source: VideoPixelFormat("yuv420p10le")))
        #expect(format.chromaWidth(7) == 4 && format.chromaHeight(5) == 3)
        #expect(format.frameBytes(width: 7, height: 5) == (35 + 2 * 12) * 2)
    }

    /// Random codes, many of them colours far outside the RGB cube: an identity look gives every
    /// byte back, whatever the depth, subsampling, range and matrix.
    @Test(arguments: [
        ("yuv420p", .bt709, false), ("yuv422p", .smpte170m, true), ("yuv444p", .bt2020nc, false),
        ("yuv420p10le", .bt709, false), ("yuv422p10le", .bt470bg, true),
        ("yuv444p12le", .bt2020nc, false), ("yuv420p16le", .smpte240m, true),
    ] as [(String, VideoColor.Matrix, Bool)])
    func identityLookReturnsEveryFrameBitForBit(pixelFormat: String, matrix: VideoColor.Matrix, fullRange: Bool) throws {
        let format = try #require(YCbCrFrameFormat(source: VideoPixelFormat(pixelFormat)))
        let width = 37, height = 11
        let engine = LUTEngine(cube: try ColorCube.identity(size: 17))
        let grader = try #require(YCbCrFrameGrader(engine: engine, format: format, width: width, height: height,
                                                   matrix: matrix, fullRange: fullRange))
        var generator = TestRandom(seed: 20)
        let sampleCount = format.frameBytes(width: width, height: height) / format.bytesPerSample
        let maxCode = UInt64((1 << format.bitDepth) - 1)
        var frame = Data()
        for _ in 0..<sampleCount {
            let code = generator.next() % (maxCode + 1)
            if format.bytesPerSample == 1 {
                frame.append(UInt8(code))
            } else {
                frame.append(UInt8(code & 0xFF))
                frame.append(UInt8(code >> 8))
            }
        }
        var graded = frame
        graded.withUnsafeMutableBytes { grader.grade($0.baseAddress!) }
        let differing = zip(frame, graded).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(frame.count) bytes changed")
    }

    /// In-cube colours in an 8-bit BT.709 limited-range 4:4:4 frame against a scalar reference:
    /// the codes converted to RGB in Float64, the look applied by `LUTEngine.sample`, converted
    /// back and rounded; within 2 codes (the engine's 8-bit rounding of the colour it sees).
    @Test func realLookMatchesAScalarReferenceInsideTheCube() throws {
        let format = try #require(YCbCrFrameFormat(source: VideoPixelFormat("yuv444p")))
        let engine = LUTEngine(cube: try ColorCube(size: 17) { rgb in
            SIMD3(rgb.x * rgb.x, 0.2 + 0.6 * rgb.y, 1 - rgb.z)
        })
        let width = 6 * 6 * 6, height = 1
        let grader = try #require(YCbCrFrameGrader(engine: engine, format: format, width: width, height: height,
                                                   matrix: .bt709, fullRange: false))
        let (kr, kb) = (0.2126, 0.0722), kg = 1 - kr - kb
        func ycbcr(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
            let y = kr * rgb.x + kg * rgb.y + kb * rgb.z
            return SIMD3(16 + 219 * y, 128 + 224 * (rgb.z - y) / (2 * (1 - kb)), 128 + 224 * (rgb.x - y) / (2 * (1 - kr)))
        }
        func rgb(_ codes: SIMD3<Double>) -> SIMD3<Double> {
            let y = (codes.x - 16) / 219, cb = (codes.y - 128) / 224, cr = (codes.z - 128) / 224
            let r = y + 2 * (1 - kr) * cr, b = y + 2 * (1 - kb) * cb
            return SIMD3(r, (y - kr * r - kb * b) / kg, b)
        }
        var codes: [SIMD3<Double>] = []
        for r in 0..<6 { for g in 0..<6 { for b in 0..<6 {
            // Kept off the faces of the cube, so that rounding to codes cannot leave it.
            let colour = SIMD3(Double(r), Double(g), Double(b)) * 0.18 + 0.03
            codes.append((ycbcr(colour)).rounded(.toNearestOrEven))
        } } }
        var frame = [UInt8](repeating: 0, count: format.frameBytes(width: width, height: height))
        for (index, code) in codes.enumerated() {
            frame[index] = UInt8(code.x)
            frame[width + index] = UInt8(code.y)
            frame[2 * width + index] = UInt8(code.z)
        }
        frame.withUnsafeMutableBytes { grader.grade($0.baseAddress!) }
        var worst = 0.0
        for (index, code) in codes.enumerated() {
            let looked = engine.sample(SIMD3<Float>(rgb(code)))
            let expected = ycbcr(SIMD3<Double>(looked))
            let observed = SIMD3(Double(frame[index]), Double(frame[width + index]), Double(frame[2 * width + index]))
            let difference = observed - expected
            worst = max(worst, abs(difference.x), abs(difference.y), abs(difference.z))
        }
        #expect(worst <= 2, "largest difference \(worst) codes")
    }

    /// 8-bit frames graded from the colour memo against the Float path on every pixel (random
    /// codes, odd sizes so that edge blocks are partial, a look that moves every face of the
    /// cube): luma equal, chroma within one code (the memo averages quarter codes). Graded a
    /// second time, when every colour is remembered, the frame comes out the same.
    @Test(arguments: [
        ("yuv420p", .bt709, false), ("yuv422p", .smpte170m, true), ("yuv444p", .bt709, true), ("yuv420p", .smpte240m, true),
    ] as [(String, VideoColor.Matrix, Bool)])
    func memoizedEightBitFramesMatchTheFloatPath(pixelFormat: String, matrix: VideoColor.Matrix, fullRange: Bool) throws {
        let format = try #require(YCbCrFrameFormat(source: VideoPixelFormat(pixelFormat)))
        let width = 37, height = 11
        let engine = LUTEngine(cube: try ColorCube(size: 17) { rgb in
            SIMD3(0.1 + 0.8 * rgb.x * rgb.x, 1 - 0.7 * rgb.y, 0.5 * rgb.z + 0.25 * rgb.x)
        })
        let memoized = try #require(YCbCrFrameGrader(engine: engine, format: format, width: width, height: height,
                                                     matrix: matrix, fullRange: fullRange))
        let reference = try #require(YCbCrFrameGrader(engine: engine, format: format, width: width, height: height,
                                                      matrix: matrix, fullRange: fullRange, reference: true))
        var generator = TestRandom(seed: 21)
        let bytes = format.frameBytes(width: width, height: height)
        // Few luma and chroma values, so that colours repeat within and across frames.
        let frame = (0..<bytes).map { _ in UInt8(truncatingIfNeeded: generator.next() % 16 * 17) }
        var expected = frame, first = frame, second = frame
        expected.withUnsafeMutableBytes { reference.grade($0.baseAddress!) }
        first.withUnsafeMutableBytes { memoized.grade($0.baseAddress!) }
        second.withUnsafeMutableBytes { memoized.grade($0.baseAddress!) }
        let lumaDifferences = (0..<(width * height)).filter { expected[$0] != first[$0] }.count
        let worstChroma = ((width * height)..<bytes).map { abs(Int(expected[$0]) - Int(first[$0])) }.max() ?? 0
        #expect(lumaDifferences == 0, "\(lumaDifferences) luma codes differ from the Float path")
        #expect(worstChroma <= 1, "chroma differs by up to \(worstChroma) codes")
        #expect(first == second, "a frame graded from remembered colours differs from its first grading")
        #expect(first != frame, "the look changed nothing")
    }
}
