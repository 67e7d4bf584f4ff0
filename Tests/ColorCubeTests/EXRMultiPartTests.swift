import ColorCubeImaging
import Foundation
import Testing

/// Multi-part OpenEXR files, made with oiiotool: the first flat RGB part is read, the others
/// passed over, and an output is a single-part file of that part.
@Suite struct EXRMultiPartTests {
    static let oiiotool = DPXCodecTests.executable("oiiotool")
    static let exrheader = DPXCodecTests.executable("exrheader")

    /// `parts` (each an oiiotool image spec, made in order) appended into one multi-part file.
    static func multiPart(_ parts: [[String]], in folder: TemporaryDirectory, name: String = "multi.exr") throws -> String {
        var files: [String] = []
        for (index, arguments) in parts.enumerated() {
            let file = folder.file("part\(index).exr")
            try DPXCodecTests.run(oiiotool, arguments + ["-o", file])
            files.append(file)
        }
        let output = folder.file(name)
        try DPXCodecTests.run(oiiotool, files + ["--siappend", "-o", output])
        return output
    }

    // Every part of a multi-part file has the same display window.
    static let luminance = ["--pattern", "constant:color=0.5", "50x30", "1", "-d", "half", "--chnames", "Y", "--fullsize", "60x40+0+0"]
    static let rgba = ["--pattern", "fill:topleft=0,0,0,1:topright=4,0,0,1:bottomleft=0,8,0,0:bottomright=0,0,64,1", "50x30", "4",
                       "-d", "float", "--tile", "16", "16", "--compression", "piz", "--attrib", "owner", "colorcube test",
                       "--origin", "+5+7", "--fullsize", "60x40+0+0"]

    @Test(.enabled(if: oiiotool != nil, "oiiotool is not installed"))
    func theFirstRGBPartIsReadAndNoted() throws {
        let folder = try TemporaryDirectory()
        let multi = try Self.multiPart([Self.luminance, Self.rgba], in: folder)
        try DPXCodecTests.run(Self.oiiotool, Self.rgba + ["-o", folder.file("single.exr")])
        let image = try EXRFile.read(path: multi, options: ImageReadOptions())
        let single = try EXRFile.read(path: folder.file("single.exr"), options: ImageReadOptions())
        #expect(image.width == 50 && image.height == 30 && image.channels == 4)
        #expect(EXRCodecTests.firstDifference(EXRCodecTests.floats(image), EXRCodecTests.floats(single)) == nil)
        #expect(image.metadata.exr.map { $0.part == (1, 2) } == true)
        #expect(image.metadata.exr?.partName == "subimage01")
        #expect(image.metadata.readNotes == [
            "a multi-part OpenEXR file: read part 1 \"subimage01\" of its 2 (counting from 0), the first flat RGB one; "
                + "an OpenEXR output holds that part alone, as a single-part file",
        ])
        #expect(single.metadata.readNotes.isEmpty && single.metadata.exr.map { $0.part == (0, 1) } == true)
    }

    @Test(.enabled(if: oiiotool != nil, "oiiotool is not installed"))
    func anOutputIsASinglePartFileOfThatPartWithItsTilesCompressionWindowsAndAttributes() throws {
        let folder = try TemporaryDirectory()
        let multi = try Self.multiPart([Self.luminance, Self.rgba], in: folder)
        let image = try EXRFile.read(path: multi, options: ImageReadOptions())
        let output = folder.file("out.exr")
        try EXRFile.write(image, to: output)
        let again = try EXRFile.read(path: output, options: ImageReadOptions())
        #expect(EXRCodecTests.firstDifference(EXRCodecTests.floats(again), EXRCodecTests.floats(image)) == nil)
        #expect(again.metadata.readNotes.isEmpty)
        let header = try #require(again.metadata.exr)
        #expect(header.part == (0, 1) && header.sampleType == .float && header.compression == 4)
        #expect(header.tileSize?.width == 16 && header.tileSize?.height == 16)
        #expect(header.dataOrigin == (5, 7) && header.displayWindow == (0, 0, 59, 39))
        #expect(String(decoding: header.bytes, as: UTF8.self).contains("colorcube test"))
        try DPXCodecTests.run(Self.oiiotool, Self.rgba + ["-o", folder.file("single.exr")])
        #expect(try DPXCodecTests.run(Self.oiiotool, ["--diff", folder.file("single.exr"), output]).contains("PASS"))
        if let exrheader = Self.exrheader {
            let text = try DPXCodecTests.run(exrheader, [output])
            #expect(!text.contains("part 1") && !text.contains("flags 0x1000"))
            #expect(text.contains("piz") && text.contains("tiles (type tiledesc)") && text.contains("colorcube test"))
        }
    }

    @Test(.enabled(if: oiiotool != nil, "oiiotool is not installed"))
    func aFileWithNoFlatRGBPartIsRefusedNamingItsParts() throws {
        let folder = try TemporaryDirectory()
        let multi = try Self.multiPart([Self.luminance, Self.luminance], in: folder)
        #expect {
            _ = try EXRFile.read(path: multi, options: ImageReadOptions())
        } throws: { error in
            guard case .unsupported(let path, let reason) = error as? ImageError else { return false }
            return path == multi && reason.hasPrefix("none of its 2 parts is a flat RGB image (parts: 0 \"subimage00\" no R, G and B, "
                                                    + "1 \"subimage01\" no R, G and B)")
        }
    }

    @Test(.enabled(if: oiiotool != nil, "oiiotool is not installed"))
    func thePixelLimitIsCheckedOnThePartRead() throws {
        let folder = try TemporaryDirectory()
        // A small first part, then an RGB part of 1500 pixels: the limit applies to the one read.
        let multi = try Self.multiPart([["--pattern", "constant:color=0.5", "10x10", "1", "-d", "half", "--chnames", "Y", "--fullsize", "50x30+0+0"],
                                        ["--pattern", "constant:color=0.5,0.25,1", "50x30", "3", "-d", "half"]], in: folder)
        #expect {
            _ = try EXRFile.read(path: multi, options: ImageReadOptions(pixelLimit: 1000))
        } throws: { error in
            if case .pixelLimit = error as? ImageError { true } else { false }
        }
        #expect(try EXRFile.read(path: multi, options: ImageReadOptions(pixelLimit: 1500)).width == 50)
    }

    /// A deep first part (a luminance part retyped as deep scanlines by hand, with the `version`
    /// and `maxSamplesPerPixel` attributes a deep part needs) is passed over for the RGBA part.
    @Test func aDeepPartIsPassedOver() throws {
        let deep = try EXRFile.read(path: FuzzCorpus.path("exr", "multipart-deep-rgba.exr"), options: ImageReadOptions())
        let flat = try EXRFile.read(path: FuzzCorpus.path("exr", "multipart-y-rgba.exr"), options: ImageReadOptions())
        #expect(deep.metadata.exr.map { $0.part == (1, 2) } == true)
        #expect(EXRCodecTests.firstDifference(EXRCodecTests.floats(deep), EXRCodecTests.floats(flat)) == nil)
    }

    @Test func theFuzzSeedIsReadAsItsRGBAPart() throws {
        let image = try EXRFile.read(path: FuzzCorpus.path("exr", "multipart-y-rgba.exr"), options: ImageReadOptions())
        #expect(image.width == 12 && image.height == 6 && image.channels == 4)
        #expect(image.metadata.exr.map { $0.part == (1, 2) } == true && image.metadata.readNotes.count == 1)
    }
}
