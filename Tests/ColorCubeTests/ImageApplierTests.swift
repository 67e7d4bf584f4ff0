import CLittleCMS
import ColorCubeApplier
import ColorCubeEngine
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeGenerator
import ColorCubeImaging
import Testing

@Suite struct ImageApplierTests {
    /// Every 8-bit value on each channel somewhere, plus a noisy spread.
    static func photo(width: Int = 256, height: Int = 64, channels: Int = 3) -> RasterImage {
        var generator = TestRandom(seed: 3)
        var samples = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                let base = (y * width + x) * channels
                samples[base] = UInt8(x % 256)
                samples[base + 1] = UInt8(truncatingIfNeeded: generator.next())
                samples[base + 2] = UInt8((x + y * 7) % 256)
                if channels == 4 { samples[base + 3] = UInt8(truncatingIfNeeded: generator.next()) }
            }
        }
        return RasterImage(width: width, height: height, channels: channels, pixels: .eight(samples))
    }

    static func sixteenBitPhoto(width: Int = 128, height: Int = 32) -> RasterImage {
        var generator = TestRandom(seed: 11)
        let samples = (0..<(width * height * 3)).map { _ in UInt16(truncatingIfNeeded: generator.next()) }
        return RasterImage(width: width, height: height, channels: 3, pixels: .sixteen(samples))
    }

    static func engine(_ cube: ColorCube, strength: Float = 1) -> ImageApplier {
        ImageApplier(engine: LUTEngine(cube: cube, strength: strength))
    }

    @Test(arguments: [4, 16, 64])
    func identityLooksKeepEveryValue8And16Bit(size: Int) throws {
        let applier = Self.engine(try ColorCube.identity(size: size))
        var eight = Self.photo(channels: 4)
        let original = eight
        try applier.apply(to: &eight)
        guard case .eight(let before) = original.pixels, case .eight(let after) = eight.pixels else {
            Issue.record("bit depth changed")
            return
        }
        #expect(before == after)

        var sixteen = Self.sixteenBitPhoto()
        let original16 = sixteen
        try applier.apply(to: &sixteen)
        guard case .sixteen(let before16) = original16.pixels, case .sixteen(let after16) = sixteen.pixels else {
            Issue.record("16-bit image was not kept at 16 bits")
            return
        }
        #expect(before16 == after16)
    }

    @Test func strengthZeroAndHalf() throws {
        let invert = try ColorCube(size: 17) { SIMD3(repeating: 1) - $0 }
        var none = Self.photo()
        let original = none
        try Self.engine(invert, strength: 0).apply(to: &none)
        #expect(Array(0..<none.pixels.count).allSatisfy { none.pixels[$0] == original.pixels[$0] })

        // A look that scales by 0.8: halfway is in * 0.9, rounded to the nearest code.
        let darken = try ColorCube(size: 17) { $0 * 0.8 }
        var half = Self.photo()
        try Self.engine(darken, strength: 0.5).apply(to: &half)
        let worst = (0..<half.pixels.count).map { abs(Double(half.pixels[$0]) - Double(original.pixels[$0]) * 0.9) }.max() ?? 0
        #expect(worst <= 0.5 + 1e-3, "largest distance from in * 0.9: \(worst)")
    }

    @Test func pngCubeAndRawLooksGiveTheSameOutput() throws {
        let folder = try TemporaryDirectory()
        let reference = folder.file("look.png")
        try ImageLUT.write(try ColorCube(size: 16) { x in
            SIMD3(x.x * x.x, (x.y + x.z) / 2, 1 - x.x * 0.5)
        }, kind: .hald, to: reference)
        let asPNG = try LUTReader.read(path: reference).cube()
        try LUTWriter.write(asPNG, format: CubeTextFormat(), to: folder.file("look.cube"), title: "look")
        try LUTWriter.write(asPNG, format: RawCubeFormat(), to: folder.file("look.bin"), title: "look")
        var outputs: [[Int]] = []
        for name in ["look.png", "look.cube", "look.bin"] {
            var image = Self.photo()
            try Self.engine(try LUTReader.read(path: folder.file(name)).cube()).apply(to: &image)
            outputs.append((0..<image.pixels.count).map { image.pixels[$0] })
        }
        #expect(outputs[0] == outputs[2], "raw data holds the same Float32 values as the PNG")
        let differences = zip(outputs[0], outputs[1]).map { abs($0 - $1) }
        #expect(differences.max() ?? 0 <= 1, ".cube keeps 6 decimals: at most a rounding tie apart")
        #expect(differences.filter { $0 > 0 }.count * 1000 <= differences.count)
    }

    @Test func displayP3PhotoIsConvertedLikeLittleCMS() throws {
        let profile = TestProfiles.displayP3()
        var image = Self.photo()
        image.colorSpace = .icc(profile)
        let original = image
        try Self.engine(try ColorCube.identity(size: 16)).apply(to: &image)
        #expect(image.colorSpace == .sRGB)
        var worst = 0.0
        for pixel in 0..<image.pixelCount {
            let input = SIMD3(Double(original.pixels[3 * pixel]), Double(original.pixels[3 * pixel + 1]),
                              Double(original.pixels[3 * pixel + 2])) / 255
            let expected = pointwiseMin(pointwiseMax(TestProfiles.toSRGB(input, from: profile), .zero), .one) * 255
            for c in 0..<3 { worst = max(worst, abs(Double(image.pixels[3 * pixel + c]) - expected[c])) }
        }
        // 8-bit in and out: the rounding of the result plus Little CMS's 8-bit interpolation.
        #expect(worst <= 1.5, "largest difference from Little CMS in Double: \(worst) code values")

        var kept = original
        try ImageApplier(engine: LUTEngine(cube: try ColorCube.identity(size: 16)),
                         options: .init(ignoreProfile: true)).apply(to: &kept)
        #expect(kept.colorSpace == .icc(profile))
        #expect((0..<kept.pixels.count).allSatisfy { kept.pixels[$0] == original.pixels[$0] })
    }

    @Test func exifAndSubsamplingSurviveAJpegRoundTrip() throws {
        let folder = try TemporaryDirectory()
        var image = Self.photo()
        let exif = JPEGMarker(code: 0xE1, data: Array("Exif".utf8) + [0, 0] + [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 0])
        image.metadata.jpegMarkers = [exif]
        try JPEGFile.write(image, to: folder.file("in.jpg"), quality: 90, subsampling: (2, 1))
        let applier = Self.engine(try ColorCube.identity(size: 16))
        try applier.apply(input: folder.file("in.jpg"), output: folder.file("out.jpg"))
        let output = try JPEGFile.read(path: folder.file("out.jpg"))
        #expect(output.metadata.jpegMarkers.contains(exif))
        #expect(output.metadata.jpegSubsampling?.horizontal == 2 && output.metadata.jpegSubsampling?.vertical == 1)

        try applier.apply(input: folder.file("in.jpg"), output: folder.file("out.png"), outputFormat: .png)
        let png = try PNGFile.read(path: folder.file("out.png"))
        #expect(png.metadata.pngChunks.contains { $0.name == "eXIf" && $0.data == Array(exif.data.dropFirst(6)) })
    }

    @Test func pngTextChunksAreCarried() throws {
        let folder = try TemporaryDirectory()
        var image = Self.photo(channels: 4)
        let text = PNGChunk(name: "tEXt", location: 0x01, data: Array("Author\u{0}Someone".utf8))
        image.metadata.pngChunks = [text]
        try PNGFile.write(image, to: folder.file("in.png"))
        try Self.engine(try ColorCube.identity(size: 4)).apply(input: folder.file("in.png"), output: folder.file("out.png"))
        let output = try PNGFile.read(path: folder.file("out.png"))
        #expect(output.metadata.pngChunks.map(\.data) == [text.data])
        #expect(output.colorSpace == .sRGB)
    }

    @Test func unreadableInputsNameTheFile() throws {
        let folder = try TemporaryDirectory()
        let applier = Self.engine(try ColorCube.identity(size: 4))
        #expect(throws: ImageError.cannotOpen(path: folder.file("none.png"), reason: "No such file or directory")) {
            try applier.apply(input: folder.file("none.png"), output: folder.file("out.png"))
        }
        try [UInt8](repeating: 65, count: 20).withUnsafeBytes { bytes in
            let file = try OutputFile(path: folder.file("text.jpg"))
            try file.write(bytes)
            try file.close()
        }
        #expect(throws: ImageError.notAnImage(path: folder.file("text.jpg"))) {
            try applier.apply(input: folder.file("text.jpg"), output: folder.file("out.jpg"))
        }
    }
}
