import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

@Suite struct TIFFCommandTests {
    /// A 16-bit RGB photo-like image: gradients and noise.
    static func photo(width: Int = 64, height: Int = 40, channels: Int = 3) -> RasterImage {
        var samples = [UInt16]()
        var state: UInt32 = 5
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                samples += [UInt16(x * 65535 / (width - 1)), UInt16(y * 65535 / (height - 1)), UInt16(state >> 16)]
                if channels == 4 { samples.append(UInt16(truncatingIfNeeded: x * 1000)) }
            }
        }
        return RasterImage(width: width, height: height, channels: channels, pixels: .sixteen(samples))
    }

    @Test func identityLookLeavesA16BitTIFFUnchangedAndKeepsItsCompression() throws {
        let scratch = try Scratch()
        let image = Self.photo(channels: 4)
        try TIFFFile.write(image, to: scratch.file("in.tif"), compression: 5)
        try CommandRunner.run(["generate", "--depth", "16", "-o", scratch.file("identity-64.png")])
        let result = try CommandRunner.run(["apply", scratch.file("identity-64.png"), scratch.file("in.tif"),
                                            "-o", scratch.file("out.tif")])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try TIFFFile.read(path: scratch.file("out.tif"))
        #expect(output.bitDepth == 16 && output.channels == 4)
        guard case .sixteen(let a) = output.pixels, case .sixteen(let b) = image.pixels else {
            Issue.record("expected 16-bit pixels")
            return
        }
        #expect(a == b)
        #expect(output.metadata.tiffCompression == 5)
        guard case .icc(let profile) = output.colorSpace else {
            Issue.record("expected an sRGB profile, read \(output.colorSpace)")
            return
        }
        #expect(ColorConversion.isSRGB(profile))
    }

    @Test func folderOfTIFFsIsGraded() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("in/sub"), withIntermediateDirectories: true)
        try TIFFFile.write(Self.photo(), to: scratch.file("in/a.tif"))
        try TIFFFile.write(Self.photo(width: 30, height: 20), to: scratch.file("in/sub/b.tiff"), compression: 32773)
        let look = Resources.packageRoot.appendingPathComponent("LUTs/teal-orange.cube").path
        let result = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(scratch.listing("out") == ["a.tif", "sub", "sub/b.tiff"])
        let b = try TIFFFile.read(path: scratch.file("out/sub/b.tiff"))
        #expect(b.width == 30 && b.bitDepth == 16 && b.metadata.tiffCompression == 32773)
        #expect(ImageFormat(sniffing: scratch.file("out/a.tif")) == .tiff)
    }

    @Test(arguments: [8, 16])
    func referenceSavedAsTIFFConvertsLikeItsPNG(depth: Int) throws {
        let scratch = try Scratch()
        var result = try CommandRunner.run(["generate", "--look", "teal-orange", "--size", "16", "--depth", "\(depth)",
                                            "-o", scratch.file("ref.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let reference = try PNGFile.read(path: scratch.file("ref.png"))
        #expect(reference.bitDepth == depth)
        try TIFFFile.write(reference, to: scratch.file("ref.tif"))
        result = try CommandRunner.run(["convert", scratch.file("ref.png"), "-o", scratch.file("png.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        result = try CommandRunner.run(["convert", scratch.file("ref.tif"), "-o", scratch.file("tif.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        let fromPNG = try Data(contentsOf: URL(fileURLWithPath: scratch.file("png.cube")))
        let fromTIFF = try Data(contentsOf: URL(fileURLWithPath: scratch.file("tif.cube")))
        #expect(!fromPNG.isEmpty && fromPNG == fromTIFF)
    }

    @Test func dngIsRefusedAsCameraRaw() throws {
        let scratch = try Scratch()
        // DNGVersion in the first directory is enough for the camera raw codec.
        var file: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00]
        file += [0x12, 0xC6, 0x01, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x04, 0x00, 0x00, 0, 0, 0, 0]
        try Data(file).write(to: URL(fileURLWithPath: scratch.file("raw.dng")))
        let result = try CommandRunner.run(["apply", Resources.packageRoot.appendingPathComponent("LUTs/teal-orange.cube").path,
                                            scratch.file("raw.dng"), "-o", scratch.file("out.tif")])
        #expect(result.status != 0)
        #expect(result.stderr.contains("camera raw file (DNG)"), "\(result.stderr)")
        #expect(!scratch.exists("out.tif"))
    }
}
