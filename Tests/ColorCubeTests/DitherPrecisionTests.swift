import ColorCubeApplier
import ColorCubeCore
import ColorCubeEngine
import ColorCubeImaging
import ColorCubeTransform
import Foundation
import Testing

/// A look cannot be more precise than its nodes: what dithering leaves alone for a look whose
/// tables were stored with 8, 10 or 12 bits (a reference edited in Photoshop, a .cube written
/// from one), on pictures and on clips.
@Suite struct DitherPrecisionTests {
    /// The identity of `size`, each node rounded to a step of 1/`scale` (as a PNG stores it).
    static func storedIdentity(size: Int, scale: Float) throws -> Transform {
        Transform(cube: try ColorCube(size: size, sampling: { ($0 * scale).rounded(.toNearestOrAwayFromZero) / scale }))
    }

    @Test func precisionIsHalfTheStepTheNodesWereStoredWith() throws {
        #expect(try Self.storedIdentity(size: 64, scale: 255).nodePrecision() == 0.5 / 255)
        #expect(try Self.storedIdentity(size: 33, scale: 1023).nodePrecision() == 0.5 / 1023)
        #expect(try Self.storedIdentity(size: 17, scale: 4095).nodePrecision() == 0.5 / 4095)
        // Exact tables: a 2-point identity lies on every step; floats and 16-bit codes on none.
        #expect(try Self.storedIdentity(size: 2, scale: 255).nodePrecision() == 0)
        #expect(try Self.storedIdentity(size: 33, scale: 65535).nodePrecision() == 0)
        #expect(Transform(cube: try ColorCube(size: 17, sampling: { $0 * 0.9 + 0.01 })).nodePrecision() == 0)
        #expect(Transform([try MatrixOp(rows: [SIMD3(0.7, 0, 0), SIMD3(0, 0.7, 0), SIMD3(0, 0, 0.7)])]).nodePrecision() == 0)
        // A chain adds its tables' precisions; a 1D table counts once, whatever its channels.
        let curve = try LUT1DOp(entries: (0..<256).map { SIMD3(repeating: Double($0) / 255) })
        let chain = try Self.storedIdentity(size: 64, scale: 255).then(Transform([curve]))
        #expect(abs(chain.nodePrecision() - 1 / 255) < 1e-15)
    }

    /// An 8-bit picture through an 8-bit identity, dithered: every sample returns, where the
    /// rule of a 256th of a code alone moved about half of them.
    @Test func aStoredIdentityReturnsEveryCodeOfADitheredPicture() throws {
        let folder = try TemporaryDirectory()
        var samples: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<256 { samples += [UInt8(x), UInt8((x + y) % 256), UInt8(255 - x)] }
        }
        try PNGFile.write(RasterImage(width: 256, height: 64, channels: 3, pixels: .eight(samples)), to: folder.file("in.png"))
        let identity = try Self.storedIdentity(size: 64, scale: 255)
        let engine = try LUTEngine(transform: identity)
        for dither in [Dither.ordered, .blueNoise] {
            func graded(precision: Double) throws -> [UInt8] {
                var options = ImageApplier.Options(ignoreProfile: true)
                options.dither = dither
                options.lookPrecision = precision
                let output = folder.file("\(dither.rawValue)-\(precision).png")
                try ImageApplier(engine: engine, options: options).apply(input: folder.file("in.png"), output: output)
                guard case .eight(let codes) = try ImageCodecs.read(path: output).image.pixels else { return [] }
                return codes
            }
            let moved = zip(try graded(precision: 0), samples).filter { $0 != $1 }.count
            print("\(dither): a 64-cube of 8-bit nodes moves \(moved) of \(samples.count) samples by the arithmetic's rule alone")
            #expect(moved > samples.count / 10)
            #expect(try graded(precision: identity.nodePrecision()) == samples)
        }
    }

    /// The same for a clip's own YCbCr: 8-bit 4:2:0 through the stored identity, dithered.
    @Test func aStoredIdentityReturnsEveryCodeOfADitheredClipFrame() throws {
        let width = 64, height = 32
        let format = try #require(YCbCrFrameFormat(source: VideoPixelFormat("yuv420p")))
        var frame = [UInt8](repeating: 0, count: format.frameBytes(width: width, height: height))
        for i in 0..<(width * height) { frame[i] = UInt8(16 + (i * 7) % 220) }
        for i in (width * height)..<frame.count { frame[i] = UInt8(16 + (i * 13) % 225) }
        let identity = try Self.storedIdentity(size: 64, scale: 255)
        let engine = try LUTEngine(transform: identity)
        func graded(precision: Double) throws -> [UInt8] {
            let grader = try #require(YCbCrFrameGrader(engine: engine, format: format, width: width, height: height,
                                                       matrix: .bt709, fullRange: false, dither: .blueNoise,
                                                       lookPrecision: precision))
            var graded = frame
            graded.withUnsafeMutableBytes { grader.grade($0.baseAddress!) }
            return graded
        }
        let moved = zip(try graded(precision: 0), frame).filter { $0 != $1 }.count
        print("an 8-bit 4:2:0 frame through a 64-cube of 8-bit nodes: \(moved) of \(frame.count) codes moved by the arithmetic's rule alone")
        #expect(moved > frame.count / 20)
        #expect(try graded(precision: identity.nodePrecision()) == frame)
    }
}
