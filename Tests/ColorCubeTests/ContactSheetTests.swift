import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
import ColorCubeImaging
import Testing

@Suite struct ContactSheetTests {
    /// A 40 x 20 photo: left half red, right half blue.
    static func photo() -> RasterImage {
        var samples = [UInt8](repeating: 0, count: 40 * 20 * 3)
        for y in 0..<20 {
            for x in 0..<40 {
                let i = 3 * (y * 40 + x)
                if x < 20 { samples[i] = 200 } else { samples[i + 2] = 180 }
            }
        }
        return RasterImage(width: 40, height: 20, channels: 3, pixels: .eight(samples), colorSpace: .sRGB)
    }

    static func pixel(_ image: RasterImage, _ x: Int, _ y: Int) -> SIMD3<Int> {
        let i = 3 * (y * image.width + x)
        return SIMD3(image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
    }

    @Test func glyphsAreTheClassicFiveBySeven() {
        #expect(BitmapFont.rows(for: "A") == [0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11])
        #expect(BitmapFont.rows(for: "a") == BitmapFont.rows(for: "A"))
        #expect(BitmapFont.rows(for: "%") == BitmapFont.rows(for: "?"))
        #expect(BitmapFont.isSet("T", x: 0, y: 0) && BitmapFont.isSet("T", x: 2, y: 6) && !BitmapFont.isSet("T", x: 0, y: 6))
        #expect(!BitmapFont.isSet("T", x: 5, y: 0))
        #expect(BitmapFont.width(of: "AB") == 11)
        #expect(BitmapFont.width(of: "") == 0)
    }

    @Test func halvingAveragesEachBlockExactly() {
        let samples: [UInt8] = [0, 0, 0, 10, 20, 30, 100, 100, 100, 255, 255, 255,
                                20, 40, 60, 30, 60, 90, 0, 0, 0, 1, 1, 1]
        let image = RasterImage(width: 4, height: 2, channels: 3, pixels: .eight(samples))
        let half = ImageScaler.scaled(image, width: 2, height: 1)
        #expect(Self.pixel(half, 0, 0) == SIMD3(15, 30, 45))
        #expect(Self.pixel(half, 1, 0) == SIMD3(89, 89, 89))  // (100 + 255 + 0 + 1) / 4 = 89
    }

    @Test func alphaIsCompositedOverTheBackground() {
        let image = RasterImage(width: 1, height: 1, channels: 4, pixels: .sixteen([65535, 0, 0, 32768]))
        let flat = ImageScaler.scaled(image, width: 1, height: 1, background: SIMD3(0, 0, 255))
        #expect(Self.pixel(flat, 0, 0) == SIMD3(128, 0, 127))
    }

    @Test func theSheetShowsTheOriginalFirstThenEachLook() throws {
        let invert = LUTEngine(cube: try ColorCube(size: 2) { 1 - $0 })
        let options = ContactSheet.Options(thumbnailWidth: 20, columns: 2, labelScale: 1, gap: 4)
        let sheet = ContactSheet(options: options)
        let image = try sheet.render(photo: Self.photo(), looks: [.init(name: "invert", engine: invert), .init(name: "again", engine: invert)])
        // Three cells of 20 x (10 + label) in two columns.
        #expect(sheet.labelHeight == 11)
        #expect(image.width == 4 + 2 * (20 + 4))
        #expect(image.height == 4 + 2 * (10 + 11 + 4))
        #expect(image.colorSpace == .sRGB)
        // Original at (4, 4): red left, blue right.
        #expect(Self.pixel(image, 5, 5) == SIMD3(200, 0, 0))
        #expect(Self.pixel(image, 22, 5) == SIMD3(0, 0, 180))
        // The inverted look beside it.
        #expect(Self.pixel(image, 29, 5) == SIMD3(55, 255, 255))
        #expect(Self.pixel(image, 46, 5) == SIMD3(255, 255, 75))
        // The gap keeps the background.
        #expect(Self.pixel(image, 1, 1) == SIMD3(28, 28, 28))
    }

    @Test func labelsAreDrawnUnderTheThumbnail() throws {
        let options = ContactSheet.Options(thumbnailWidth: 40, columns: 1, labelScale: 1, gap: 0, originalName: "I")
        let image = try ContactSheet(options: options).render(photo: Self.photo(), looks: [])
        // "I" is 5 pixels wide, centred: columns 17...21; its top row is 0x0E (columns 18-20), drawn
        // two pixels under the 20-pixel thumbnail.
        #expect(Self.pixel(image, 18, 22) == SIMD3(232, 232, 232))
        #expect(Self.pixel(image, 17, 22) == SIMD3(28, 28, 28))
        #expect(Self.pixel(image, 19, 25) == SIMD3(232, 232, 232))
    }

    @Test func longNamesAreShortened() {
        let sheet = ContactSheet(options: .init(thumbnailWidth: 60, labelScale: 1))
        #expect(sheet.fitted("short", width: 60) == "SHORT")
        #expect(sheet.fitted("a-rather-long-name", width: 60) == "A-RATHER..")
    }

    @Test func aBrokenProfileIsReported() throws {
        var photo = Self.photo()
        photo.colorSpace = .icc(ICCProfileData(bytes: [1, 2, 3]))
        #expect(throws: ImageError.self) { try ContactSheet().render(photo: photo, looks: [], path: "p.png") }
    }
}
