import Foundation
import Testing

@Suite struct InfoCommandTests {
    @Test func describesAnIdentityReference() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--size", "16", "-o", scratch.file("identity.png")])
        let result = try CommandRunner.run(["info", scratch.file("identity.png")])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdoutText == """
            \(scratch.file("identity.png"))
              format:     Hald CLUT PNG, level 4, 8-bit
              size:       16 (16x16x16, 4,096 nodes)
              domain:     0...1
              output:     red 0.000...1.000, green 0.000...1.000, blue 0.000...1.000
              identity:   yes (every node within half an 8-bit code value of its input)
              Core Image: yes
              warnings:   none

            """)
    }

    @Test func describesALookInEveryFormat() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--look", "night-vision", "--size", "16", "-o", scratch.file("night.png")])
        for format in ["cube", "3dl", "icc", "bin"] {
            try CommandRunner.run(["convert", scratch.file("night.png"), "-o", scratch.file("night.\(format)")])
        }
        let result = try CommandRunner.run(["info"] + ["png", "cube", "3dl", "icc", "bin"].map { scratch.file("night.\($0)") })
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdoutText
        for name in ["Hald CLUT PNG, level 4, 8-bit", ".cube (Adobe/Iridas, Resolve)", ".3dl (Lustre/Flame)",
                     "ICC device link (RGB to RGB)", "raw Core Image data (RGBA Float32)"] {
            #expect(text.contains("  format:     \(name)\n"))
        }
        let identities = text.split(separator: "\n").filter { $0.hasPrefix("  identity:") }
        #expect(identities.count == 5)
        #expect(identities.allSatisfy { $0.hasPrefix("  identity:   no: CIEDE2000 from identity mean ") })
    }

    @Test func reportsTheDomainOfACube() throws {
        let scratch = try Scratch()
        var text = "LUT_3D_SIZE 2\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 1 2 4\n"
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { text += "\(Double(r) * 1.25) \(g) \(b)\n" } } }
        try text.write(toFile: scratch.file("wide.cube"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(["info", scratch.file("wide.cube")])
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("  domain:     red 0...1, green 0...2, blue 0...4\n"))
        #expect(result.stdoutText.contains("  Core Image: no: values outside 0...1\n"))
        #expect(result.stdoutText.contains("  warning:    values outside 0...1: .3dl, .m3d, .png, .icc and .xmp output clamp them\n"))
    }

    @Test func aFileThatCannotBeReadIsReportedAndTheRestStillDescribed() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--size", "4", "-o", scratch.file("small.png")])
        let result = try CommandRunner.run(["info", scratch.file("absent.cube"), scratch.file("small.png")])
        #expect(result.status == 1)
        #expect(result.stderr == "colorcube: error: cannot open \(scratch.file("absent.cube")): No such file or directory\n")
        #expect(result.stdoutText.hasPrefix("\(scratch.file("small.png"))\n  format:     Hald CLUT PNG, level 2, 8-bit\n"))
    }

    /// A table of Float32's largest values (OpenColorIO reads `inf` so) is described, and
    /// converted to every format, without a trap: the roughness histogram and the printed range
    /// used to convert those values to Int.
    @Test func aTableOfTheLargestFloatsIsDescribedAndConverted() throws {
        let scratch = try Scratch()
        let text = "<?xml version=\"1.0\"?>\n<ProcessList id=\"big\" compCLFversion=\"3.0\">\n"
            + "<LUT1D inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"4 3\">-inf 0 nan 0.25 0.5 0.5 0.75 inf 0.75 "
            + "inf 1 -inf</Array></LUT1D>\n<LUT3D inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"2 2 2 3\">"
            + "0 0 0 0 0 1 0 1 0 0 1 1 1 0 0 1 0 1 1 1 0 3e38 3e38 3e38</Array></LUT3D>\n</ProcessList>\n"
        try text.write(toFile: scratch.file("big.clf"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(["info", scratch.file("big.clf")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.contains("e+38, green "), "\(result.stdoutText)")
        for format in ["cube", "3dl", "m3d", "csp", "spi3d", "vf", "bin"] {
            let converted = try CommandRunner.run(["convert", scratch.file("big.clf"), "-o", scratch.file("big.\(format)")])
            #expect(converted.status == 0, "\(format): \(converted.stderr)")
        }
    }

    @Test func needsAFile() throws {
        let result = try CommandRunner.run(["info"])
        #expect(result.status == 64)
    }
}
