import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

@Suite struct LearnCommandTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("LUTs/samples").path
    static let look = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("LUTs/teal-orange.cube").path

    /// before/ and after/ folders: the PNG samples, the afters graded with the sample look and
    /// saved as PNG under the same names; plus one before without a partner.
    static func folders(_ scratch: Scratch) throws {
        try FileManager.default.createDirectory(atPath: scratch.file("before/sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.file("after/sub"), withIntermediateDirectories: true)
        for name in ["chelsea", "coffee"] {
            try FileManager.default.copyItem(atPath: samples + "/\(name).png", toPath: scratch.file("before/sub/\(name).png"))
            let result = try CommandRunner.run(["apply", look, samples + "/\(name).png", "-o", scratch.file("after/sub/\(name).jpg"),
                                                "--quality", "95"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        try FileManager.default.copyItem(atPath: samples + "/astronaut.png", toPath: scratch.file("before/astronaut.png"))
    }

    @Test func learnsFromFoldersAndReportsTheLooseFile() throws {
        let scratch = try Scratch()
        try Self.folders(scratch)
        let result = try CommandRunner.run(["learn", scratch.file("before"), scratch.file("after"), "-o", scratch.file("look.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("warning: \(scratch.file("before/astronaut.png")) has no partner"))
        #expect(result.stderr.contains("from 136320 pixels in 2 pairs"))
        #expect(result.stderr.contains("fit on the pairs: CIEDE2000 mean"))
        #expect(!result.stderr.contains("the learned look keeps only"))
        let text = try String(contentsOfFile: scratch.file("look.cube"), encoding: .utf8)
        #expect(text.contains("LUT_3D_SIZE 33"))
        // Deterministic: the same inputs write the same bytes.
        let again = try CommandRunner.run(["learn", scratch.file("before"), scratch.file("after"), "-o", scratch.file("again.cube")])
        #expect(again.status == 0)
        let first = try String(contentsOfFile: scratch.file("look.cube"), encoding: .utf8)
        let second = try String(contentsOfFile: scratch.file("again.cube"), encoding: .utf8)
        #expect(first.replacingOccurrences(of: "TITLE \"look\"", with: "") == second.replacingOccurrences(of: "TITLE \"again\"", with: ""))
    }

    /// A GIF in both folders is a picture colorcube does not read: left out of the pairs, not
    /// paired and failed.
    @Test func picturesColorcubeDoesNotReadAreNotPaired() throws {
        let scratch = try Scratch()
        try Self.folders(scratch)
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF,
                                          0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B]
        for side in ["before", "after"] {
            try Data(gif).write(to: URL(fileURLWithPath: scratch.file("\(side)/sub/logo.gif")))
        }
        let result = try CommandRunner.run(["learn", scratch.file("before"), scratch.file("after"), "-o", scratch.file("look.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("from 136320 pixels in 2 pairs"))
        #expect(!result.stderr.contains("logo.gif"))
    }

    @Test func theOutputFormatFollowsTheExtension() throws {
        let scratch = try Scratch()
        try Self.folders(scratch)
        let before = scratch.file("before/sub/coffee.png"), after = scratch.file("after/sub/coffee.jpg")
        var result = try CommandRunner.run(["learn", before, after, "-o", scratch.file("look.bin"), "--size", "16"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: scratch.file("look.bin"))[.size] as? Int == 16 * 16 * 16 * 16)
        result = try CommandRunner.run(["learn", before, after, "-o", scratch.file("look.png"), "--size", "16"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try PNGFile.read(path: scratch.file("look.png")).width == 64)
    }

    @Test func theReportPictureShowsEachPairAndTheCoverage() throws {
        let scratch = try Scratch()
        try Self.folders(scratch)
        let result = try CommandRunner.run(["learn", scratch.file("before"), scratch.file("after"), "-o", scratch.file("look.cube"),
                                            "--report", scratch.file("report.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let picture = try PNGFile.read(path: scratch.file("report.png"))
        // Thumbnails halved to 160x106 (the photos are 320x213), four to a row; the
        // coverage strip, 8 tiles of 96 pixels 4 apart, sets the width: 8 + 796 + 8.
        #expect(picture.width == 812)
        // Bands of 13 pixels for the column titles, the scale's numbers, the strip's title and the tiles' labels.
        #expect(picture.height == 8 + 13 + 2 * (106 + 8) + 12 + 13 + 8 + 13 + 13 + 96 + 8)
        // Labels are drawn in light ink: in the titles' band and under the heat map's scale.
        guard case .eight(let samples) = picture.pixels else { Issue.record("not 8-bit"); return }
        func inkRows(_ rows: Range<Int>) -> Int {
            rows.reduce(0) { count, y in
                count + (0..<picture.width).filter { x in samples[3 * (y * picture.width + x)] == 230 }.count
            }
        }
        #expect(inkRows(8..<21) > 100)
        let scaleTop = 8 + 13 + 2 * (106 + 8) + 12
        #expect(inkRows(scaleTop..<(scaleTop + 13)) > 20)
        let bad = try CommandRunner.run(["learn", "a.png", "b.png", "-o", scratch.file("look.cube"), "--report", scratch.file("r.txt")])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("must name a .png file"))
    }

    @Test func pairsOfDifferentSizesAreAnErrorAndNothingIsWritten() throws {
        let scratch = try Scratch()
        let result = try CommandRunner.run(["learn", Self.samples + "/coffee.png", Self.samples + "/astronaut.png",
                                            "-o", scratch.file("look.cube")])
        #expect(result.status == 1)
        #expect(result.stderr == "colorcube: error: \(Self.samples)/coffee.png is 320x213 pixels but \(Self.samples)/astronaut.png "
            + "is 320x320: the two images of a pair must have the same pixel size; export both at full size, uncropped and unrotated\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("look.cube")))
    }

    @Test func usageErrors() throws {
        let scratch = try Scratch()
        var result = try CommandRunner.run(["learn", "a.png", "b.png", "-o", scratch.file("look.txt")])
        #expect(result.status == 64)
        #expect(result.stderr.contains("cannot tell the format of"))
        result = try CommandRunner.run(["learn", "a.png", "b.png", "-o", scratch.file("look.cube"), "--size", "80"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("invalid --size 80; use 2 to 65 points per axis"))
        result = try CommandRunner.run(["learn", Self.samples, Self.samples + "/coffee.png", "-o", scratch.file("look.cube")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is a file but"))
    }

    /// Learned on sRGB photos and written for ACEScct, a look applied to the photo with
    /// `--look-space acescct` gives what the photo-space look gives, within the resampling of
    /// the cube into the other space's codes.
    @Test func aLookLearnedForAnotherSpaceGivesTheSameGradeThere() throws {
        let scratch = try Scratch()
        let before = Self.samples + "/coffee.png", after = scratch.file("after.png")
        var result = try CommandRunner.run(["apply", Self.look, before, "-o", after])
        #expect(result.status == 0, "\(result.stderr)")
        result = try CommandRunner.run(["learn", before, after, "-o", scratch.file("photo.cube")])
        #expect(result.status == 0, "\(result.stderr)")
        result = try CommandRunner.run(["learn", before, after, "-o", scratch.file("acescct.cube"), "--look-space", "acescct"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: scratch.file("acescct.cube"), encoding: .utf8)
            != String(contentsOfFile: scratch.file("photo.cube"), encoding: .utf8))
        result = try CommandRunner.run(["apply", scratch.file("photo.cube"), before, "-o", scratch.file("photo.png")])
        #expect(result.status == 0, "\(result.stderr)")
        result = try CommandRunner.run(["apply", scratch.file("acescct.cube"), before, "-o", scratch.file("acescct.png"),
                                        "--look-space", "acescct"])
        #expect(result.status == 0, "\(result.stderr)")
        guard case .eight(let viaPhoto) = try PNGFile.read(path: scratch.file("photo.png")).integerSamples,
              case .eight(let viaACEScct) = try PNGFile.read(path: scratch.file("acescct.png")).integerSamples else {
            Issue.record("expected 8-bit PNGs")
            return
        }
        #expect(viaPhoto.count == viaACEScct.count)
        let differences = zip(viaPhoto, viaACEScct).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        print("learned for ACEScct against learned for the photo: mean \(mean) codes, largest \(differences.max() ?? 0)")
        #expect(mean < 1.5)
        #expect((differences.max() ?? 0) <= 16)
        // Taken as a look on sRGB codes, the ACEScct look is far from the grade: it really expects ACEScct.
        result = try CommandRunner.run(["apply", scratch.file("acescct.cube"), before, "-o", scratch.file("misread.png")])
        #expect(result.status == 0, "\(result.stderr)")
        guard case .eight(let misread) = try PNGFile.read(path: scratch.file("misread.png")).integerSamples else { return }
        let misreadMean = Double(zip(viaPhoto, misread).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(misread.count)
        print("the ACEScct look on sRGB codes: mean \(misreadMean) codes from the grade")
        #expect(misreadMean > 10)

        // Spaces of another kind, and --image-space alone, are usage errors.
        result = try CommandRunner.run(["learn", before, after, "-o", scratch.file("x.cube"), "--look-space", "srgb_display"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("srgb_display") || result.stderr.contains("sRGB - Display"), "\(result.stderr)")
        result = try CommandRunner.run(["learn", before, after, "-o", scratch.file("x.cube"), "--image-space", "acescct"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--image-space needs --look-space"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("x.cube")))
    }
}
