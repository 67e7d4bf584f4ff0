import ColorCubeImaging
import Foundation
import Testing

/// `colorcube spaces`, `convert --from/--to` and `--look-space` through the built binary.
@Suite struct SpacesCommandTests {
    @Test func spacesListsEveryOneWithItsIDFirst() throws {
        let result = try CommandRunner.run(["spaces"])
        #expect(result.status == 0)
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.count == 65)
        #expect(lines.contains { $0.hasPrefix("ocio:slog3_sgamut3cine_scene") && $0.contains("S-Log3 S-Gamut3.Cine") })
        let sony = try CommandRunner.run(["spaces", "sony"])
        #expect(sony.stdoutText.split(separator: "\n").count == 8)
    }

    @Test func aConversionIsWrittenAsALook() throws {
        let scratch = try Scratch()
        let result = try CommandRunner.run(["convert", "--from", "slog3_sgamut3cine", "--to", "ACEScct", "-o", scratch.file("c.clf")])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try CommandRunner.run(["info", scratch.file("c.clf")])
        #expect(info.status == 0)
        // Exactly as operations: S-Log3's log, one matrix, ACEScct's log.
        #expect(info.stdoutText.contains("cameraLogToLin") && info.stdoutText.contains("cameraLinToLog"), "\(info.stdoutText)")
    }

    /// HLG's system gamma is no CLF node: the .clf is refused, naming the .ctf, which holds it
    /// (as OpenColorIO writes it) and reads back.
    @Test func anHDRDisplayConversionIsWrittenAsCTF() throws {
        let scratch = try Scratch()
        let arguments = ["convert", "--from", "Rec.2100-HLG - Display", "--to", "sRGB - Display", "-o"]
        let clf = try CommandRunner.run(arguments + [scratch.file("x.clf")])
        #expect(clf.status != 0 && clf.stderr.contains("HLG system gamma") && clf.stderr.contains(".ctf"), "\(clf.stderr)")
        let ctf = try CommandRunner.run(arguments + [scratch.file("x.ctf")])
        #expect(ctf.status == 0, "\(ctf.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["x.ctf"])
        let info = try CommandRunner.run(["info", scratch.file("x.ctf")])
        #expect(info.status == 0 && info.stdoutText.contains("CTF") && info.stdoutText.contains("Rec2100SurroundFwd"), "\(info.stdoutText)")
    }

    @Test func badSpacesGetOneLineAndNothingIsWritten() throws {
        let scratch = try Scratch()
        let cases: [[String]] = [
            ["convert", "--from", "slgo3", "--to", "acescct", "-o", scratch.file("a.clf")],
            ["convert", "--from", "slog3_sgamut3cine", "--to", "srgb_display", "-o", scratch.file("b.clf")],
            ["apply", "look.cube", "in.png", "--look-space", "nonsense", "-o", scratch.file("c.png")],
        ]
        for arguments in cases {
            let result = try CommandRunner.run(arguments, in: scratch.path)
            #expect(result.status != 0)
            let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("colorcube: error") || $0.hasPrefix("Error") }
            #expect(lines.count == 1, "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        let typo = try CommandRunner.run(cases[0])
        #expect(typo.stderr.contains("slog3"), "the nearest names: \(typo.stderr)")
        let crossing = try CommandRunner.run(cases[1])
        #expect(crossing.stderr.contains("view transform"))
    }

    /// An identity look applied in S-Log3 returns every code of an 8-bit photo: the two
    /// conversions undo each other exactly enough to round to the same codes.
    @Test func anIdentityLookInALogSpaceReturnsThePhoto() throws {
        let scratch = try Scratch()
        try ApplyCommandTests.writePhoto(scratch.file("in.png"))
        try Data(HostileInputCommandTests.identityCube.utf8).write(to: URL(fileURLWithPath: scratch.file("id.cube")))
        let result = try CommandRunner.run(["apply", scratch.file("id.cube"), scratch.file("in.png"), "--look-space", "slog3_sgamut3cine",
                                            "-o", scratch.file("out.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let input = try PNGFile.read(path: scratch.file("in.png")), output = try PNGFile.read(path: scratch.file("out.png"))
        guard case .eight(let before) = input.pixels, case .eight(let after) = output.pixels else {
            Issue.record("8-bit PNGs expected")
            return
        }
        #expect(before == after)
    }

    /// A CLF's descriptors are shown by info and used by --look-space auto, which equals naming them.
    @Test func lookSpaceAutoTakesTheCLFsDescriptors() throws {
        let scratch = try Scratch()
        let clf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ProcessList id="a" compCLFversion="3.0">
                <InputDescriptor>S-Log3 S-Gamut3.Cine</InputDescriptor>
                <OutputDescriptor>ocio:itu709_rec709_scene</OutputDescriptor>
                <Matrix inBitDepth="32f" outBitDepth="32f"><Array dim="3 3">0.9 0.1 0 0 1 0 0 0.1 0.9</Array></Matrix>
            </ProcessList>
            """
        try Data(clf.utf8).write(to: URL(fileURLWithPath: scratch.file("look.clf")))
        let info = try CommandRunner.run(["info", scratch.file("look.clf")])
        #expect(info.stdoutText.contains("ocio:slog3_sgamut3cine_scene") && info.stdoutText.contains("ocio:itu709_rec709_scene"),
                "\(info.stdoutText)")
        try ApplyCommandTests.writePhoto(scratch.file("in.png"))
        let auto = try CommandRunner.run(["apply", scratch.file("look.clf"), scratch.file("in.png"), "--look-space", "auto",
                                          "-o", scratch.file("auto.png")])
        #expect(auto.status == 0, "\(auto.stderr)")
        let named = try CommandRunner.run(["apply", scratch.file("look.clf"), scratch.file("in.png"), "--look-space", "slog3_sgamut3cine",
                                           "--look-output-space", "camera_rec709", "-o", scratch.file("named.png")])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("auto.png")))
            == Data(contentsOf: URL(fileURLWithPath: scratch.file("named.png"))))
        try Data(HostileInputCommandTests.identityCube.utf8).write(to: URL(fileURLWithPath: scratch.file("id.cube")))
        let none = try CommandRunner.run(["apply", scratch.file("id.cube"), scratch.file("in.png"), "--look-space", "auto",
                                          "-o", scratch.file("none.png")])
        #expect(none.status != 0 && none.stderr.contains("--look-space"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("none.png")))
    }
}
