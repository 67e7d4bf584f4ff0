@testable import ColorCubeApplier
import ColorCubeConverter
import ColorCubeCore
import ColorCubeEngine
import ColorCubeTransform
import Foundation
import Testing

/// Deeper clips graded from the lattice of per-pixel results (`YCbCrLattice`) against the Float
/// path on every pixel (`reference: true`).
@Suite struct VideoLatticeGraderTests {
    /// The sample look of the README: a 33-cube made for photos.
    static func tealOrange() throws -> LUTEngine {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("LUTs/teal-orange.cube").path
        return try LUTEngine(transform: LUTReader.read(path: path).transform)
    }

    /// A frame of in-gamut colours as a camera gives them: each pixel an RGB colour near its
    /// block's, converted with BT.709's or BT.2020's luma weights; chroma the block's mean.
    static func naturalFrame(format: YCbCrFrameFormat, width: Int, height: Int, fullRange: Bool, kr: Double, kb: Double,
                             seed: UInt64, signal: (SIMD3<Double>) -> SIMD3<Double> = { $0 }) -> [UInt16] {
        var generator = TestRandom(seed: seed)
        func random() -> Double { Double(generator.next() % 1_000_001) / 1_000_000 }
        let maxCode = Double((1 << format.bitDepth) - 1), step = Double(1 << (format.bitDepth - 8))
        let (lumaOffset, lumaUnit) = fullRange ? (0.0, maxCode) : (16 * step, 219 * step)
        let (chromaOffset, chromaUnit) = fullRange ? (Double(1 << (format.bitDepth - 1)), maxCode) : (128 * step, 224 * step)
        let chromaWidth = format.chromaWidth(width), chromaHeight = format.chromaHeight(height)
        var frame = [UInt16](repeating: 0, count: format.frameBytes(width: width, height: height) / 2)
        for by in 0..<chromaHeight {
            for bx in 0..<chromaWidth {
                let base = SIMD3(random(), random(), random())
                var sum = SIMD2<Double>.zero, count = 0.0
                for y in (by << format.chromaShiftY)..<min(height, (by + 1) << format.chromaShiftY) {
                    for x in (bx << format.chromaShiftX)..<min(width, (bx + 1) << format.chromaShiftX) {
                        let rgb = signal((base * (0.85 + 0.15 * random())).clamped(lowerBound: .zero, upperBound: .one))
                        let luma = kr * rgb.x + (1 - kr - kb) * rgb.y + kb * rgb.z
                        frame[y * width + x] = UInt16((lumaOffset + lumaUnit * luma).rounded())
                        sum += SIMD2((rgb.z - luma) / (2 * (1 - kb)), (rgb.x - luma) / (2 * (1 - kr)))
                        count += 1
                    }
                }
                let mean = sum / count
                frame[width * height + by * chromaWidth + bx] = UInt16((chromaOffset + chromaUnit * mean.x).rounded())
                frame[width * height + chromaWidth * chromaHeight + by * chromaWidth + bx] =
                    UInt16((chromaOffset + chromaUnit * mean.y).rounded())
            }
        }
        return frame
    }

    /// Uniformly random codes: mostly colours far outside the RGB cube.
    static func randomFrame(format: YCbCrFrameFormat, width: Int, height: Int, seed: UInt64) -> [UInt16] {
        var generator = TestRandom(seed: seed)
        let count = format.frameBytes(width: width, height: height) / 2
        return (0..<count).map { _ in UInt16(generator.next() % UInt64(1 << format.bitDepth)) }
    }

    /// The largest and the mean difference, in codes of the clip's depth.
    static func compare(_ grader: YCbCrFrameGrader, _ reference: YCbCrFrameGrader, frame: [UInt16]) -> (worst: Int, mean: Double) {
        var fast = frame, slow = frame
        fast.withUnsafeMutableBytes { grader.grade($0.baseAddress!) }
        slow.withUnsafeMutableBytes { reference.grade($0.baseAddress!) }
        let differences = zip(fast, slow).map { abs(Int($0) - Int($1)) }
        return (differences.max() ?? 0, Double(differences.reduce(0, +)) / Double(frame.count))
    }

    /// SDR clips: the sample look is a 33-cube read tetrahedrally, which the lattice's tetrahedra
    /// subdivide, so the two agree but for rounding.
    @Test(arguments: [
        ("yuv420p10le", VideoColor.Matrix.bt709, false), ("yuv422p10le", .bt709, true), ("yuv444p12le", .bt2020nc, false),
        ("yuv420p16le", .bt709, false),
    ])
    func latticeAgreesWithTheFloatPath(pixelFormat: String, matrix: VideoColor.Matrix, fullRange: Bool) throws {
        let format = try #require(YCbCrFrameFormat(source: VideoPixelFormat(pixelFormat)))
        let width = 61, height = 33
        let engine = try Self.tealOrange()
        let grader = try #require(YCbCrFrameGrader(engine: engine, format: format, width: width, height: height,
                                                   matrix: matrix, fullRange: fullRange))
        let reference = try #require(YCbCrFrameGrader(engine: engine, format: format, width: width, height: height,
                                                      matrix: matrix, fullRange: fullRange, reference: true))
        #expect(grader.lattice != nil && reference.lattice == nil)
        let (kr, kb) = try #require(matrix.lumaCoefficients)
        let natural = Self.compare(grader, reference, frame: Self.naturalFrame(
            format: format, width: width, height: height, fullRange: fullRange, kr: Double(kr), kb: Double(kb), seed: 31))
        let random = Self.compare(grader, reference, frame: Self.randomFrame(format: format, width: width, height: height, seed: 32))
        // In 10-bit codes. Measured: natural colours within 1 code (mean 0.02), random codes within 2.
        let scale = Double(1 << (format.bitDepth - 10))
        #expect(Double(natural.worst) <= scale && natural.mean <= 0.05 * scale, "\(pixelFormat): \(natural)")
        #expect(Double(random.worst) <= 2 * scale, "\(pixelFormat): \(random)")
    }

    /// HDR clips, kept or made SDR: natural colours (SDR ones at reference white, their brightest
    /// raised to highlights) and random codes.
    @Test(arguments: [HDRRendition.Signal.pq, .hlg], [true, false])
    func latticeAgreesWithTheFloatPathOnHDR(signal: HDRRendition.Signal, keep: Bool) throws {
        let format = try #require(YCbCrFrameFormat(source: VideoPixelFormat("yuv420p10le")))
        let width = 61, height = 33
        let engine = try Self.tealOrange()
        let rendition = HDRRendition(signal: signal)
        let mapping = HDRFrameMapping(rendition: rendition, mode: keep ? .keep : .toSDR(HighlightRollOff(peakLuminance: 1000)))
        func grader(reference: Bool) throws -> YCbCrFrameGrader {
            try #require(YCbCrFrameGrader(engine: engine, format: format, width: width, height: height, matrix: .bt2020nc,
                                          fullRange: false, reference: reference, hdr: mapping, outputMatrix: keep ? nil : .bt709))
        }
        // SDR colours placed at reference white, the brightest of them raised to highlights up to 4 times as bright.
        let natural = Self.compare(try grader(reference: false), try grader(reference: true), frame: Self.naturalFrame(
            format: format, width: width, height: height, fullRange: false, kr: 0.2627, kb: 0.0593, seed: 33) { sdr in
                let headroom = Float(1 + 3 * max(0, sdr.max() - 0.8) / 0.2)
                return SIMD3<Double>(mapping.signal(of: SIMD3<Float>(sdr), headroom: headroom))
            })
        let random = Self.compare(try grader(reference: false), try grader(reference: true),
                                  frame: Self.randomFrame(format: format, width: width, height: height, seed: 34))
        if keep {
            // The lattice resamples the whole mapping at 1/64 of the signal (measured: within 3
            // codes, mean 0.2). Random codes are not held to it: far outside the gamut the
            // excursion fades by 32 times the look's change, which magnifies any difference.
            #expect(natural.worst <= 4 && natural.mean <= 0.3, "\(signal) kept: \(natural)")
            #expect(random.mean <= 2, "\(signal) kept, random codes: \(random)")
        } else {
            // The rendition is computed per pixel; the lattice holds the look alone (measured: within 1 code).
            #expect(natural.worst <= 1 && natural.mean <= 0.05, "\(signal) made SDR: \(natural)")
            #expect(random.worst <= 2, "\(signal) made SDR, random codes: \(random)")
        }
    }

    /// The kernel's vector loop (eight pixels at once where the processor has AVX2) against its
    /// scalar loop, on SDR, HDR kept and HDR made SDR: within one code (fused multiply-adds round
    /// differently), and equal on all but a few samples.
    @Test(arguments: [nil, HDRFrameMapping.Mode.keep, .toSDR(HighlightRollOff(peakLuminance: 1000))])
    func vectorLoopAgreesWithTheScalarLoop(mode: HDRFrameMapping.Mode?) throws {
        let format = try #require(YCbCrFrameFormat(source: VideoPixelFormat("yuv420p10le")))
        let width = 301, height = 17
        let mapping = mode.map { HDRFrameMapping(rendition: HDRRendition(signal: .pq), mode: $0) }
        let grader = try #require(YCbCrFrameGrader(engine: try Self.tealOrange(), format: format, width: width, height: height,
                                                   matrix: .bt2020nc, fullRange: false, hdr: mapping,
                                                   outputMatrix: mode == .keep || mode == nil ? nil : .bt709))
        let lattice = try #require(grader.lattice)
        let frame = Self.naturalFrame(format: format, width: width, height: height, fullRange: false, kr: 0.2627, kb: 0.0593, seed: 35)

        var vector = frame, scalar = frame
        vector.withUnsafeMutableBytes { grader.grade($0.baseAddress!) }
        lattice.onePixelAtATime = true
        scalar.withUnsafeMutableBytes { grader.grade($0.baseAddress!) }
        lattice.onePixelAtATime = false
        let differences = zip(vector, scalar).map { abs(Int($0) - Int($1)) }
        #expect(differences.max() ?? 0 <= 1, "\(String(describing: mode)): \(differences.max() ?? 0)")
        #expect(differences.filter { $0 != 0 }.count * 100 <= frame.count, "\(String(describing: mode)): \(differences.filter { $0 != 0 }.count)")
    }
}
