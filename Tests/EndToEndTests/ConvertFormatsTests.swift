import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

/// Whether an external program is on the PATH, for tests that compare with other tools.
enum ExternalTool {
    static func path(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `name arguments...` and returns its exit status and standard error.
    static func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(path(name)))
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: text, as: UTF8.self))
    }
}

/// Images compared sample by sample.
enum ImageDifference {
    /// Mean and largest |a - b| over all samples of two images of the same size and depth.
    static func measure(_ a: RasterImage, _ b: RasterImage) throws -> (mean: Double, largest: Int) {
        try #require(a.width == b.width && a.height == b.height && a.channels == b.channels)
        var sum = 0, largest = 0
        for index in 0..<a.pixels.count {
            let d = abs(a.pixels[index] - b.pixels[index])
            sum += d
            largest = max(largest, d)
        }
        return (Double(sum) / Double(a.pixels.count), largest)
    }
}

@Suite struct ConvertFormatsTests {
    /// The RGB values of a .cube file's data lines.
    static func cubeValues(_ path: String) throws -> [Double] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").filter { $0.first?.isNumber == true || $0.first == "-" }
            .flatMap { $0.split(separator: " ").compactMap { Double($0) } }
    }

    @Test(arguments: [("bin", 1e-6), ("3dl", 0.5 / 4095 + 1e-6), ("png", 1e-6), ("icc", 3.0 / 65535)])
    func everyFormatConvertsBackToTheSameTable(format: String, tolerance: Double) throws {
        let scratch = try Scratch()
        // An 8-bit reference: every format above holds its values within `tolerance`.
        var result = try CommandRunner.run(["generate", "--look", "teal-orange", "--size", "16", "-o", scratch.file("look.png")])
        #expect(result.status == 0, "\(result.stderr)")
        result = try CommandRunner.run(["convert", scratch.file("look.png"), "-o", scratch.file("direct.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        let other = scratch.file("look-copy.\(format)")
        result = try CommandRunner.run(["convert", scratch.file("look.png"), "-o", other])
        #expect(result.status == 0, "\(result.stderr)")
        result = try CommandRunner.run(["convert", other, "-o", scratch.file("back.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try Self.cubeValues(scratch.file("direct.cube"))
        let observed = try Self.cubeValues(scratch.file("back.cube"))
        #expect(expected.count == 16 * 16 * 16 * 3 && observed.count == expected.count)
        let largest = zip(expected, observed).map { abs($0 - $1) }.max() ?? .infinity
        #expect(largest <= tolerance, "\(format): expected <= \(tolerance), observed \(largest)")
    }

    @Test func sizeChangesTheSize() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--look", "warm-fade", "-o", scratch.file("warm.png")])
        let result = try CommandRunner.run(["convert", scratch.file("warm.png"), "--size", "33", "-o", scratch.file("warm.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: scratch.file("warm.cube"), encoding: .utf8)
        #expect(text.contains("LUT_3D_SIZE 33\n"))
        #expect(try Self.cubeValues(scratch.file("warm.cube")).count == 33 * 33 * 33 * 3)
    }

    /// A correction taken from a collection keeps its own id in the .cc written, whatever the
    /// file is called.
    @Test func aCorrectionKeepsItsIdWhenWrittenOnItsOwn() throws {
        let scratch = try Scratch()
        func correction(_ id: String, slope: String) -> String {
            "  <ColorCorrection id=\"\(id)\">\n    <SOPNode>\n      <Slope>\(slope)</Slope>\n      <Offset>0 0 0</Offset>\n"
                + "      <Power>1 1 1</Power>\n    </SOPNode>\n  </ColorCorrection>\n"
        }
        let collection = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ColorCorrectionCollection xmlns=\"urn:ASC:CDL:v1.01\">\n"
            + correction("warm", slope: "1.1 1 0.9") + correction("cool", slope: "0.9 1 1.15") + "</ColorCorrectionCollection>\n"
        try Data(collection.utf8).write(to: URL(fileURLWithPath: scratch.file("shot.ccc")))

        var result = try CommandRunner.run(["convert", scratch.file("shot.ccc"), "--cdl-id", "cool", "-o", scratch.file("cool.cc")])
        #expect(result.status == 0, "\(result.stderr)")
        var text = try String(contentsOfFile: scratch.file("cool.cc"), encoding: .utf8)
        #expect(text.contains("<ColorCorrection id=\"cool\">\n"), "\(text)")
        #expect(text.contains("<Slope>0.9 1.0 1.15</Slope>"))

        result = try CommandRunner.run(["convert", scratch.file("shot.ccc"), "-o", scratch.file("first.cdl")])
        #expect(result.status == 0, "\(result.stderr)")
        text = try String(contentsOfFile: scratch.file("first.cdl"), encoding: .utf8)
        #expect(text.contains("<ColorCorrection id=\"warm\">\n"), "\(text)")
    }

    @Test func aLevel12HaldGoesBackTo64ForCoreImage() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--size", "16", "-o", scratch.file("identity.png")])
        var result = try CommandRunner.run(["convert", scratch.file("identity.png"), "--size", "144", "-o", scratch.file("hald-12.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGFile.read(path: scratch.file("hald-12.png"))
        #expect(image.width == 1728 && image.height == 1728)

        result = try CommandRunner.run(["convert", scratch.file("hald-12.png"), "-o", scratch.file("hald-12.bin")])
        #expect(result.status == 0)
        #expect(result.stderr == "colorcube: \(scratch.file("hald-12.bin")) holds a 144-cube; Core Image is reported to reject "
            + "cubes above 64 (CIColorCube takes 2 to 64): pass --size 64 for Core Image\n")

        result = try CommandRunner.run(["convert", scratch.file("hald-12.png"), "--size", "64", "-o", scratch.file("core.bin")])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.file("core.bin")))
        #expect(bytes.count == 64 * 64 * 64 * 16)
    }

    @Test func aCubeWithoutAHaldSizeCannotBeAPNG() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--look", "cyanotype", "-o", scratch.file("blue.png")])
        try CommandRunner.run(["convert", scratch.file("blue.png"), "--size", "33", "-o", scratch.file("blue.cube")])
        let result = try CommandRunner.run(["convert", scratch.file("blue.cube"), "-o", scratch.file("blue-again.png")])
        #expect(result.status == 1)
        #expect(result.stderr == "colorcube: error: cannot write \(scratch.file("blue-again.png")): a 33-cube cannot be stored as a Hald "
            + "PNG (sizes 4, 9, 16, ..., 256: a square of 2...16); pass --size, e.g. --size 64\n")
        #expect(!scratch.exists("blue-again.png"))
        let link = try CommandRunner.run(["convert", scratch.file("blue.png"), "--size", "256", "-o", scratch.file("blue.icc")])
        #expect(link.status == 1)
        #expect(link.stderr == "colorcube: error: cannot write \(scratch.file("blue.icc")): a 256-cube cannot be stored as an ICC "
            + "device link (sizes 2...255: an ICC colour table holds at most 255 points per axis); "
            + "pass --size 255 or smaller (65 or 33 are usual)\n")
        #expect(!scratch.exists("blue.icc"))
    }

    @Test func optionsAreCheckedBeforeAnythingIsRead() throws {
        let scratch = try Scratch()
        var result = try CommandRunner.run(["convert", scratch.file("absent.png"), "-o", scratch.file("a.cube"), "--depth", "16"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--depth applies to 3dl, png, tile, strip and unity-strip output, not cube"))
        result = try CommandRunner.run(["convert", scratch.file("absent.png"), "-o", scratch.file("a.3dl"), "--depth", "8"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("invalid --depth 8 for 3dl output; use 10, 12 or 16"))
        result = try CommandRunner.run(["convert", scratch.file("absent.png"), "--size", "300"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("invalid --size 300; use 2 to 256 points per axis"))
        result = try CommandRunner.run(["convert", scratch.file("absent.png"), "-o", scratch.file("a.lux")])
        #expect(result.status == 64)
        #expect(result.stderr.contains("cannot tell the format of \(scratch.file("a.lux")) from its extension"))
        #expect(scratch.listing().isEmpty)
    }

    @Test func sixteenBitHaldOutput() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--look", "bleach-bypass", "--size", "16", "-o", scratch.file("b.png")])
        let result = try CommandRunner.run(["convert", scratch.file("b.png"), "-o", scratch.file("b16.png"), "--depth", "16"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try PNGFile.read(path: scratch.file("b16.png")).bitDepth == 16)
    }

    @Test(.enabled(if: ExternalTool.path("ffmpeg") != nil, "ffmpeg is not installed"))
    func ffmpegAppliesOurCubeFilesLikeWeDo() throws {
        let scratch = try Scratch()
        let photo = try #require(Resources.photo("chelsea.png"))
        try CommandRunner.run(["generate", "--look", "teal-orange", "-o", scratch.file("look.png")])
        try CommandRunner.run(["convert", scratch.file("look.png"), "--size", "33", "-o", scratch.file("look.cube")])
        let ours = try CommandRunner.run(["apply", scratch.file("look.cube"), photo, "-o", scratch.file("ours.png")])
        #expect(ours.status == 0, "\(ours.stderr)")
        let theirs = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-i", photo,
                                                     "-vf", "lut3d=file=\(scratch.file("look.cube")):interp=trilinear",
                                                     "-pix_fmt", "rgb24", scratch.file("ffmpeg.png")])
        #expect(theirs.status == 0, "\(theirs.stderr)")
        let a = try PNGFile.read(path: scratch.file("ours.png"))
        let b = try PNGFile.read(path: scratch.file("ffmpeg.png"))
        let difference = try ImageDifference.measure(a, b)
        #expect(difference.largest <= 1, "largest difference \(difference.largest) code values, mean \(difference.mean)")
    }

    @Test(.enabled(if: ExternalTool.path("jpgicc") != nil, "jpgicc (liblcms2-utils) is not installed"))
    func jpgiccAppliesOurDeviceLinksLikeWeDo() throws {
        let scratch = try Scratch()
        let photo = try #require(Resources.photo("rocket.jpg"))
        try CommandRunner.run(["generate", "--look", "cyanotype", "-o", scratch.file("look.png")])
        let converted = try CommandRunner.run(["convert", scratch.file("look.png"), "--size", "33", "-o", scratch.file("look.icc")])
        #expect(converted.status == 0, "\(converted.stderr)")
        // Little CMS interpolates 3D tables tetrahedrally.
        let ours = try CommandRunner.run(["apply", scratch.file("look.icc"), photo, "-o", scratch.file("ours.jpg"),
                                          "--interpolation", "tetrahedral", "--quality", "95"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let theirs = try ExternalTool.run("jpgicc", ["-q", "95", "-l", scratch.file("look.icc"), photo, scratch.file("jpgicc.jpg")])
        #expect(theirs.status == 0, "\(theirs.stderr)")
        let a = try JPEGFile.read(path: scratch.file("ours.jpg"))
        let b = try JPEGFile.read(path: scratch.file("jpgicc.jpg"))
        let original = try JPEGFile.read(path: photo)
        let difference = try ImageDifference.measure(a, b)
        // Both re-encode the JPEG, so allow a few code values of compression noise...
        #expect(difference.mean <= 2, "mean difference \(difference.mean) code values, largest \(difference.largest)")
        // ...where the look itself moves colours much further.
        #expect(try ImageDifference.measure(a, original).mean > 10 * difference.mean)
    }
}
