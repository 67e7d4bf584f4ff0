import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

@Suite struct ApplyCommandTests {
    /// A small photo-like PNG with every kind of pixel: gradients and noise.
    static func writePhoto(_ path: String, width: Int = 48, height: Int = 32, channels: Int = 3) throws {
        var samples = [UInt8](repeating: 0, count: width * height * channels)
        var state: UInt32 = 99
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let base = (y * width + x) * channels
                samples[base] = UInt8((x * 255) / (width - 1))
                samples[base + 1] = UInt8((y * 255) / (height - 1))
                samples[base + 2] = UInt8(truncatingIfNeeded: state >> 24)
                if channels == 4 { samples[base + 3] = UInt8(truncatingIfNeeded: x * 5) }
            }
        }
        try PNGFile.write(RasterImage(width: width, height: height, channels: channels, pixels: .eight(samples)), to: path)
    }

    /// A look: the 16 reference with every code inverted.
    static func writeInvertLook(_ scratch: Scratch) throws -> String {
        try CommandRunner.run(["generate", "--size", "16", "-o", scratch.file("identity.png")])
        var image = try PNGFile.read(path: scratch.file("identity.png"))
        guard case .eight(let samples) = image.pixels else { return "" }
        image.pixels = .eight(samples.map { 255 - $0 })
        let path = scratch.file("invert.png")
        try PNGFile.write(image, to: path)
        return path
    }

    @Test func identityLookLeavesAPhotoUnchanged() throws {
        let scratch = try Scratch()
        try Self.writePhoto(scratch.file("photo.png"), channels: 4)
        try CommandRunner.run(["generate", "-o", scratch.file("identity-64.png")])
        let result = try CommandRunner.run(["apply", scratch.file("identity-64.png"), scratch.file("photo.png"), "-o", scratch.file("out.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let input = try PNGFile.read(path: scratch.file("photo.png"))
        let output = try PNGFile.read(path: scratch.file("out.png"))
        guard case .eight(let a) = input.pixels, case .eight(let b) = output.pixels else {
            Issue.record("expected 8-bit images")
            return
        }
        #expect(a == b)
        #expect(output.channels == 4)
    }

    @Test func invertLookInvertsAndKeepsAlpha() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try Self.writePhoto(scratch.file("photo.png"), channels: 4)
        let result = try CommandRunner.run(["apply", look, scratch.file("photo.png"), "-o", scratch.file("out.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let input = try PNGFile.read(path: scratch.file("photo.png"))
        let output = try PNGFile.read(path: scratch.file("out.png"))
        for i in stride(from: 0, to: input.pixels.count, by: 4) {
            #expect(output.pixels[i] == 255 - input.pixels[i])
            #expect(output.pixels[i + 3] == input.pixels[i + 3])
        }
        #expect(output.colorSpace == .sRGB)
    }

    @Test func folderTreeWithBadFilesGoesOn() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: scratch.file("in/a/b"), withIntermediateDirectories: true)
        try fileManager.createDirectory(atPath: scratch.file("in/.cache"), withIntermediateDirectories: true)
        try Self.writePhoto(scratch.file("in/one.png"))
        try Self.writePhoto(scratch.file("in/a/two.png"))
        try Self.writePhoto(scratch.file("in/.cache/hidden.png"))
        try Self.writePhoto(scratch.file("in/a/b/three.png"))
        try JPEGFile.write(try PNGFile.read(path: scratch.file("in/one.png")), to: scratch.file("in/a/b/photo.jpg"))
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: scratch.file("in/a/b/photo.jpg")))
        try jpeg.prefix(jpeg.count / 2).write(to: URL(fileURLWithPath: scratch.file("in/a/broken.jpg")))
        try Data("shopping list".utf8).write(to: URL(fileURLWithPath: scratch.file("in/a/notes.txt")))
        // A PNG by content with a misleading name is still an image.
        try fileManager.copyItem(atPath: scratch.file("in/one.png"), toPath: scratch.file("in/a/renamed.dat"))
        let before = try snapshot(scratch.file("in"))

        let result = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out"), "--jobs", "2"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(scratch.file("in/a/broken.jpg")) is damaged or truncated"))
        #expect(result.stderr.hasSuffix("colorcube: 5 done, 0 skipped, 1 failed; passed over 1 file colorcube does not recognise as images (a/notes.txt)\n"))
        // Its name says no format colorcube writes: the output is named for what it is.
        #expect(scratch.listing("out") == ["a", "a/b", "a/b/photo.jpg", "a/b/three.png", "a/renamed.png", "a/two.png", "one.png"])
        #expect(try snapshot(scratch.file("in")) == before, "inputs are byte-identical afterwards")
        #expect(ImageFormat(sniffing: scratch.file("out/a/b/photo.jpg")) == .jpeg)
    }

    @Test func cameraRawFilesAreSkippedInFoldersAndRefusedByName() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        try Self.writePhoto(scratch.file("in/one.png"))
        // A DNG by its DNGVersion tag: little-endian TIFF, one directory, one entry.
        let dng: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x12, 0xC6, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
        try Data(dng).write(to: URL(fileURLWithPath: scratch.file("in/IMG_0002.dng")))
        let folder = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out")])
        #expect(folder.status == 0)
        #expect(folder.stderr == "colorcube: 1 done, 0 skipped, 0 failed; passed over 1 camera raw file "
            + "(IMG_0002.dng: develop it to TIFF or PNG first)\n")
        #expect(scratch.listing("out") == ["one.png"])

        let named = try CommandRunner.run(["apply", look, scratch.file("in/IMG_0002.dng"), "-o", scratch.file("raw.png")])
        #expect(named.status == 1)
        #expect(named.stderr.hasPrefix("colorcube: error: \(scratch.file("in/IMG_0002.dng")) is a camera raw file (DNG)"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("raw.png")))
    }

    /// A folder run names the pictures it passed over for their format, apart from files that are
    /// not images; such a picture named on its own is refused by its format's name.
    @Test func picturesInFormatsNotReadAreNamedWithWhatToDo() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        try Self.writePhoto(scratch.file("in/one.png"))
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF,
                                          0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B]
        let bmp = Array("BM".utf8) + [58, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
                                      1, 0, 24, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0x13, 0x0B, 0, 0, 0x13, 0x0B, 0, 0,
                                      0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0x40, 0x80, 0]
        try Data(gif).write(to: URL(fileURLWithPath: scratch.file("in/logo.gif")))
        try Data(bmp).write(to: URL(fileURLWithPath: scratch.file("in/scan.bmp")))
        for name in ["notes.txt", "list.csv", "data.bin"] {
            try Data("not a picture".utf8).write(to: URL(fileURLWithPath: scratch.file("in/\(name)")))
        }
        let folder = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out")])
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(folder.stderr == "colorcube: 1 done, 0 skipped, 0 failed; passed over 2 GIF/BMP pictures (logo.gif, scan.bmp: "
            + "formats colorcube does not read; convert them to PNG) and 3 files colorcube does not recognise as images "
            + "(data.bin, list.csv, notes.txt)\n")
        #expect(scratch.listing("out") == ["one.png"])

        let named = try CommandRunner.run(["apply", look, scratch.file("in/logo.gif"), "-o", scratch.file("logo.png")])
        #expect(named.status == 1)
        #expect(named.stderr == "colorcube: error: \(scratch.file("in/logo.gif")) is a GIF picture, a format colorcube does not read; "
            + "convert it to PNG (or TIFF, JPEG) first\n")
        #expect(!scratch.exists("logo.png"))
    }

    @Test func aFolderWithNoImageSaysSoAndFails() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        try Data("shopping list".utf8).write(to: URL(fileURLWithPath: scratch.file("in/notes.txt")))
        let result = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("found no image to grade in \(scratch.file("in")); passed over 1 file colorcube does not recognise as images (notes.txt)"))
    }

    @Test func aHostileHeaderIsOneMessageNotACrash() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        // IHDR of 100000x100000 RGB, an empty zlib stream and IEND, with correct CRCs: 69 bytes
        // that declare 30 GB.
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc = ~crc
            let length = UInt32(data.count)
            return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
                + body + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 8, 2, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
        try Data(png).write(to: URL(fileURLWithPath: scratch.file("huge.png")))
        let result = try CommandRunner.run(["apply", look, scratch.file("huge.png"), "-o", scratch.file("out.png")])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("colorcube: error: \(scratch.file("huge.png")): 100000x100000 is 10,000,000,000 pixels, over the limit of 500,000,000 pixels"))
        #expect(!result.stderr.contains("Fatal error"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out.png")))
    }

    @Test func skipExistingLeavesOutputsUntouched() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        try Self.writePhoto(scratch.file("in/one.png"))
        try Self.writePhoto(scratch.file("in/two.png"))
        try FileManager.default.createDirectory(atPath: scratch.file("out"), withIntermediateDirectories: true)
        try Data("placeholder".utf8).write(to: URL(fileURLWithPath: scratch.file("out/one.png")))
        let result = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out"), "--skip-existing"])
        #expect(result.status == 0)
        #expect(result.stderr == "colorcube: 1 done, 1 skipped, 0 failed\n")
        #expect(try String(contentsOfFile: scratch.file("out/one.png"), encoding: .utf8) == "placeholder")
        #expect(ImageFormat(sniffing: scratch.file("out/two.png")) == .png)
    }

    @Test func shardsCoverEveryFileExactlyOnce() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("in/sub"), withIntermediateDirectories: true)
        for i in 0..<12 { try Self.writePhoto(scratch.file(i % 2 == 0 ? "in/p\(i).png" : "in/sub/p\(i).png"), width: 8, height: 8) }
        var seen: [String] = []
        for k in 0..<3 {
            let result = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out\(k)"), "--shard", "\(k)/3"])
            #expect(result.status == 0, "\(result.stderr)")
            seen += scratch.listing("out\(k)").filter { $0.hasSuffix(".png") }
        }
        #expect(seen.sorted() == scratch.listing("in").filter { $0.hasSuffix(".png") })
        let bad = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("x"), "--shard", "3/3"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("invalid --shard 3/3"))
    }

    @Test func refusesToOverwriteAnInput() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try Self.writePhoto(scratch.file("photo.png"))
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.file("photo.png")))
        let result = try CommandRunner.run(["apply", look, scratch.file("photo.png"), "-o", scratch.file("photo.png")])
        #expect(result.status == 1)
        #expect(result.stderr == "colorcube: error: refusing to write \(scratch.file("photo.png")): it is an input; choose another output name\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("photo.png"))) == before)

        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        try Self.writePhoto(scratch.file("in/a.png"))
        let inside = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("in/graded")])
        #expect(inside.status == 1)
        #expect(inside.stderr.contains("is inside the input folder"))
        #expect(!scratch.exists("in/graded"))
    }

    @Test func collidingOutputsAreRefusedBeforeWriting() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        for folder in ["x/photos", "y/photos"] {
            try FileManager.default.createDirectory(atPath: scratch.file(folder), withIntermediateDirectories: true)
            try Self.writePhoto(scratch.file("\(folder)/a.png"))
        }
        let result = try CommandRunner.run(["apply", look, scratch.file("x/photos"), scratch.file("y/photos"), "-o", scratch.file("out")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("would both be written to"))
        #expect(!scratch.exists("out"))
    }

    @Test func severalInputsMirrorFolderNames() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("trip/day1"), withIntermediateDirectories: true)
        try Self.writePhoto(scratch.file("trip/day1/a.png"))
        try Self.writePhoto(scratch.file("loose.png"))
        let result = try CommandRunner.run(["apply", look, scratch.file("trip"), scratch.file("loose.png"), "-o", scratch.file("out")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(scratch.listing("out") == ["loose.png", "trip", "trip/day1", "trip/day1/a.png"])
    }

    @Test func theLookIsProtectedToo() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        let before = try Data(contentsOf: URL(fileURLWithPath: look))
        try Self.writePhoto(scratch.file("photo.png"))
        let single = try CommandRunner.run(["apply", look, scratch.file("photo.png"), "-o", look])
        #expect(single.status == 1)
        #expect(single.stderr == "colorcube: error: refusing to write \(look): it is an input; choose another output name\n")

        // A batch whose tree holds a file named like the look, written into the look's folder.
        try FileManager.default.createDirectory(atPath: scratch.file("src"), withIntermediateDirectories: true)
        try Self.writePhoto(scratch.file("src/invert.png"))
        let batch = try CommandRunner.run(["apply", look, scratch.file("src"), "-o", scratch.path])
        #expect(batch.status == 1)
        #expect(batch.stderr.contains("refusing to write \(look)"))

        let raw = try CommandRunner.run(["apply", look, "--raw", "2x2", "--pixel-format", "rgb24", "-o", look], input: Data(count: 12))
        #expect(raw.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: look)) == before)
    }

    @Test func rawStreamRefusesToTruncateItsInput() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        let frames = Data((0..<(4 * 4 * 3 * 2)).map { UInt8($0 % 256) })
        try frames.write(to: URL(fileURLWithPath: scratch.file("in.rgb")))
        try FileManager.default.createSymbolicLink(atPath: scratch.file("link.rgb"), withDestinationPath: scratch.file("in.rgb"))
        for output in [scratch.file("in.rgb"), scratch.file("link.rgb"), "./in.rgb"] {
            let result = try CommandRunner.run(["apply", look, "--raw", "4x4", "--pixel-format", "rgb24",
                                                "-i", scratch.file("in.rgb"), "-o", output], in: scratch.path)
            #expect(result.status == 1, "\(output)")
            #expect(result.stderr.contains("it is an input"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("in.rgb"))) == frames)
        let folder = try CommandRunner.run(["apply", look, "--raw", "4x4", "--pixel-format", "rgb24", "-i", scratch.path])
        #expect(folder.stderr == "colorcube: error: cannot open \(scratch.path): it is a folder; give a file of raw frames\n")
    }

    @Test func rawStreamRefusesImageFileOptions() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        let options = [["--jobs", "2"], ["--skip-existing"], ["--shard", "0/2"], ["--quality", "80"], ["--benchmark"]]
        for option in options {
            let result = try CommandRunner.run(["apply", look, "--raw", "2x2", "--pixel-format", "rgb24"] + option,
                                               input: Data(count: 12))
            #expect(result.status == 64, "\(option)")
            #expect(result.stderr.contains("\(option[0]) applies to image files, not to --raw frame streams"), "\(option)")
            #expect(result.stdout.isEmpty, "\(option)")
        }
    }

    @Test func badOutputFoldersFailOnceBeforeAnyWork() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        for i in 0..<3 { try Self.writePhoto(scratch.file("in/p\(i).png"), width: 8, height: 8) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: scratch.file("notes.txt")))
        let file = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("notes.txt")])
        #expect(file.status == 1)
        #expect(file.stderr == "colorcube: error: \(scratch.file("notes.txt")) is a file, but these inputs need an output folder; give a folder name\n")

        // Through a link, an output folder inside the input folder is still refused.
        try FileManager.default.createSymbolicLink(atPath: scratch.file("alias"), withDestinationPath: scratch.file("in"))
        let linked = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("alias/graded")])
        #expect(linked.status == 1)
        #expect(linked.stderr.contains("is inside the input folder"))
        #expect(!scratch.exists("in/graded"))
    }

    @Test func misnamedImagesAreWrittenInTheFormatTheirNameSays() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        try Self.writePhoto(scratch.file("photo.png"))
        try JPEGFile.write(try PNGFile.read(path: scratch.file("photo.png")), to: scratch.file("in/actually-jpeg.png"))
        let result = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(ImageFormat(sniffing: scratch.file("out/actually-jpeg.png")) == .png)
    }

    @Test func unsupportedOutputFormatIsRefused() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try Self.writePhoto(scratch.file("photo.png"))
        let result = try CommandRunner.run(["apply", look, scratch.file("photo.png"), "-o", scratch.file("photo.gif")])
        #expect(result.status == 1)
        #expect(result.stderr == "colorcube: error: cannot write \(scratch.file("photo.gif")): colorcube writes \(ImageCodecs.writableExtensions) images; name the output with one of those extensions, or give a folder\n")
        #expect(!scratch.exists("photo.gif"))
    }

    @Test func jpegInPngOut() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try Self.writePhoto(scratch.file("photo.png"))
        try JPEGFile.write(try PNGFile.read(path: scratch.file("photo.png")), to: scratch.file("photo.jpg"), quality: 95)
        let result = try CommandRunner.run(["apply", look, scratch.file("photo.jpg"), "-o", scratch.file("graded.png")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(ImageFormat(sniffing: scratch.file("graded.png")) == .png)
    }

    @Test func progressLineOnlyOnATerminal() throws {
        let scratch = try Scratch()
        let look = try Self.writeInvertLook(scratch)
        try FileManager.default.createDirectory(atPath: scratch.file("in"), withIntermediateDirectories: true)
        for i in 0..<3 { try Self.writePhoto(scratch.file("in/p\(i).png"), width: 8, height: 8) }
        let piped = try CommandRunner.run(["apply", look, scratch.file("in"), "-o", scratch.file("out1")])
        #expect(!piped.stderr.contains("images"), "no progress line when stderr is a pipe: \(piped.stderr)")
        #expect(!piped.stderr.contains("\r"))

        // `script` (util-linux) runs the command on a pseudo-terminal.
        let (_, text) = try FirstHourCommandTests.onTerminal([CommandRunner.binary, "apply", look, scratch.file("in"), "-o",
                                                             scratch.file("out2")])
        #expect(text.contains("3/3 images"), "progress on a terminal: \(text)")
    }

    private func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for relative in FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [] {
            var isFolder: ObjCBool = false
            let path = folder + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }
}
