import ColorCubeImaging
import Foundation
import Testing

/// OpenEXR files with 32-bit unsigned integer channels: read as floats, written back as uint while
/// every sample is a whole number, as float once a look has made fractions.
@Suite struct EXRUIntTests {
    static let oiiotool = DPXCodecTests.executable("oiiotool")
    static let exrheader = DPXCodecTests.executable("exrheader")
    static let iinfo = DPXCodecTests.executable("iinfo")

    /// Whole numbers from 0 to 2^24 (every one a float holds exactly), RGB or RGBA.
    static func codes(width: Int = 40, height: Int = 24, channels: Int) -> RasterImage {
        var samples = [Float](repeating: 0, count: width * height * channels)
        for index in samples.indices { samples[index] = Float((index * 104_729) % 16_777_217) }
        return RasterImage(width: width, height: height, channels: channels, pixels: .float(samples))
    }

    /// `image` written as half, read back, then marked as a uint picture: a header of an input.
    static func asUIntInput(_ image: RasterImage, folder: TemporaryDirectory) throws -> RasterImage {
        try EXRFile.write(RasterImage(width: image.width, height: image.height, channels: image.channels,
                                      pixels: .float([Float](repeating: 0, count: image.width * image.height * image.channels))),
                          to: folder.file("template.exr"))
        var input = image
        input.metadata = try EXRFile.read(path: folder.file("template.exr"), options: ImageReadOptions()).metadata
        input.metadata.exr?.sampleType = .uint
        return input
    }

    @Test(arguments: [3, 4])
    func wholeNumbersAreWrittenAsUIntAndReadBackExactly(channels: Int) throws {
        let folder = try TemporaryDirectory()
        let image = try Self.asUIntInput(Self.codes(channels: channels), folder: folder)
        try EXRFile.write(image, to: folder.file("uint.exr"))
        let decoded = try EXRFile.read(path: folder.file("uint.exr"), options: ImageReadOptions())
        #expect(decoded.metadata.exr?.sampleType == .uint && decoded.channels == channels)
        #expect(EXRCodecTests.firstDifference(EXRCodecTests.floats(decoded), EXRCodecTests.floats(image)) == nil)
        // Written back as the input it now is: uint again, the same codes.
        try EXRFile.write(decoded, to: folder.file("again.exr"))
        let again = try EXRFile.read(path: folder.file("again.exr"), options: ImageReadOptions())
        #expect(again.metadata.exr == decoded.metadata.exr)
        #expect(EXRCodecTests.firstDifference(EXRCodecTests.floats(again), EXRCodecTests.floats(image)) == nil)
        if let exrheader = Self.exrheader {
            let text = try DPXCodecTests.run(exrheader, [folder.file("again.exr")])
            #expect(text.contains("R, 32-bit unsigned integer") && !text.contains("floating-point"))
        }
    }

    @Test func aGradedUIntPictureWithFractionsIsWrittenAsFloat() throws {
        let folder = try TemporaryDirectory()
        var image = try Self.asUIntInput(Self.codes(channels: 3), folder: folder)
        guard case .float(var samples) = image.pixels else { Issue.record("not floats"); return }
        samples[5] = 0.5
        image.pixels = .float(samples)
        try EXRFile.write(image, to: folder.file("graded.exr"))
        let decoded = try EXRFile.read(path: folder.file("graded.exr"), options: ImageReadOptions())
        #expect(decoded.metadata.exr?.sampleType == .float)
        #expect(EXRCodecTests.firstDifference(EXRCodecTests.floats(decoded), samples) == nil)
        // Whole numbers out of uint's range, and NaN, make a float file too; 2^32, the float that
        // 4294967295 reads as, stays uint.
        for (value, type) in [(-1, .float), (4_294_967_808, .float), (.nan, .float), (4_294_967_296, .uint)] as [(Float, EXRHeader.SampleType)] {
            samples[5] = value
            image.pixels = .float(samples)
            try EXRFile.write(image, to: folder.file("edge.exr"))
            #expect(try EXRFile.read(path: folder.file("edge.exr"), options: ImageReadOptions()).metadata.exr?.sampleType == type, "\(value)")
        }
    }

    /// oiiotool's uint file (its 0...1 values scaled to 0...4294967295): read as those codes, and
    /// written back as uint that oiiotool finds equal.
    @Test(.enabled(if: oiiotool != nil, "oiiotool is not installed"))
    func oiiotoolsUIntFileIsReadAndWrittenBackAsUInt() throws {
        let folder = try TemporaryDirectory()
        let input = folder.file("uint.exr"), output = folder.file("out.exr")
        try DPXCodecTests.run(Self.oiiotool, ["--pattern", "constant:color=0.5,0.25,1,0", "20x10", "4", "-d", "uint32",
                                              "--compression", "zip", "-o", input])
        let image = try EXRFile.read(path: input, options: ImageReadOptions())
        #expect(image.metadata.exr?.sampleType == .uint && image.channels == 4)
        #expect(Array(EXRCodecTests.floats(image).prefix(4)) == [2_147_483_648, 1_073_741_824, 4_294_967_296, 0])
        try EXRFile.write(image, to: output)
        #expect(try DPXCodecTests.run(Self.oiiotool, ["--diff", input, output]).contains("PASS"))
        if let iinfo = Self.iinfo {
            #expect(try DPXCodecTests.run(iinfo, ["-v", output]).contains("20 x   10, 4 channel, uint openexr"))
        }
    }
}
