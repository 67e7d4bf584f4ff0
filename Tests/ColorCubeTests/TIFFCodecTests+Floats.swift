import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

extension TIFFCodecTests {
    // MARK: Floating-point samples

    @Test(arguments: [(32, 3), (16, 4)])
    func floatSamplesBeyondOneRoundTripAtTheirOwnSize(floatBits: Int, channels: Int) throws {
        let folder = try TemporaryDirectory()
        var image = EXRCodecTests.scene(width: 33, height: 9, channels: channels)
        image.metadata.tiffFloatBits = floatBits
        try TIFFFile.write(image, to: folder.file("a.tif"))
        let decoded = try TIFFFile.read(path: folder.file("a.tif"))
        #expect(decoded.metadata.tiffFloatBits == floatBits && decoded.channels == channels)
        let expected = EXRCodecTests.floats(image).map { floatBits == 16 ? Float(Float16($0)) : $0 }
        #expect(EXRCodecTests.firstDifference(EXRCodecTests.floats(decoded), expected) == nil)
    }

    @Test(.enabled(if: EXRCodecTests.oiiotool != nil, "oiiotool is not installed"))
    func oiiotoolsFloatTIFFsAreReadAsFloats() throws {
        let oiiotool = try #require(EXRCodecTests.oiiotool)
        let folder = try TemporaryDirectory()
        let fill = "fill:topleft=0,0,0:topright=4,0,0:bottomleft=0,8,0:bottomright=0,0,64"
        try Self.run(oiiotool, ["--pattern", fill, "40x30", "3", "-d", "float", "--compression", "lzw", "-o", folder.file("f.tif")])
        // oiiotool stores "-d half" in a TIFF as 32-bit floats.
        try Self.run(oiiotool, ["--pattern", fill, "40x30", "1", "-d", "half", "-o", folder.file("grey.tif")])
        let rgb = try TIFFFile.read(path: folder.file("f.tif"))
        let grey = try TIFFFile.read(path: folder.file("grey.tif"))
        #expect(rgb.metadata.tiffFloatBits == 32 && grey.metadata.tiffFloatBits == 32 && grey.channels == 3)
        // The top right corner is (4, 0, 0), the bottom right (0, 0, 64); grey repeats its one channel.
        let values = EXRCodecTests.floats(rgb)
        #expect(abs(values[39 * 3] - 4) < 1e-5 && abs(values[(29 * 40 + 39) * 3 + 2] - 64) < 1e-4)
        let greys = EXRCodecTests.floats(grey)
        #expect(greys[39 * 3] == greys[39 * 3 + 1] && greys[39 * 3] == greys[39 * 3 + 2] && greys[39 * 3] == 4)
        try TIFFFile.write(rgb, to: folder.file("out.tif"))
        #expect(try Self.run(oiiotool, ["--diff", folder.file("f.tif"), folder.file("out.tif")]).contains("PASS"))
    }
}
