import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeGenerator
import ColorCubeImaging
import Testing

@Suite struct ReferenceDecoderTests {
    /// An image LUT as read, with the lattice it holds.
    struct Decoded {
        let look: Look
        let table: any CubeTable & Sendable
        var roughness: Roughness? { look.roughness }
        var convertedFromProfile: String? { look.convertedFromProfile }
    }

    /// The image LUT at `path`, read as every caller reads it: through its format (a Hald reads
    /// every layout its image's size allows).
    static func decode(path: String, options: LUTReadOptions = LUTReadOptions()) throws -> Decoded {
        let look = try LUTReader.read(path: path, format: HaldFormat(), options: options)
        return Decoded(look: look, table: try #require(look.plainTable))
    }

    /// Largest difference between a table and the identity lattice.
    static func maxIdentityError(_ table: some CubeTable) -> Float {
        let identity = ColorCube(try! IdentityTable(size: table.size))
        var worst: Float = 0
        for index in 0..<table.entryCount {
            let difference = table.entry(at: index) - identity.entry(at: index)
            worst = max(worst, abs(difference.x), abs(difference.y), abs(difference.z), abs(difference.w))
        }
        return worst
    }

    @Test(arguments: [4, 16, 64, 256])
    func roundTripGivesTheIdentity(size: Int) throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("identity.png")
        try ReferenceGenerator.writeIdentity(size: size, to: path)
        let result = try Self.decode(path: path)
        #expect(result.table.size == size)
        let error = Self.maxIdentityError(result.table)
        if size == 64 {
            #expect(error <= 0.5 / 255, "max error \(error * 255) code values")
        } else {
            // 255 / (N - 1) is a whole number for 4, 16 and 256: every node is exactly i / (N - 1).
            #expect(error == 0, "max error \(error)")
        }
        #expect(result.roughness?.suggestsSpatialEdit == false)
    }

    @Test(arguments: [4, 16, 64])
    func sixteenBitRoundTrip(size: Int) throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("identity16.png")
        try ReferenceGenerator.writeIdentity(size: size, bitDepth: 16, to: path)
        let result = try Self.decode(path: path)
        #expect(Self.maxIdentityError(result.table) <= 0.5 / 65535)
    }

    @Test(arguments: ["identity-4-palette.png", "identity-16-gama.png", "identity-16-interlaced.png"])
    func expandedFormsKeepCodeValues(name: String) throws {
        let result = try Self.decode(path: Fixtures.path(name))
        #expect(Self.maxIdentityError(result.table) == 0)
    }

    @Test(arguments: ["grey-16.png", "grey-alpha-16.png"])
    func greyReferencesExpandToEqualChannels(name: String) throws {
        let result = try Self.decode(path: Fixtures.path(name))
        #expect(result.table.size == 16)
        for index in stride(from: 0, to: result.table.entryCount, by: 7) {
            let entry = result.table.entry(at: index)
            #expect(entry.x == entry.y && entry.y == entry.z && entry.w == 1)
        }
    }

    @Test func wrongDimensionsNameTheFileAndSizes() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("cropped.png")
        try PNGFile.write(RasterImage(width: 500, height: 512, channels: 3, pixels: .eight([UInt8](repeating: 0, count: 500 * 512 * 3))), to: path)
        let hald64 = try ImageLUTLayout(kind: .hald, cubeSize: 64)
        #expect(throws: ImageLUTError.wrongDimensions(path: path, width: 500, height: 512, layout: nil, expected: nil)) {
            try Self.decode(path: path)
        }
        #expect(throws: ImageLUTError.wrongDimensions(path: path, width: 500, height: 512, layout: nil, expected: hald64)) {
            try Self.decode(path: path, options: .init(expectedSize: 64))
        }
    }

    @Test func sizeMustAgreeWithTheImage() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("identity-16.png")
        try ReferenceGenerator.writeIdentity(size: 16, to: path)
        let hald64 = try ImageLUTLayout(kind: .hald, cubeSize: 64)
        #expect(throws: ImageLUTError.sizeMismatch(path: path, width: 64, height: 64, foundSize: 16, expectedSize: 64, expected: hald64)) {
            try Self.decode(path: path, options: .init(expectedSize: 64))
        }
    }

    @Test func transparentPixelsAreCountedOrPremultiplied() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("alpha.png")
        var samples = [UInt8](repeating: 255, count: 8 * 8 * 4)
        samples[3] = 0
        samples[7] = 128
        samples[4] = 200
        try PNGFile.write(RasterImage(width: 8, height: 8, channels: 4, pixels: .eight(samples)), to: path)
        #expect(throws: ImageLUTError.transparentPixels(path: path, count: 2)) {
            try Self.decode(path: path)
        }
        let result = try Self.decode(path: path, options: .init(alpha: .premultiply))
        let entry = result.table.entry(at: 1)
        #expect(entry.w == Float(128) / 255)
        #expect(abs(entry.x - Float(200) / 255 * (Float(128) / 255)) < 1e-6)
    }

    @Test func unreadableInputs() throws {
        let folder = try TemporaryDirectory()
        #expect(throws: ImageError.cannotOpen(path: folder.file("missing.png"), reason: "No such file or directory")) {
            try Self.decode(path: folder.file("missing.png"))
        }
        // A folder opens on Linux; the shim reports the failed read as CCPNG_CANNOT_OPEN.
        #expect(throws: ImageError.cannotOpen(path: folder.path, reason: "Is a directory")) {
            try PNGFile.read(path: folder.path)
        }
        let text = folder.file("notes.png")
        try Array("not a png".utf8).withUnsafeBytes { bytes in
            let file = try OutputFile(path: text)
            try file.write(bytes)
            try file.close()
        }
        #expect(throws: ImageError.notAnImage(path: text)) { try Self.decode(path: text) }

        let whole = folder.file("whole.png")
        try ReferenceGenerator.writeIdentity(size: 64, to: whole)
        let bytes = try BinaryFile.readAll(path: whole)
        let truncated = folder.file("truncated.png")
        try bytes.prefix(bytes.count / 2).withUnsafeBytes { half in
            let file = try OutputFile(path: truncated)
            try file.write(half)
            try file.close()
        }
        #expect(throws: ImageError.self) { try Self.decode(path: truncated) }
        do {
            _ = try Self.decode(path: truncated)
        } catch let error as ImageError {
            guard case .corrupt(let path, _) = error else {
                Issue.record("expected .corrupt, got \(error)")
                return
            }
            #expect(path == truncated)
        }
    }

    @Test func displayP3ReferenceIsConvertedLikeLittleCMS() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("p3.png")
        let identity = folder.file("identity.png")
        try ReferenceGenerator.writeIdentity(size: 16, to: identity)
        var image = try PNGFile.read(path: identity)
        let profile = TestProfiles.displayP3()
        image.colorSpace = .icc(profile)
        try PNGFile.write(image, to: path)

        let converted = try Self.decode(path: path)
        #expect(converted.convertedFromProfile != nil)
        var worst = 0.0
        for index in 0..<converted.table.entryCount {
            let r = index % 16, g = (index / 16) % 16, b = index / 256
            let expected = TestProfiles.toSRGB(SIMD3(Double(r), Double(g), Double(b)) / 15, from: profile)
            let entry = converted.table.entry(at: index)
            let clampedExpected = simd_clamp01(expected)
            worst = max(worst, abs(Double(entry.x) - clampedExpected.x), abs(Double(entry.y) - clampedExpected.y),
                        abs(Double(entry.z) - clampedExpected.z))
        }
        #expect(worst * 255 < 0.5, "largest difference from Little CMS: \(worst * 255) code values")
        // A saturated P3 green lies outside sRGB: converting must change it.
        #expect(converted.table.entry(at: 15 * 16).x < 0.01)

        let kept = try Self.decode(path: path, options: .init(ignoreProfile: true))
        #expect(kept.convertedFromProfile == nil)
        #expect(Self.maxIdentityError(kept.table) == 0)
    }

    private func simd_clamp01(_ v: SIMD3<Double>) -> SIMD3<Double> {
        pointwiseMin(pointwiseMax(v, .zero), .one)
    }
}
