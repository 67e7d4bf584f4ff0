import ColorCubeConverter
import ColorCubeLooks
import ColorCubeTransform
import ColorCubeCore
import ColorCubeGenerator
import Testing

/// Every format written by `LUTWriter` and read back by `LUTReader` gives the same table within the
/// format's precision.
@Suite struct FormatRoundTripTests {
    /// A look with different curves per channel, so any swap or transposition shows.
    static func look(size: Int) throws -> ColorCube {
        try ColorCube(size: size) { c in
            SIMD3(c.x * c.x * 0.9 + 0.05, 0.2 + 0.6 * c.y + 0.1 * c.z, 1 - 0.8 * c.z * (0.5 + 0.5 * c.x))
        }
    }

    /// Format name, bit depth, tolerance.
    static let cases: [(String, Int?, Float)] = [
        ("raw", nil, 0),
        // Rounding to 16 bits plus the SDK's sampled sRGB curve (within 2e-5 each way).
        ("xmp", nil, 0.5 / 65535 + 6e-5),
        ("cube", nil, 5e-7 + 1e-7),  // six decimals, plus Float rounding of the parsed value
        ("3dl", 10, 0.5 / 1023 + 1e-6),
        ("3dl", 12, 0.5 / 4095 + 1e-6),
        ("3dl", 16, 0.5 / 65535 + 1e-6),
        ("png", 8, 0.5 / 255 + 1e-6),
        ("png", 16, 0.5 / 65535 + 1e-6),
        // Read back with no layout named: the layout is found by content.
        ("tile", 8, 0.5 / 255 + 1e-6),
        ("tile", 16, 0.5 / 65535 + 1e-6),
        ("strip", 8, 0.5 / 255 + 1e-6),
        ("strip", 16, 0.5 / 65535 + 1e-6),
        ("unity-strip", 8, 0.5 / 255 + 1e-6),
        ("unity-strip", 16, 0.5 / 65535 + 1e-6),
        // Rounding to 16 bits plus Little CMS's 16-bit interpolation at nodes that do not fall on
        // whole 16-bit inputs.
        ("icc", nil, 3 / 65535),
        ("spi3d", nil, 5e-7 + 1e-7),
        ("csp", nil, 5e-7 + 1e-7),
        ("houdini", nil, 5e-7 + 1e-7),
        ("vf", nil, 5e-7 + 1e-7),
        ("m3d", nil, 0.5 / 4095 + 1e-6),
        ("clf", nil, 0),  // Float values in their shortest round-trip form
        ("ctf", nil, 0),  // as CLF
    ]

    /// Every format that can hold a cube (.spi1d and ASC CDL files hold no cube: their own tests
    /// write them).
    @Test func everyFormatOfTheTableIsTested() {
        // Formats that hold no cube (a 1D table, a matrix, a grade) are not here; each has its own tests.
        #expect(Set(LUTFormats.all.filter { $0.canHold(size: 16) }.map(\.name)) == Set(Self.cases.map(\.0)))
        #expect(Set(LUTFormats.all.names).count == LUTFormats.all.count)
    }

    @Test(arguments: cases)
    func roundTrip(name: String, depth: Int?, tolerance: Float) throws {
        let format = try #require(LUTFormats.all.named(name))
        let folder = try TemporaryDirectory()
        let cube = try Self.look(size: 16)
        let path = folder.file("look.\(format.extensions[0])")
        try LUTWriter.write(cube, format: format, to: path, title: "look", options: .init(bitDepth: depth))
        let read = try LUTReader.read(path: path)
        #expect(read.format.isSame(as: format))
        // A profile reads as its table between conversions: baked at the table's size, at its nodes.
        let back = read.plainTable == nil ? ColorCube(try read.baked(size: 16).table) : try read.cube()
        #expect(back.size == 16)
        let error = largestDifference(cube, back)
        #expect(error <= tolerance, "\(format.name) \(depth ?? 0)-bit: expected <= \(tolerance), observed \(error)")
    }

    @Test func formatsAreToldByContentWithoutAnExtension() throws {
        let folder = try TemporaryDirectory()
        let cube = try Self.look(size: 4)
        let sniffed: [any LUTFileFormat] = [CubeTextFormat(), HaldFormat(), DeviceLinkFormat(), Spi3DFormat(), CinespaceFormat(),
                                            HoudiniLUTFormat(), NukeVFFormat()]
        for format in sniffed {
            let named = folder.file("look.\(format.extensions[0])")
            try LUTWriter.write(cube, format: format, to: named, title: "look")
            let bare = folder.file("look-\(format.name)")
            try BinaryFile.readAll(path: named).withUnsafeBytes { bytes in
                let file = try OutputFile(path: bare)
                try file.write(bytes)
                try file.close()
            }
            #expect(try LUTReader.read(path: bare).format.isSame(as: format))
        }
    }

    @Test func haldLevel12ReadsBackAndResamplesTo64() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("hald-12.png")
        try ImageLUT.write(IdentityTable(size: 144), kind: .hald, to: path)
        let contents = try LUTReader.read(path: path)
        #expect(contents.format is HaldFormat)
        #expect(try contents.table.size == 144)
        // Every value is the 8-bit code writeHald rounded to, exactly.
        for index in stride(from: 0, to: 144 * 144 * 144, by: 997) {
            let r = index % 144, g = (index / 144) % 144, b = index / (144 * 144)
            let code = { (i: Int) in Float((Double(i) * 255 / 143).rounded()) / 255 }
            let expected = SIMD3(code(r), code(g), code(b))
            let e = try contents.table.entry(at: index)
            #expect(SIMD3(e.x, e.y, e.z) == expected)
        }
        // Resampling the 144 lattice itself to 64 gives the identity 64 (trilinear is exact on it).
        let exact = try CubeResampler.resample(IdentityTable(size: 144), to: 64)
        let exactError = largestDifference(exact, try ColorCube.identity(size: 64))
        #expect(exactError <= 1e-6, "observed \(exactError)")
        // Through the 8-bit image, the result is the identity within the image's rounding.
        let resampled = try CubeResampler.resample(contents.table, to: 64)
        let error = largestDifference(resampled, try ColorCube.identity(size: 64))
        #expect(error <= 0.5 / 255 + 1e-6, "observed \(error)")
    }

    @Test func resamplingKeepsAffineLooksExactly() throws {
        let affine = try ColorCube(size: 65) { c in SIMD3(0.1 + 0.8 * c.x, c.y * 0.5 + c.z * 0.25, 1 - c.z) }
        for interpolation in [Interpolation.trilinear, .tetrahedral] {
            let small = try CubeResampler.resample(affine, to: 33, interpolation: interpolation)
            let expected = try ColorCube(size: 33) { c in SIMD3(0.1 + 0.8 * c.x, c.y * 0.5 + c.z * 0.25, 1 - c.z) }
            #expect(largestDifference(small, expected) <= 1e-6)
        }
    }

    @Test func resamplingToAnInvalidSizeThrows() throws {
        let cube = try ColorCube.identity(size: 4)
        #expect(throws: CubeError.invalidSize(1)) { try CubeResampler.resample(cube, to: 1) }
        #expect(throws: CubeError.invalidSize(257)) { try CubeResampler.resample(cube, to: 257) }
    }

    @Test func haldOutputNeedsASquareSize() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("look.png")
        #expect(throws: ConversionError.self) {
            try LUTWriter.write(try ColorCube.identity(size: 33), format: HaldFormat(), to: path, title: "")
        }
        #expect(!BinaryFile.exists(path))
    }

    @Test func invalidBitDepthsAreRefusedBeforeWriting() throws {
        let folder = try TemporaryDirectory()
        let cube = try ColorCube.identity(size: 4)
        let threeDL = BitDepthError(path: folder.file("a.3dl"), format: "a .3dl", asked: 8, allowed: [10, 12, 16])
        #expect(threeDL.description == "cannot write \(folder.file("a.3dl")): a .3dl holds 10, 12 or 16 bits per value, not 8")
        #expect(throws: ConversionError.bitDepth(threeDL)) {
            try LUTWriter.write(cube, format: ThreeDLFormat(), to: folder.file("a.3dl"), title: "", options: .init(bitDepth: 8))
        }
        #expect(throws: ConversionError.bitDepth(BitDepthError(path: folder.file("a.png"), format: "a Hald PNG", asked: 12, allowed: [8, 16]))) {
            try LUTWriter.write(cube, format: HaldFormat(), to: folder.file("a.png"), title: "", options: .init(bitDepth: 12))
        }
    }

    @Test func unknownFormatsAreNamed() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("notes.txt")
        let file = try OutputFile(path: path)
        try file.write("just some notes\n")
        try file.close()
        let portable = [".bin/.raw", ".cube/.itx", ".3dl", ".spi1d", ".spi3d", ".spimtx", ".csp", ".lut", ".vf", ".m3d",
                        ".clf", ".ctf", ".ccc", ".cdl", ".cc"]
        #expect(throws: LUTFileError.unknownFormat(path: path, readable: portable + [".png", ".icc/.icm/.pf", ".xmp"])) {
            try LUTReader.read(path: path)
        }
        #expect(LUTFileError.unknownFormat(path: "notes.txt", readable: LUTFormats.all.extensionGroups).description
            == "notes.txt: unknown LUT format; colorcube reads .bin/.raw, .cube/.itx, .3dl, .spi1d, .spi3d, .spimtx, .csp, "
                + ".lut, .vf, .m3d, .clf, .ctf, .ccc, .cdl, .cc, .png, .icc/.icm/.pf and .xmp files")
        // ColorCubeLooks alone reads from its portable table, which knows no image or ICC format.
        let png = folder.file("look.png")
        try ReferenceGenerator.writeIdentity(size: 4, to: png)
        #expect(throws: LUTFileError.unknownFormat(path: png, readable: portable)) {
            try LUTReader.read(path: png, formats: LUTFormats.portable)
        }
        #expect(try LUTReader.read(path: png).format.isSame(as: HaldFormat()))
    }

    @Test func cubeDomainIsReported() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("wide.cube")
        let file = try OutputFile(path: path)
        try file.write("LUT_3D_SIZE 2\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 2 2 2\n")
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { try file.write("\(2 * r) \(2 * g) \(2 * b)\n") } } }
        try file.close()
        let contents = try LUTReader.read(path: path)
        let lattice = try #require(contents.transform.operations.first as? LUT3DOp)
        #expect(lattice.domainMax == SIMD3(repeating: 2))
        #expect(lattice.domainMin == SIMD3(repeating: 0))
    }
}

private extension BinaryFile {
    static func exists(_ path: String) -> Bool { readPrefix(path: path, count: 1) != nil }
}
