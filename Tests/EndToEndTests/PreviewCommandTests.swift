import ColorCubeImaging
import Foundation
import Testing

@Suite struct PreviewCommandTests {
    @Test func theSheetHasOneLabelledThumbnailPerLookAndTheOriginal() throws {
        let scratch = try Scratch()
        let photo = try #require(Resources.photo("chelsea.png"))
        try CommandRunner.run(["generate", "--look", "cyanotype", "--size", "16", "-o", scratch.file("cyanotype.png")])
        try CommandRunner.run(["generate", "--look", "warm-fade", "--size", "16", "-o", scratch.file("warm.png")])
        try CommandRunner.run(["convert", scratch.file("warm.png"), "-o", scratch.file("warm.cube")])
        let result = try CommandRunner.run(["preview", scratch.file("cyanotype.png"), scratch.file("warm.cube"),
                                            "--image", photo, "--width", "100", "--columns", "2", "-o", scratch.file("sheet.png")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let sheet = try PNGFile.read(path: scratch.file("sheet.png"))
        let source = try PNGFile.read(path: photo)
        let thumbnailHeight = Int((Double(source.height) * 100 / Double(source.width)).rounded())
        // Two columns of 100-pixel thumbnails with 12-pixel gaps; two rows (three cells) with
        // 22-pixel label bands.
        #expect(sheet.width == 12 + 2 * (100 + 12))
        #expect(sheet.height == 12 + 2 * (thumbnailHeight + 22 + 12))
        #expect(sheet.channels == 3 && sheet.bitDepth == 8)
    }

    @Test func aJPEGSheetIsSmaller() throws {
        let scratch = try Scratch()
        let photo = try #require(Resources.photo("coffee.png"))
        try CommandRunner.run(["generate", "--look", "bleach-bypass", "--size", "16", "-o", scratch.file("b.png")])
        let result = try CommandRunner.run(["preview", scratch.file("b.png"), "--image", photo, "-o", scratch.file("sheet.jpg")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try JPEGFile.read(path: scratch.file("sheet.jpg")).width == 12 + 2 * (320 + 12))
    }

    @Test func aMissingLookFailsWithoutWritingASheet() throws {
        let scratch = try Scratch()
        let photo = try #require(Resources.photo("chelsea.png"))
        let result = try CommandRunner.run(["preview", scratch.file("absent.cube"), "--image", photo, "-o", scratch.file("sheet.png")])
        #expect(result.status == 1)
        #expect(result.stderr == "colorcube: error: cannot open \(scratch.file("absent.cube")): No such file or directory\n")
        #expect(scratch.listing().isEmpty)
    }

    @Test func theSheetMustBeAnImageFile() throws {
        let scratch = try Scratch()
        let result = try CommandRunner.run(["preview", "look.cube", "--image", "photo.png", "-o", scratch.file("sheet.gif")])
        #expect(result.status == 64)
        #expect(result.stderr.contains("give -o a .png or .jpg name for the contact sheet, not \(scratch.file("sheet.gif"))"))
    }
}
