import ColorCubeLooks
import Foundation
import Testing

/// `invert` of a look that works per channel writes a 1D LUT in the output format's 1D form, and
/// a cube only when --size asks for one or the format has no 1D form.
@Suite struct InvertCommandTests {
    /// Three rising curves of five entries: red squared, green unchanged, blue a square root.
    static let curves = """
        LUT_1D_SIZE 5
        0 0 0
        0.0625 0.25 0.5
        0.25 0.5 0.7071
        0.5625 0.75 0.866
        1 1 1

        """

    @Test(arguments: ["cube", "spi1d", "csp"])
    func aPerChannelLookInvertsIntoA1DLUT(format: String) throws {
        let scratch = try Scratch()
        let forward = scratch.file("curves.cube")
        try Data(Self.curves.utf8).write(to: URL(fileURLWithPath: forward))
        let output = scratch.file("undo.\(format)")
        let result = try CommandRunner.run(["invert", forward, "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let inverse = try LUTReader.read(path: output)
        #expect(inverse.transform.operations.map(\.description) == ["1D LUT, 4096 entries, domain 0...1"])
        // The forward look run on the inverse gives every colour back, within a hundredth of a code.
        let look = try LUTReader.read(path: forward)
        var largest = 0.0
        for step in 0...255 {
            let y = SIMD3(repeating: Double(step) / 255)
            let back = look.transform.apply(inverse.transform.apply(y))
            largest = max(largest, ((back - y) * 255).max(), ((y - back) * 255).max())
        }
        #expect(largest < 0.01, "\(format): off by up to \(largest) 8-bit codes")
    }

    @Test func sizeOrAFormatWithoutA1DFormStillGetsACube() throws {
        let scratch = try Scratch()
        let forward = scratch.file("curves.cube")
        try Data(Self.curves.utf8).write(to: URL(fileURLWithPath: forward))
        var result = try CommandRunner.run(["invert", forward, "-o", scratch.file("undo-17.cube"), "--size", "17"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: scratch.file("undo-17.cube"), encoding: .utf8)
        #expect(text.contains("LUT_3D_SIZE 17\n") && !text.contains("LUT_1D_SIZE"))
        result = try CommandRunner.run(["invert", forward, "-o", scratch.file("undo.3dl")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try LUTReader.read(path: scratch.file("undo.3dl")).plainTable?.size == 33)
    }
}
