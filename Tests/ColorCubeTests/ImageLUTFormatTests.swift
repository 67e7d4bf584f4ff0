import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeGenerator
import ColorCubeImaging
import Foundation
import Testing

/// Image LUTs in the tile and strip layouts beside Hald: where each node sits, exact identities,
/// round trips, the layout found by content, an explicit choice, and bad sizes refused.
@Suite struct ImageLUTFormatTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The sample looks in LUTs/, each a 64-cube Hald PNG.
    static let sampleLooks = ["teal-orange", "warm-fade", "bleach-bypass", "cyanotype", "bw-red-filter", "night-vision",
                              "infrared-hot-black"]

    /// Code of node i of N at `maxCode`: round(maxCode * i / (N - 1)).
    static func code(_ i: Int, size: Int, maxCode: Int = 255) -> Int {
        Int((Double(maxCode * i) / Double(size - 1)).rounded())
    }

    static func rgb(_ image: RasterImage, x: Int, y: Int) -> [Int] {
        let base = (y * image.width + x) * image.channels
        return (0..<3).map { image.pixels[base + $0] }
    }

    /// `image` with every RGB code passed through `edit` (8-bit), a colour adjustment made in an editor.
    static func edited(_ image: RasterImage, _ edit: (Int, Int, Int) -> (Int, Int, Int)) -> RasterImage {
        guard case .eight(var samples) = image.pixels else { return image }
        for pixel in 0..<image.pixelCount {
            let base = pixel * image.channels
            let out = edit(Int(samples[base]), Int(samples[base + 1]), Int(samples[base + 2]))
            samples[base] = UInt8(out.0)
            samples[base + 1] = UInt8(out.1)
            samples[base + 2] = UInt8(out.2)
        }
        var copy = image
        copy.pixels = .eight(samples)
        return copy
    }

    // MARK: Where each node sits

    @Test func nodesSitWhereTheEnginesLookForThem() throws {
        // OBS / GPUImage tile: blue picks the tile in raster order, red along x, green down y.
        let tile = try ImageLUTLayout(kind: .tile, cubeSize: 64)
        #expect(tile.width == 512 && tile.height == 512)
        #expect(tile.pixelIndex(r: 1, g: 2, b: 9) == (64 + 2) * 512 + 64 + 1)
        #expect(tile.pixelIndex(r: 63, g: 63, b: 63) == 512 * 512 - 1)
        // Unreal strip: black at the top left, green down.
        let strip = try ImageLUTLayout(kind: .strip, cubeSize: 16)
        #expect(strip.width == 256 && strip.height == 16)
        #expect(strip.pixelIndex(r: 3, g: 5, b: 7) == 5 * 256 + 7 * 16 + 3)
        // Unity strip: green up, black at the bottom left.
        let unity = try ImageLUTLayout(kind: .unityStrip, cubeSize: 32)
        #expect(unity.width == 1024 && unity.height == 32)
        #expect(unity.pixelIndex(r: 0, g: 0, b: 0) == 31 * 1024)
        #expect(unity.pixelIndex(r: 3, g: 5, b: 7) == 26 * 1024 + 7 * 32 + 3)
        let hald = try ImageLUTLayout(kind: .hald, cubeSize: 16)
        #expect(hald.pixelIndex(r: 3, g: 5, b: 7) == 3 + 16 * 5 + 256 * 7)
    }

    @Test func sizesTellTheCandidateLayouts() throws {
        #expect(ImageLUTLayout.candidates(width: 512, height: 512).map(\.kind) == [.hald, .tile])
        #expect(ImageLUTLayout.candidates(width: 1024, height: 32).map(\.kind) == [.strip, .unityStrip])
        #expect(ImageLUTLayout.candidates(width: 1024, height: 32).allSatisfy { $0.cubeSize == 32 })
        #expect(ImageLUTLayout.candidates(width: 500, height: 512).isEmpty)
        #expect(ImageLUTLayout.candidates(width: 256, height: 15).isEmpty)
        #expect(throws: CubeError.invalidSize(33)) { try ImageLUTLayout(kind: .tile, cubeSize: 33) }
        #expect(throws: CubeError.invalidSize(1)) { try ImageLUTLayout(kind: .strip, cubeSize: 1) }
        #expect(throws: CubeError.invalidSize(257)) { try ImageLUTLayout(kind: .unityStrip, cubeSize: 257) }
    }

    /// The table's run-at-a-time copy (the fast path) against one pixel per entry through
    /// `pixelIndex` (the scalar reference), over ranges that start and end inside red lines.
    @Test(arguments: ImageLUTLayout.Kind.allCases)
    func runCopiesMatchPixelByPixelReading(kind: ImageLUTLayout.Kind) throws {
        let size = 16
        let layout = try ImageLUTLayout(kind: kind, cubeSize: size)
        var random = TestRandom(seed: 3)
        let samples = (0..<(layout.pixelCount * 3)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let image = RasterImage(width: layout.width, height: layout.height, channels: 3, pixels: .eight(samples))
        let table = ReferenceTable(image: image, layout: layout)
        for range in [0..<table.entryCount, 5..<40, 250..<1111, (table.entryCount - 19)..<table.entryCount] {
            var copied = [SIMD4<Float>](repeating: .zero, count: range.count)
            copied.withUnsafeMutableBufferPointer { table.copyEntries(range, into: $0.baseAddress!) }
            var mismatches = 0
            for (offset, index) in range.enumerated() {
                let r = index % size, g = (index / size) % size, b = index / (size * size)
                let pixel = layout.pixelIndex(r: r, g: g, b: b)
                let expected = SIMD4<Float>((0..<3).map { Float(samples[pixel * 3 + $0]) / 255 } + [1])
                if copied[offset] != expected { mismatches += 1 }
            }
            #expect(mismatches == 0, "\(kind) \(range)")
        }
    }

    // MARK: Identities

    @Test(arguments: [(ImageLUTLayout.Kind.tile, 16), (.tile, 64), (.strip, 16), (.strip, 32), (.unityStrip, 32)], [8, 16])
    func generatedIdentitiesAreExactInEveryPixel(layout kindAndSize: (ImageLUTLayout.Kind, Int), depth: Int) throws {
        let (kind, size) = kindAndSize
        let folder = try TemporaryDirectory()
        let path = folder.file("identity.png")
        try ReferenceGenerator.writeIdentity(size: size, bitDepth: depth, layout: kind, to: path)
        let image = try PNGFile.read(path: path)
        let layout = try ImageLUTLayout(kind: kind, cubeSize: size)
        #expect(image.width == layout.width && image.height == layout.height && image.bitDepth == depth)
        let maxCode = depth == 8 ? 255 : 65535
        var mismatches = 0
        for b in 0..<size {
            for g in 0..<size {
                for r in 0..<size {
                    let pixel = layout.pixelIndex(r: r, g: g, b: b)
                    let expected = [r, g, b].map { Self.code($0, size: size, maxCode: maxCode) }
                    if Self.rgb(image, x: pixel % image.width, y: pixel / image.width) != expected { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
        // Read back with nothing said: the same layout, every node its own input colour, exactly.
        let look = try LUTReader.read(path: path)
        #expect(look.format.name == kind.rawValue)
        let table = try #require(look.plainTable)
        var largest: Float = 0
        for index in 0..<table.entryCount {
            let node = SIMD3<Int>(index % size, (index / size) % size, index / (size * size))
            let expected = SIMD3<Float>((0..<3).map { Float(Self.code(node[$0], size: size, maxCode: maxCode)) / Float(maxCode) })
            let entry = table.entry(at: index)
            largest = max(largest, abs(entry.x - expected.x), abs(entry.y - expected.y), abs(entry.z - expected.z))
        }
        #expect(largest == 0)
    }

    @Test func theUnityStripIsTheUnrealStripUpsideDown() throws {
        let folder = try TemporaryDirectory()
        try ReferenceGenerator.writeIdentity(size: 16, layout: .strip, to: folder.file("unreal.png"))
        try ReferenceGenerator.writeIdentity(size: 16, layout: .unityStrip, to: folder.file("unity.png"))
        let unreal = try PNGFile.read(path: folder.file("unreal.png")), unity = try PNGFile.read(path: folder.file("unity.png"))
        #expect(Self.rgb(unreal, x: 0, y: 0) == [0, 0, 0])
        #expect(Self.rgb(unity, x: 0, y: 15) == [0, 0, 0])
        #expect(Self.rgb(unity, x: 0, y: 0) == [0, 255, 0])
        for y in 0..<16 {
            for x in stride(from: 0, to: 256, by: 5) {
                #expect(Self.rgb(unreal, x: x, y: y) == Self.rgb(unity, x: x, y: 15 - y))
            }
        }
    }

    // MARK: The layout found by content

    /// The sample looks (Hald PNGs), resampled and written in every layout, come back in the
    /// layout they were written in, with their values.
    @Test func editedLooksAreReadInTheLayoutTheyWereWrittenIn() throws {
        let folder = try TemporaryDirectory()
        var misread: [String] = []
        for name in Self.sampleLooks {
            let hald = try LUTReader.read(path: Self.root.appendingPathComponent("LUTs/\(name).png").path)
            #expect(hald.format is HaldFormat && hald.notes.isEmpty, "\(name): \(hald.notes)")
            for (kind, size) in [(ImageLUTLayout.Kind.tile, 64), (.tile, 16), (.hald, 16), (.strip, 32), (.unityStrip, 16)] {
                let path = folder.file("\(name)-\(kind)-\(size).png")
                try LUTWriter.write(hald, format: ImageLUT.format(for: kind), to: path, title: name, size: size)
                let read = try LUTReader.read(path: path)
                let table = try #require(read.plainTable as? ReferenceTable)
                if table.layout.kind != kind { misread.append("\(name) \(kind) \(size): read as \(table.layout)") }
                // Hald and Unreal strips are the defaults; a tile or Unity strip says how it was read.
                #expect(read.notes.isEmpty == (kind == .hald || kind == .strip), "\(name) \(kind): \(read.notes)")
                let written = try hald.baked(size: size).table
                #expect(largestDifference(written, table) <= 0.5 / 255 + 1e-6)
            }
        }
        #expect(misread.isEmpty, "\(misread)")
    }

    /// Looks an editor makes from an identity that are far from it: a negative, a posterized
    /// image, a greyscale conversion; and a flat grey, which reads the same in both layouts.
    @Test func farFromIdentityLooksAreReadInTheirLayout() throws {
        let folder = try TemporaryDirectory()
        let edits: [(String, (Int, Int, Int) -> (Int, Int, Int))] = [
            ("negative", { (255 - $0, 255 - $1, 255 - $2) }),
            ("posterized", { r, g, b in let p = { (($0 * 4 / 256) * 255) / 3 }; return (p(r), p(g), p(b)) }),
            ("grey", { r, g, b in let y = (54 * r + 183 * g + 19 * b) / 256; return (y, y, y) }),
        ]
        for kind in ImageLUTLayout.Kind.allCases {
            let identity = folder.file("identity-\(kind).png")
            try ReferenceGenerator.writeIdentity(size: 16, layout: kind, to: identity)
            let image = try PNGFile.read(path: identity)
            for (name, edit) in edits {
                let path = folder.file("\(name)-\(kind).png")
                try PNGFile.write(Self.edited(image, edit), to: path)
                let table = try #require(try LUTReader.read(path: path).plainTable as? ReferenceTable)
                #expect(table.layout.kind == kind, "\(name) written as \(kind) read as \(table.layout)")
            }
        }
        let flat = folder.file("flat.png")
        try PNGFile.write(RasterImage(width: 64, height: 64, channels: 3, pixels: .eight([UInt8](repeating: 128, count: 64 * 64 * 3))), to: flat)
        let look = try LUTReader.read(path: flat)
        #expect(look.format is HaldFormat && look.notes.isEmpty)
    }

    @Test func aSquareImageNeitherReadingFitsIsRefusedAsNoLook() throws {
        // Pixels in a random order follow no grid in either layout: a picture, not a look.
        let folder = try TemporaryDirectory()
        var generator = TestRandom(seed: 7)
        let samples = (0..<(64 * 64 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = folder.file("scrambled.png")
        try PNGFile.write(RasterImage(width: 64, height: 64, channels: 3, pixels: .eight(samples)), to: path)
        let error = #expect(throws: ImageLUTError.self) { try LUTReader.read(path: path) }
        guard case .notALUTImage(let errorPath, let size, let incoherence)? = error else {
            Issue.record("expected notALUTImage, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path && size == 16)
        #expect(incoherence > 0.9, "\(incoherence)")
        #expect(error?.remedy == .lookComesFirst)
        // Asked for by name, the layout is read as asked.
        let asHald = try LUTReader.read(path: path, options: LUTReadOptions(imageLayout: .hald))
        #expect(asHald.format is HaldFormat)
    }

    /// Every sample look's reference, and identities of every size, are far below the limit.
    @Test func sampleLooksFollowTheirGrid() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("LUTs")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
        #expect(names.count >= 5)
        for name in names {
            let look = try LUTReader.read(path: folder.appendingPathComponent(name).path)
            let table = try #require(look.plainTable)
            #expect(ImageLUT.gridIncoherence(table) < 0.01, "\(name)")
        }
    }

    // MARK: An explicit choice

    @Test func anExplicitLayoutIsReadAsAsked() throws {
        let folder = try TemporaryDirectory()
        let tile = folder.file("tile.png"), unity = folder.file("unity.png")
        try ReferenceGenerator.writeIdentity(size: 16, layout: .tile, to: tile)
        try ReferenceGenerator.writeIdentity(size: 16, layout: .unityStrip, to: unity)
        // A tile image read as Hald: entry p is pixel p, so entry 16 (r 0, g 1) is the pixel right
        // of the first tile, the first node of tile 1 (b 1).
        let asHald = try LUTReader.read(path: tile, options: LUTReadOptions(imageLayout: .hald))
        #expect(asHald.format is HaldFormat && asHald.notes.isEmpty)
        let hald = try #require(asHald.plainTable)
        #expect(hald.entry(at: 16) == SIMD4(0, 0, 17.0 / 255, 1))
        // A Unity strip read as Unreal's: green upside down.
        let asUnreal = try LUTReader.read(path: unity, options: LUTReadOptions(imageLayout: .strip))
        #expect(asUnreal.format.name == "strip")
        #expect(try #require(asUnreal.plainTable).entry(at: 0) == SIMD4(0, 1, 0, 1))
        // The format handed to the reader chooses too, unless the options say otherwise.
        let viaFormat = try LUTReader.read(path: tile, format: ImageLUTFormat(.tile))
        #expect(viaFormat.format.name == "tile" && viaFormat.notes.isEmpty)
        let overridden = try LUTReader.read(path: tile, format: ImageLUTFormat(.tile), options: LUTReadOptions(imageLayout: .hald))
        #expect(overridden.format is HaldFormat)
    }

    // MARK: Bad sizes

    @Test func imagesOfNoLayoutsSizeAreRefusedNamingTheLayout() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("cropped.png")
        try PNGFile.write(RasterImage(width: 256, height: 15, channels: 3, pixels: .eight([UInt8](repeating: 0, count: 256 * 15 * 3))), to: path)
        #expect(throws: ImageLUTError.wrongDimensions(path: path, width: 256, height: 15, layout: .strip, expected: nil)) {
            try LUTReader.read(path: path, options: LUTReadOptions(imageLayout: .strip))
        }
        #expect(throws: ImageLUTError.wrongDimensions(path: path, width: 256, height: 15, layout: .tile, expected: nil)) {
            try LUTReader.read(path: path, format: ImageLUTFormat(.tile))
        }
        #expect(throws: ImageLUTError.wrongDimensions(path: path, width: 256, height: 15, layout: nil, expected: nil)) {
            try LUTReader.read(path: path)
        }
        let strip16 = try ImageLUTLayout(kind: .strip, cubeSize: 16)
        #expect(throws: ImageLUTError.wrongDimensions(path: path, width: 256, height: 15, layout: nil, expected: strip16)) {
            try LUTReader.read(path: path, options: LUTReadOptions(expectedSize: 16))
        }
        let message = ImageLUTError.wrongDimensions(path: "x.png", width: 256, height: 15, layout: .strip, expected: nil).description
        #expect(message.hasPrefix("x.png is 256x15 pixels, expected N tiles of NxN side by side, N^2 x N (256x16 for a 16-cube"))
        // A square image is no strip.
        let square = folder.file("square.png")
        try ReferenceGenerator.writeIdentity(size: 16, to: square)
        #expect(throws: ImageLUTError.wrongDimensions(path: square, width: 64, height: 64, layout: .unityStrip, expected: nil)) {
            try LUTReader.read(path: square, options: LUTReadOptions(imageLayout: .unityStrip))
        }
    }

    @Test func aStripOfAnotherSizeThanExpectedIsRefused() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("strip-32.png")
        try ReferenceGenerator.writeIdentity(size: 32, layout: .strip, to: path)
        let strip16 = try ImageLUTLayout(kind: .strip, cubeSize: 16)
        let expected = ImageLUTError.sizeMismatch(path: path, width: 1024, height: 32, foundSize: 32, expectedSize: 16,
                                                    expected: strip16)
        #expect(throws: expected) { try LUTReader.read(path: path, options: LUTReadOptions(expectedSize: 16)) }
        #expect(expected.description.contains("a 32-cube reference, but a 16-cube (256x16 pixels) was expected"))
    }

    @Test func sizesAndDepthsALayoutCannotHoldAreRefusedBeforeWriting() throws {
        let folder = try TemporaryDirectory()
        let cube = try ColorCube.identity(size: 33)
        #expect(throws: ConversionError.unsupportedSize(path: folder.file("a.png"), size: 33, format: "a tile LUT PNG",
                                                        sizes: "4, 9, 16, ..., 256: a square of 2...16", largestSize: nil)) {
            try LUTWriter.write(cube, format: ImageLUTFormat(.tile), to: folder.file("a.png"), title: "")
        }
        #expect(throws: ConversionError.self) {
            try LUTWriter.write(cube, format: ImageLUTFormat(.strip), to: folder.file("b.png"), title: "", options: .init(bitDepth: 12))
        }
        #expect(throws: GeneratorError.invalidSize(33, layout: .tile)) {
            try ReferenceGenerator.writeIdentity(size: 33, layout: .tile, to: folder.file("c.png"))
        }
        #expect(throws: GeneratorError.invalidSize(1, layout: .strip)) {
            try ReferenceGenerator.writeIdentity(size: 1, layout: .strip, to: folder.file("d.png"))
        }
        #expect(GeneratorError.invalidSize(1, layout: .strip).description
            == "invalid reference size 1 for a strip of tiles (Unreal); valid sizes are 2...256")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        // A 33-cube strip is fine: strips hold every size.
        try LUTWriter.write(cube, format: ImageLUTFormat(.strip), to: folder.file("e.png"), title: "")
        #expect(try PNGFile.read(path: folder.file("e.png")).width == 33 * 33)
    }
}
