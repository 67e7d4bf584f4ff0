import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeGenerator
import ColorCubeImaging
import Foundation
import Testing

/// Edits applied to the identity reference image the way an editor would: colour-only
/// adjustments change each pixel alone, spatial edits mix neighbouring pixels.
@Suite struct RoughnessTests {
    static func reference(size: Int = 64) throws -> RasterImage {
        let folder = try TemporaryDirectory()
        let path = folder.file("identity.png")
        try ReferenceGenerator.writeIdentity(size: size, to: path)
        return try PNGFile.read(path: path)
    }

    static func roughness(of image: RasterImage, size: Int = 64) -> Roughness {
        Roughness(measuring: ReferenceTable(image: image, layout: try! ImageLUTLayout(kind: .hald, cubeSize: size)))
    }

    static func mapPixels(_ image: RasterImage, _ transform: (SIMD3<Double>) -> SIMD3<Double>) -> RasterImage {
        var samples = [UInt8](repeating: 0, count: image.pixels.count)
        for pixel in 0..<image.pixelCount {
            let input = SIMD3(Double(image.pixels[3 * pixel]), Double(image.pixels[3 * pixel + 1]), Double(image.pixels[3 * pixel + 2])) / 255
            let output = pointwiseMin(pointwiseMax(transform(input), .zero), .one) * 255
            for c in 0..<3 { samples[3 * pixel + c] = UInt8(output[c].rounded()) }
        }
        var edited = image
        edited.pixels = .eight(samples)
        return edited
    }

    /// A table with NaN and infinite entries (a log of negative values, say) is measured, not trapped on.
    @Test func nonFiniteEntriesAreMeasured() throws {
        let cube = try ColorCube(size: 17) { rgb in rgb.x < 0.25 ? SIMD3(.nan, .infinity, -.infinity) : rgb }
        let roughness = Roughness(measuring: cube)
        #expect(roughness.size == 17)
    }

    @Test func identityIsSmooth() throws {
        let roughness = Self.roughness(of: try Self.reference())
        #expect(!roughness.suggestsSpatialEdit, "\(roughness)")
    }

    @Test func strongColourAdjustmentsDoNotWarn() throws {
        let image = try Self.reference()
        let strongCurves = Self.mapPixels(image) { x in
            // A steep S-curve on every channel.
            let s = { (v: Double) in 1 / (1 + exp(-12 * (v - 0.5))) }
            return SIMD3(s(x.x), s(x.y), s(x.z))
        }
        let levels = Self.mapPixels(image) { ($0 - SIMD3(repeating: 0.2)) / 0.6 }
        let mixer = Self.mapPixels(image) { x in
            SIMD3(0.6 * x.x + 0.3 * x.y + 0.1 * x.z, 0.2 * x.x + 0.7 * x.y + 0.1 * x.z, 0.1 * x.x + 0.2 * x.y + 0.7 * x.z)
        }
        let saturation = Self.mapPixels(image) { x in
            let grey = (x.x + x.y + x.z) / 3
            return SIMD3(repeating: grey) + (x - SIMD3(repeating: grey)) * 1.8
        }
        for (name, edited) in [("curves", strongCurves), ("levels", levels), ("mixer", mixer), ("saturation", saturation)] {
            let roughness = Self.roughness(of: edited)
            #expect(!roughness.suggestsSpatialEdit, "\(name): \(roughness)")
        }
    }

    @Test func blurWarns() throws {
        let image = try Self.reference()
        let side = image.width
        var samples = [UInt8](repeating: 0, count: image.pixels.count)
        // 3x3 box blur, edges clamped.
        for y in 0..<side {
            for x in 0..<side {
                for c in 0..<3 {
                    var sum = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let sx = min(max(x + dx, 0), side - 1), sy = min(max(y + dy, 0), side - 1)
                            sum += image.pixels[(sy * side + sx) * 3 + c]
                        }
                    }
                    samples[(y * side + x) * 3 + c] = UInt8((Double(sum) / 9).rounded())
                }
            }
        }
        var blurred = image
        blurred.pixels = .eight(samples)
        let roughness = Self.roughness(of: blurred)
        #expect(roughness.suggestsSpatialEdit, "\(roughness)")
    }

    @Test(arguments: [16, 64])
    func noiseWarns(size: Int) throws {
        let image = try Self.reference(size: size)
        var generator = TestRandom(seed: 7)
        let noisy = Self.mapPixels(image) { x in
            x + SIMD3(generator.nextSigned(), generator.nextSigned(), generator.nextSigned()) * (6.0 / 255)
        }
        let roughness = Self.roughness(of: noisy, size: size)
        #expect(roughness.suggestsSpatialEdit, "\(roughness)")
    }
}
