import ColorCubeApplier
import ColorCubeCore
import ColorCubeEngine
import ColorCubeImaging
import ColorCubeTransform
import Foundation
import Testing

@Suite struct EXRCodecTests {
    /// OpenImageIO's oiiotool, when installed (the tests of files it makes skip otherwise).
    static let oiiotool: String? = ["/usr/bin/oiiotool", "/usr/local/bin/oiiotool"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A picture of floats from 0 to 64 (and negative ones), RGB or RGBA.
    static func scene(width: Int = 40, height: Int = 24, channels: Int = 3) -> RasterImage {
        var samples = [Float](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                let base = (y * width + x) * channels
                samples[base] = Float(x) / Float(width - 1) * 64
                samples[base + 1] = Float(y) / Float(height - 1) * 4 - 0.5
                samples[base + 2] = Float((x * 7 + y * 13) % 97) / 96
                if channels == 4 { samples[base + 3] = Float(x % 5) / 4 }
            }
        }
        return RasterImage(width: width, height: height, channels: channels, pixels: .float(samples))
    }

    /// "index: got, expected" for the first sample that differs (or the counts), nil when equal.
    static func firstDifference(_ got: [Float], _ expected: [Float]) -> String? {
        guard got.count == expected.count else { return "\(got.count) samples, expected \(expected.count)" }
        guard let index = got.indices.first(where: { got[$0].bitPattern != expected[$0].bitPattern }) else { return nil }
        return "sample \(index): \(got[index]), expected \(expected[index])"
    }

    static func floats(_ image: RasterImage) -> [Float] {
        guard case .float(let samples) = image.pixels else { return [] }
        return samples
    }

    // MARK: Round trips

    @Test(arguments: [3, 4])
    func aNewPictureIsWrittenAsHalfAndReadBackAsTheNearestHalves(channels: Int) throws {
        let folder = try TemporaryDirectory()
        let image = Self.scene(channels: channels)
        try EXRFile.write(image, to: folder.file("a.exr"))
        let decoded = try EXRFile.read(path: folder.file("a.exr"), options: ImageReadOptions())
        #expect(decoded.width == image.width && decoded.height == image.height && decoded.channels == channels)
        #expect(decoded.metadata.exr?.sampleType == .half)
        #expect(decoded.metadata.exr?.compression == EXRFile.defaultCompression)
        #expect(decoded.metadata.colorSpaceID == "lin_rec709_scene")
        let expected = Self.floats(image).map { Float(Float16($0)) }
        #expect(Self.firstDifference(Self.floats(decoded), expected) == nil)
    }

    @Test func anInputIsWrittenBackBitForBitWithItsTypeCompressionAndTiling() throws {
        let folder = try TemporaryDirectory()
        let image = Self.scene(channels: 4)
        try EXRFile.write(image, to: folder.file("half.exr"))
        // Read, then written as the input it now is: same values, same header fields.
        let first = try EXRFile.read(path: folder.file("half.exr"), options: ImageReadOptions())
        try EXRFile.write(first, to: folder.file("again.exr"))
        let second = try EXRFile.read(path: folder.file("again.exr"), options: ImageReadOptions())
        #expect(Self.firstDifference(Self.floats(second), Self.floats(first)) == nil)
        #expect(second.metadata.exr == first.metadata.exr)
    }

    @Test(.enabled(if: oiiotool != nil, "oiiotool is not installed"))
    func oiiotoolsTiledFloatFileKeepsValuesWindowsTilesCompressionAndAttributes() throws {
        let oiiotool = try #require(Self.oiiotool)
        let folder = try TemporaryDirectory()
        let input = folder.file("tiled.exr")
        try TIFFCodecTests.run(oiiotool, ["--pattern", "fill:topleft=0,0,0:topright=4,0,0:bottomleft=0,8,0:bottomright=0,0,64", "50x30", "4",
                                "-d", "float", "--tile", "16", "16", "--compression", "piz", "--attrib", "owner", "colorcube test",
                                "--attrib:type=float[8]", "chromaticities", "0.713,0.293,0.165,0.830,0.128,0.044,0.32168,0.33767",
                                "--origin", "+5+7", "-o", input])
        let image = try EXRFile.read(path: input, options: ImageReadOptions())
        #expect(image.width == 50 && image.height == 30 && image.channels == 4)
        #expect(image.metadata.exr?.tileSize?.width == 16 && image.metadata.exr?.compression == 4)
        #expect(image.metadata.exr.map { $0.dataOrigin == (5, 7) } == true)
        #expect(image.metadata.chromaticities?.count == 8)
        #expect(image.metadata.chromaticities.flatMap(ColorSpaces.sceneLinear(chromaticities:))?.id == "lin_ap1_scene")
        // The top right corner is (4, 0, 0) as oiiotool drew it.
        let samples = Self.floats(image)
        #expect(abs(samples[49 * 4] - 4) < 1e-5 && samples[49 * 4 + 3] == 1)
        try EXRFile.write(image, to: folder.file("out.exr"))
        let output = try EXRFile.read(path: folder.file("out.exr"), options: ImageReadOptions())
        #expect(Self.firstDifference(Self.floats(output), samples) == nil)
        #expect(output.metadata.exr?.sampleType == .float && output.metadata.exr?.compression == 4)
        #expect(output.metadata.exr?.tileSize?.height == 16)
        #expect(output.metadata.exr.map { $0.dataOrigin == (5, 7) && $0.displayWindow == (0, 0, 49, 29) } == true)
        let text = String(decoding: output.metadata.exr?.bytes ?? [], as: UTF8.self)
        #expect(text.contains("colorcube test") && text.contains("chromaticities"))
        #expect(try TIFFCodecTests.run(oiiotool, ["--diff", input, folder.file("out.exr")]).contains("PASS"))
    }

    // MARK: Bad files

    @Test func aDeclaredSizeOverThePixelLimitIsRefusedBeforeReadingPixels() throws {
        let folder = try TemporaryDirectory()
        try EXRFile.write(Self.scene(width: 64, height: 48), to: folder.file("a.exr"))
        #expect {
            _ = try EXRFile.read(path: folder.file("a.exr"), options: ImageReadOptions(pixelLimit: 1000))
        } throws: { error in
            if case .pixelLimit = error as? ImageError { true } else { false }
        }
    }

    @Test func truncatedAndDamagedFilesAreOneError() throws {
        let folder = try TemporaryDirectory()
        try EXRFile.write(Self.scene(width: 64, height: 48), to: folder.file("a.exr"))
        let bytes = try CodecTestImages.bytes(of: folder.file("a.exr"))
        for cut in [3, 40, 300, bytes.count / 2, bytes.count - 5] {
            try CodecTestImages.write(Array(bytes.prefix(cut)), to: folder.file("cut.exr"))
            #expect(throws: ImageError.self) { _ = try ImageCodecs.read(path: folder.file("cut.exr")) }
        }
        var damaged = bytes
        for index in stride(from: bytes.count / 2, to: bytes.count, by: 7) { damaged[index] ^= 0x5A }
        try CodecTestImages.write(damaged, to: folder.file("damaged.exr"))
        #expect(throws: ImageError.self) { _ = try ImageCodecs.read(path: folder.file("damaged.exr")) }
    }

    // MARK: Grading floats

    @Test func floatsGoThroughCurvesAndMatricesUnclampedAndA3DLUTClampsToItsDomain() throws {
        // A CDL (no clamp) then a matrix: 10.0 stays far above 1.0.
        let cdl = try CDLOp(slope: SIMD3(repeating: 2), style: .fwdNoClamp)
        let matrix = try MatrixOp(rows: [SIMD3(0.5, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)])
        let engine = try LUTEngine(transform: Transform([cdl, matrix]))
        var image = RasterImage(width: 1, height: 2, channels: 3, pixels: .float([10, -0.25, 0.5, 0.25, 3, 64]))
        try ImageApplier(engine: engine, options: .init(ignoreProfile: true)).apply(to: &image)
        #expect(Self.floats(image) == [10, -0.5, 1, 0.25, 6, 128])
        // A 3D LUT (halving every value) clamps its input to its domain, 0...1, as OpenColorIO's does.
        let half = try ColorCube(size: 2) { $0 / 2 }
        let lattice = try LUTEngine(transform: Transform([LUT3DOp(table: half)]))
        var bright = RasterImage(width: 1, height: 1, channels: 3, pixels: .float([10, 0.5, -1]))
        try ImageApplier(engine: lattice, options: .init(ignoreProfile: true)).apply(to: &bright)
        let values = Self.floats(bright)
        #expect(abs(values[0] - 0.5) < 1e-6 && abs(values[1] - 0.25) < 1e-6 && values[2] == 0)
    }

    @Test func aFloatPictureWrittenToAnIntegerFormatIsRoundedTo16BitCodes() throws {
        let folder = try TemporaryDirectory()
        let image = RasterImage(width: 2, height: 1, channels: 3, pixels: .float([0.5, 2, -1, 1.0 / 65535 * 0.49, 0.25, 1]))
        try ImageCodecs.write(image.quantizingFloats(), as: .png, to: folder.file("a.png"))
        let decoded = try ImageCodecs.read(path: folder.file("a.png")).image
        guard case .sixteen(let codes) = decoded.pixels else { Issue.record("not 16-bit"); return }
        #expect(codes == [32768, 65535, 0, 0, 16384, 65535])
    }
}
