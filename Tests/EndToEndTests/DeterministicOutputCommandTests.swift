import ColorCubeCore
import Foundation
import Testing

/// Two runs of the same command write the same bytes.
@Suite struct DeterministicOutputCommandTests {
    @Test func applyingALookToAJPEGTwiceWritesIdenticalFiles() throws {
        let scratch = try Scratch()
        let photo = try #require(Resources.photo("rocket.jpg"))
        let look = Resources.packageRoot.appendingPathComponent("LUTs/warm-fade.cube").path
        for name in ["a.jpg", "b.jpg"] {
            let result = try CommandRunner.run(["apply", look, photo, "-o", scratch.file(name)])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let a = try BinaryFile.readAll(path: scratch.file("a.jpg"))
        #expect(a.count > 1000)
        #expect(try BinaryFile.readAll(path: scratch.file("b.jpg")) == a)
        // The embedded sRGB profile is dated 2025-01-01 00:00:00 whatever the day of the run.
        let signature = Array("acsp".utf8)
        let at = try #require((0..<(a.count - 4)).first { Array(a[$0..<($0 + 4)]) == signature })
        #expect(Array(a[(at - 12)..<at]) == [0x07, 0xE9, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])
    }

    @Test func deviceLinksWrittenTwiceAreIdentical() throws {
        let scratch = try Scratch()
        let look = Resources.packageRoot.appendingPathComponent("LUTs/teal-orange.cube").path
        for name in ["a.icc", "b.icc"] {
            let result = try CommandRunner.run(["convert", look, "-o", scratch.file(name)])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let a = try BinaryFile.readAll(path: scratch.file("a.icc"))
        #expect(try BinaryFile.readAll(path: scratch.file("b.icc")) == a)
        #expect(Array(a[24..<36]) == [0x07, 0xE9, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])
        #expect(Array(a[84..<100]) == [UInt8](repeating: 0, count: 16))
    }
}
