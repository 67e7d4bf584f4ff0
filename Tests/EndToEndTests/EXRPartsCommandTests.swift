import ColorCubeImaging
import Foundation
import Testing

@Suite struct EXRPartsCommandTests {
    static let multiPart = Resources.packageRoot.appendingPathComponent("Tests/FuzzCorpus/exr/multipart-y-rgba.exr").path

    @Test func applyNotesWhichPartItReadOnceAndWritesThatPartAlone() throws {
        let scratch = try Scratch()
        try CommandRunner.run(["generate", "--size", "16", "-o", scratch.file("identity.png")])
        let result = try CommandRunner.run(["apply", scratch.file("identity.png"), Self.multiPart, "-o", scratch.file("out.exr")])
        #expect(result.status == 0, "\(result.stderr)")
        let note = "colorcube: \(Self.multiPart): a multi-part OpenEXR file: read part 1 \"subimage01\" of its 2 (counting from 0), "
            + "the first flat RGB one; an OpenEXR output holds that part alone, as a single-part file"
        #expect(result.stderr.components(separatedBy: "\n").filter { $0 == note }.count == 1, "\(result.stderr)")
        let output = try EXRFile.read(path: scratch.file("out.exr"), options: ImageReadOptions())
        #expect(output.width == 12 && output.channels == 4 && output.metadata.exr.map { $0.part == (0, 1) } == true)
    }
}
