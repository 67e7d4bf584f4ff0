import ColorCubeLooks
import ColorCubeCore
import ColorCubeGenerator
import ColorCubeImaging
import Foundation
import Testing

@Suite struct ReferenceGeneratorTests {
    /// The code value node i should have: round(max * i / (N - 1)), computed in Double.
    static func expectedCode(_ i: Int, size: Int, maxCode: Int) -> Int {
        Int((Double(maxCode * i) / Double(size - 1)).rounded())
    }

    /// Pixel (x, y) of entry (r, g, b) in a reference of `size`, as RGB codes.
    static func pixel(_ image: RasterImage, r: Int, g: Int, b: Int, size: Int) -> [Int] {
        let index = r + size * g + size * size * b
        let side = image.width
        let offset = ((index / side) * side + index % side) * image.channels
        return (0..<3).map { image.pixels[offset + $0] }
    }

    @Test(arguments: [(4, 8), (16, 64), (64, 512), (256, 4096)], [8, 16])
    func dimensionsAndChosenEntries(sizeAndSide: (Int, Int), depth: Int) throws {
        let (size, side) = sizeAndSide
        let folder = try TemporaryDirectory()
        let path = folder.file("identity.png")
        try ReferenceGenerator.writeIdentity(size: size, bitDepth: depth, to: path)
        let image = try PNGFile.read(path: path)
        #expect(image.width == side && image.height == side)
        #expect(image.channels == 3 && image.bitDepth == depth)
        #expect(image.colorSpace == .sRGB)
        let maxCode = depth == 8 ? 255 : 65535
        let last = size - 1
        #expect(Self.pixel(image, r: 0, g: 0, b: 0, size: size) == [0, 0, 0])
        #expect(Self.pixel(image, r: last, g: last, b: last, size: size) == [maxCode, maxCode, maxCode])
        #expect(Self.pixel(image, r: 1, g: 2, b: 3, size: size)
            == [1, 2, 3].map { Self.expectedCode($0, size: size, maxCode: maxCode) })
        // Red varies fastest: the second pixel of the first row is (1, 0, 0).
        #expect(Array(0..<3).map { image.pixels[3 + $0] } == [Self.expectedCode(1, size: size, maxCode: maxCode), 0, 0])
    }

    @Test func everyEntryOfThe64ReferenceIsExact() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("identity-64.png")
        try ReferenceGenerator.writeIdentity(size: 64, to: path)
        let image = try PNGFile.read(path: path)
        var mismatches = 0
        for b in 0..<64 {
            for g in 0..<64 {
                for r in 0..<64 where Self.pixel(image, r: r, g: g, b: b, size: 64)
                    != [r, g, b].map({ Self.expectedCode($0, size: 64, maxCode: 255) }) {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func referencesStaySmall() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("identity-64.png")
        try ReferenceGenerator.writeIdentity(size: 64, to: path)
        let bytes = try BinaryFile.readAll(path: path)
        #expect(bytes.count < 16_384, "the 64 reference is \(bytes.count) bytes")
    }

    @Test func rejectsOtherSizesAndDepths() throws {
        let folder = try TemporaryDirectory()
        #expect(throws: GeneratorError.invalidSize(33, layout: .hald)) {
            try ReferenceGenerator.writeIdentity(size: 33, to: folder.file("x.png"))
        }
        #expect(throws: ConversionError.bitDepth(BitDepthError(path: folder.file("x.png"), format: "a Hald PNG", asked: 12, allowed: [8, 16]))) {
            try ReferenceGenerator.writeIdentity(size: 16, bitDepth: 12, to: folder.file("x.png"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.png")))
    }

    @Test func unwritableFolderLeavesNothing() throws {
        #expect(throws: FileError.self) {
            try ReferenceGenerator.writeIdentity(size: 4, to: "/nonexistent-folder/identity-4.png")
        }
    }
}
