import ColorCubeApplier
import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

@Suite struct ImageCodecsTests {
    @Test func formatsAreToldApartByContent() {
        #expect(ImageFormat(signature: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(ImageFormat(signature: [0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat(signature: Array("GIF89a".utf8)) == UnreadPictureCodec(.gif).format)
        #expect(ImageFormat(signature: []) == nil)
    }

    /// Pictures in formats colorcube does not decode are recognised by their signatures (not by
    /// two letters that start many text files) and refused with the format's name.
    @Test func picturesInFormatsNotReadAreRecognisedAndRefusedByName() throws {
        let signatures: [(UnreadPictureCodec.Kind, [UInt8])] = [
            (.gif, Self.gif), (.gif, Array("GIF87a".utf8)), (.bmp, Self.bmp),
            (.photoshop, Array("8BPS".utf8) + [0, 1, 0, 0]),
            (.jpeg2000, [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]), (.jpeg2000, [0xFF, 0x4F, 0xFF, 0x51]),
            (.jpegXL, [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]), (.jpegXL, [0xFF, 0x0A, 0, 0]),
        ]
        for (kind, bytes) in signatures {
            #expect(ImageFormat(signature: bytes) == UnreadPictureCodec(kind).format, "\(kind)")
        }
        #expect(ImageFormat(signature: Array("BMW service notes, 2nd page\n".utf8)) == nil)
        #expect(ImageFormat(signature: Array("8BPS".utf8) + [0, 7]) == nil)

        let folder = try TemporaryDirectory()
        let path = folder.file("scan.dat")
        try Data(Self.bmp).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImageError.unreadFormat(path: path, format: "BMP")) { try ImageCodecs.read(path: path) }
        #expect(ImageError.unreadFormat(path: path, format: "BMP").description
            == "\(path) is a BMP picture, a format colorcube does not read; convert it to PNG (or TIFF, JPEG) first")
    }

    /// A 1x1 GIF and a 1x1 24-bit BMP, whole files.
    static let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF,
                                                       0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B]
    static let bmp: [UInt8] = Array("BM".utf8) + [58, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
                                                  1, 0, 24, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0x13, 0x0B, 0, 0, 0x13, 0x0B, 0, 0,
                                                  0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0x40, 0x80, 0]

    @Test func extensionsNameWritableFormatsOnly() {
        #expect(ImageFormat(pathExtension: "JPG") == .jpeg)
        #expect(ImageFormat(pathExtension: "jpe") == .jpeg)
        #expect(ImageFormat(pathExtension: "png") == .png)
        #expect(ImageFormat(pathExtension: "gif") == nil)
        #expect(ImageFormat(pathExtension: "dng") == nil)
    }

    @Test func everyFormatIsListedOnceWithDistinctExtensions() {
        let formats = ImageCodecs.all.map(\.format)
        #expect(Set(formats).count == formats.count)
        let extensions = ImageCodecs.all.flatMap(\.fileExtensions)
        #expect(Set(extensions).count == extensions.count)
        for codec in ImageCodecs.all {
            #expect(ImageCodecs.codec(for: codec.format)?.displayName == codec.displayName)
        }
    }

    @Test func xmpTravelsBetweenEveryPairOfFormats() throws {
        // Each writable format holds the packet in its own container (JPEG APP1, PNG iTXt, TIFF
        // tag 700, WebP chunk, HEIF item); read back, it is the neutral field, which goes on to
        // every other format, once. DPX and OpenEXR have no place for an XMP packet.
        let folder = try TemporaryDirectory()
        let codecs = ImageCodecs.all.filter { $0.isWritable && $0.format != .dpx && $0.format != .openEXR }
        var image = CodecTestImages.smooth()
        image.metadata.xmp = CodecTestImages.xmp
        for source in codecs {
            let first = folder.file("source." + source.fileExtensions[0])
            try source.write(image, to: first, options: ImageWriteOptions())
            let read = try source.read(path: first, options: ImageReadOptions())
            #expect(read.metadata.xmp == CodecTestImages.xmp, "\(source.displayName)")
            for target in codecs {
                var carried = read
                if target.format != source.format { carried.metadata = read.metadata.keepingOnlyNeutralFields() }
                let second = folder.file("target." + target.fileExtensions[0])
                try target.write(carried, to: second, options: ImageWriteOptions())
                let again = try target.read(path: second, options: ImageReadOptions())
                #expect(again.metadata.xmp == CodecTestImages.xmp, "\(source.displayName) to \(target.displayName)")
                let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: second)))
                #expect(HostileFiles.occurrences(of: Array("adobe:ns:meta".utf8), in: bytes) == 1,
                        "\(source.displayName) to \(target.displayName): the packet is written once")
            }
        }
    }

    @Test func cameraRawFilesAreRecognisedBeforeTIFF() {
        let raw = CameraRawCodec()
        let dng = HostileFiles.tiff(entries: [(254, 0), (50706, 1)])
        #expect(raw.kind(of: FileProbe(head: dng)) == "DNG")
        let nefLike = HostileFiles.tiff(entries: [(262, 2)], subIFD: [(262, 32803)])
        #expect(raw.kind(of: FileProbe(head: nefLike)) == "TIFF-based raw")
        let linear = HostileFiles.tiff(entries: [(262, 34892)])
        #expect(raw.kind(of: FileProbe(head: linear)) == "TIFF-based raw")
        var cr2 = HostileFiles.tiff(entries: [(262, 2)])
        cr2.replaceSubrange(8..<10, with: Array("CR".utf8))
        #expect(raw.kind(of: FileProbe(head: cr2)) == "Canon CR2")
        #expect(raw.kind(of: FileProbe(head: Array("FUJIFILMCCD-RAW 0201".utf8))) == "Fujifilm RAF")
        #expect(raw.kind(of: FileProbe(head: [0, 0, 0, 24] + Array("ftypcrx ".utf8))) == "Canon CR3")
        // An ordinary RGB TIFF is a picture, and a directory loop ends the scan.
        #expect(raw.kind(of: FileProbe(head: HostileFiles.tiff(entries: [(262, 2), (277, 3)]))) == nil)
        var loop = HostileFiles.tiff(entries: [(262, 2)])
        loop.replaceSubrange((loop.count - 4)..<loop.count, with: [8, 0, 0, 0])
        #expect(raw.kind(of: FileProbe(head: loop)) == nil)
    }

    @Test func aCameraRawFileIsRefusedWithWhatToDo() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("IMG_0001.dng")
        try HostileFiles.write(HostileFiles.tiff(entries: [(254, 0), (50706, 1)]), to: path)
        #expect(ImageFormat(sniffing: path) == .cameraRaw)
        let error = #expect(throws: ImageError.cameraRaw(path: path, kind: "DNG")) {
            try ImageCodecs.read(path: path)
        }
        #expect(error?.remedy == nil, "the description itself says what to do: no flag helps")
        #expect(error?.description.contains("develop it") == true)
    }

    @Test func aPNGDeclaringTenGigapixelsIsRefusedBeforeAllocating() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("huge.png")
        try HostileFiles.write(HostileFiles.png(width: 100_000, height: 100_000), to: path)
        #expect(throws: ImageError.pixelLimit(.tooManyPixels(path: path, width: 100_000, height: 100_000,
                                                 limit: ImageReadOptions.defaultPixelLimit))) {
            try ImageCodecs.read(path: path)
        }
        let wide = folder.file("wide.png")
        try HostileFiles.write(HostileFiles.png(width: 2_147_483_647, height: 1), to: wide)
        #expect(throws: ImageError.self) { try ImageCodecs.read(path: wide) }
    }

    @Test func aPNGUnderTheLimitButWithoutDataIsCorrupt() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("short.png")
        try HostileFiles.write(HostileFiles.png(width: 64, height: 64), to: path)
        let error = #expect(throws: ImageError.self) { try ImageCodecs.read(path: path) }
        guard case .corrupt = error else {
            Issue.record("expected .corrupt, got \(String(describing: error))")
            return
        }
    }

    @Test func aJPEGDeclaringTooManyPixelsIsRefused() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("huge.jpg")
        try HostileFiles.write(try HostileFiles.jpeg(width: 60_000, height: 60_000, scratch: folder.file("small.jpg")), to: path)
        #expect(throws: ImageError.pixelLimit(.tooManyPixels(path: path, width: 60_000, height: 60_000,
                                                 limit: ImageReadOptions.defaultPixelLimit))) {
            try ImageCodecs.read(path: path)
        }
    }

    @Test func aLowerLimitRefusesAnOrdinaryImage() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("small.png")
        try PNGFile.write(RasterImage(width: 20, height: 10, channels: 3, pixels: .eight([UInt8](repeating: 7, count: 600))), to: path)
        #expect(throws: ImageError.pixelLimit(.tooManyPixels(path: path, width: 20, height: 10, limit: 199))) {
            try ImageCodecs.read(path: path, options: ImageReadOptions(pixelLimit: 199))
        }
        #expect(try ImageCodecs.read(path: path, options: ImageReadOptions(pixelLimit: 200)).image.width == 20)
    }

    @Test func limitChecksSurviveOverflow() {
        let options = ImageReadOptions()
        #expect(throws: ImageError.self) { try options.check(width: Int.max, height: 3, path: "x") }
        #expect(throws: ImageError.self) { try options.check(width: 0, height: 3, path: "x") }
        #expect(throws: Never.self) { try options.check(width: 20_000, height: 25_000, path: "x") }
    }

    @Test func exifTravelsBetweenPNGAndJPEG() throws {
        let folder = try TemporaryDirectory()
        let exif: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]
        var image = RasterImage(width: 4, height: 4, channels: 3, pixels: .eight([UInt8](repeating: 90, count: 48)))
        image.metadata.exif = exif
        try PNGFile.write(image, to: folder.file("a.png"))
        let png = try PNGFile.read(path: folder.file("a.png"))
        #expect(png.metadata.exif == exif)
        #expect(png.metadata.pngChunks.filter { $0.name == "eXIf" }.count == 1)
        var crossing = png
        crossing.metadata = png.metadata.keepingOnlyNeutralFields()
        try JPEGFile.write(crossing, to: folder.file("a.jpg"))
        let jpeg = try JPEGFile.read(path: folder.file("a.jpg"))
        #expect(jpeg.metadata.exif == exif)
        #expect(jpeg.metadata.isLossy)
        // Same format: the marker is kept and not written twice.
        try JPEGFile.write(jpeg, to: folder.file("b.jpg"))
        #expect(try JPEGFile.read(path: folder.file("b.jpg")).metadata.jpegMarkers.filter { $0.code == 0xE1 }.count == 1)
    }

    @Test func aFolderWalkCountsWhatItPassesOver() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        try PNGFile.write(RasterImage(width: 2, height: 2, channels: 3, pixels: .eight([UInt8](repeating: 1, count: 12))),
                          to: folder.file("in/a.png"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder.file("in/notes.txt")))
        try Data("more".utf8).write(to: URL(fileURLWithPath: folder.file("in/list.csv")))
        try HostileFiles.write(HostileFiles.tiff(entries: [(50706, 1)]), to: folder.file("in/raw.dng"))
        try Data(Self.gif).write(to: URL(fileURLWithPath: folder.file("in/anim.gif")))
        try Data(Self.bmp).write(to: URL(fileURLWithPath: folder.file("in/scan.bmp")))
        try Data(Self.bmp).write(to: URL(fileURLWithPath: folder.file("in/scan2.bmp")))
        let plan = try BatchPlan(inputs: [folder.file("in")], output: folder.file("out"))
        #expect(plan.jobs.map(\.relativePath) == ["a.png"])
        #expect(plan.passedOverSummary == [
            "3 GIF/BMP pictures (anim.gif, scan.bmp, scan2.bmp: formats colorcube does not read; convert them to PNG)",
            "2 files colorcube does not recognise as images (list.csv, notes.txt)",
            "1 camera raw file (raw.dng: develop it to TIFF or PNG first)",
        ])
    }

    @Test func aFolderWithoutImagesIsAnError() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder.file("in/notes.txt")))
        #expect(throws: BatchError.noImages(inputs: [folder.file("in")], passedOver: ["1 file colorcube does not recognise as images (notes.txt)"])) {
            try BatchPlan(inputs: [folder.file("in")], output: folder.file("out"))
        }
    }
}
