import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ThreeDLFormatTests {
    /// A smooth look that stays within 0...1, since .3dl clamps.
    static func look(size: Int) throws -> ColorCube {
        try ColorCube(size: size) { v in
            SIMD3(v.x * v.x, 0.5 * v.y + 0.25 * v.x * v.z, 0.9 * v.z + 0.1 * v.y * v.y)
        }
    }

    // MARK: Round trips

    @Test(arguments: [10, 12, 16])
    func identityRoundTrip(bitDepth: Int) throws {
        let path = temporary3DLPath("identity")
        defer { unlink(path) }
        let identity = try ColorCube.identity(size: 17)
        try ThreeDLFormat.write(identity, bitDepth: bitDepth, to: path)
        let contents = try ThreeDLFormat.readContents(path: path)
        #expect(contents.outputBitDepth == bitDepth)
        #expect(contents.inputMaximum == 1023)
        #expect(!contents.needsBaking)
        #expect(largestDifference(try contents.baked(), identity) <= 0.5 / Float((1 << bitDepth) - 1) + 1e-7)
    }

    @Test(arguments: [10, 17, 33])
    func lookRoundTripAt12Bits(size: Int) throws {
        let path = temporary3DLPath("look")
        defer { unlink(path) }
        let look = try Self.look(size: size)
        try ThreeDLFormat.write(look, to: path)
        let read = try ThreeDLFormat.read(path: path)
        #expect(read.size == size)
        #expect(largestDifference(read, look) <= 1 / 4095)
    }

    @Test func writesTheDocumentedLayout() throws {
        let path = temporary3DLPath("layout")
        defer { unlink(path) }
        let cube = try ColorCube(size: 3) { v in SIMD3(v.x, v.y * 0.5, v.z * 2 - 0.5) }
        try ThreeDLFormat.write(cube, bitDepth: 10, to: path)
        let lines = String(decoding: try BinaryFile.readAll(path: path), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2 + 1 + 27 + 2)
        #expect(lines[0] == "3DMESH")
        #expect(lines[1] == "Mesh 1 10")
        #expect(lines[2] == "0 512 1023")
        // Blue varies fastest; blue outputs clamp to 0...1023.
        #expect(lines[3] == "0 0 0")
        #expect(lines[4] == "0 0 512")
        #expect(lines[5] == "0 0 1023")
        #expect(lines[6] == "0 256 0")
        #expect(lines[12] == "512 0 0")
        #expect(lines[29] == "1023 512 1023")
        #expect(lines[30] == "LUT8")
        #expect(lines[31] == "gamma 1.0")
    }

    @Test func nanIsWrittenAsZero() throws {
        let path = temporary3DLPath("nan")
        defer { unlink(path) }
        var values = try ColorCube.identity(size: 2).values
        values[0] = .nan
        values[1] = -.infinity
        values[2] = .infinity
        try ThreeDLFormat.write(try ColorCube(size: 2, values: values), to: path)
        let read = try ThreeDLFormat.read(path: path)
        #expect(read.entry(at: 0) == SIMD4(0, 0, 1, 1))
    }

    @Test func sizesWithoutAMeshLineHaveNoHeader() throws {
        let path = temporary3DLPath("nomesh")
        defer { unlink(path) }
        try ThreeDLFormat.write(try ColorCube.identity(size: 4), to: path)
        let lines = String(decoding: try BinaryFile.readAll(path: path), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 1 + 64)
        #expect(lines[0] == "0 341 682 1023")
    }

    @Test func unknownKeywordsNameEveryHeaderThatIsRead() throws {
        let message = "unknown keyword Gamut; a .3dl holds only 3DMESH, Mesh, LUT8, LUT10, LUT12, LUT16 and gamma lines "
            + "besides its numbers"
        #expect(throws: LUTFileError.malformed(path: "test.3dl", line: 2, reason: message)) {
            try ThreeDLFormat.parse(Array("LUT12\nGamut 1\n".utf8), path: "test.3dl")
        }
    }

    @Test func rejectsUnsupportedBitDepth() throws {
        let identity = try ColorCube.identity(size: 2)
        #expect(throws: BitDepthError(path: "x.3dl", format: "a .3dl", asked: 8, allowed: [10, 12, 16])) {
            try ThreeDLFormat.write(identity, bitDepth: 8, to: "/nonexistent-colorcube-folder/y.3dl", displayPath: "x.3dl")
        }
    }

    @Test func cannotCreateInMissingFolder() throws {
        let identity = try ColorCube.identity(size: 2)
        #expect(throws: FileError.self) {
            try ThreeDLFormat.write(identity, to: "/nonexistent-colorcube-folder/x.3dl")
        }
        #expect(throws: FileError.cannotOpen(path: "/nonexistent-colorcube-folder/x.3dl", reason: "No such file or directory")) {
            try ThreeDLFormat.read(path: "/nonexistent-colorcube-folder/x.3dl")
        }
    }

    // MARK: Hand-written files

    /// A Flame-style 2-cube: line k holds (100k, 100k + 1, 100k + 2), except the last, which
    /// reaches 4095 so that 12 bits are inferred.
    static let flameSample = """
        # Flame sample, blue fastest
        0 1023

        0 1 2
        100 101 102
        200 201 202
        300 301 302
        400 401 402
        500 501 502
        600 601 602
        4095 4095 4095
        """

    @Test func blueVariesFastest() throws {
        let contents = try ThreeDLFormat.parseContents(Array(Self.flameSample.utf8), path: "flame.3dl")
        #expect(contents.outputBitDepth == 12)
        #expect(contents.shaper == [0, 1023])
        let cube = try contents.baked()
        #expect(cube == contents.table)
        func expected(_ line: Float) -> SIMD4<Float> {
            SIMD4(100 * line / 4095, (100 * line + 1) / 4095, (100 * line + 2) / 4095, 1)
        }
        #expect(cube.entry(r: 0, g: 0, b: 0) == expected(0))
        #expect(cube.entry(r: 0, g: 0, b: 1) == expected(1))
        #expect(cube.entry(r: 0, g: 1, b: 0) == expected(2))
        #expect(cube.entry(r: 0, g: 1, b: 1) == expected(3))
        #expect(cube.entry(r: 1, g: 0, b: 0) == expected(4))
        #expect(cube.entry(r: 1, g: 0, b: 1) == expected(5))
        #expect(cube.entry(r: 1, g: 1, b: 0) == expected(6))
        #expect(cube.entry(r: 1, g: 1, b: 1) == SIMD4(1, 1, 1, 1))
    }

    @Test func meshLineSetsTheBitDepth() throws {
        // Every value stays below 2048, which alone would read as 10-bit.
        var lines = ["#Tokens required by applications - do not edit", "3DMESH", "Mesh 1 12", "0 512 1023", ""]
        for r in 0..<3 {
            for g in 0..<3 {
                for b in 0..<3 { lines.append("\(r * 1000) \(g * 1000) \(b * 1000)") }
            }
        }
        lines += ["", "#Tokens required by applications - do not edit", "", "LUT8", "gamma 1.0"]
        let contents = try ThreeDLFormat.parseContents(Array(lines.joined(separator: "\r\n").utf8), path: "lustre.3dl")
        #expect(contents.outputBitDepth == 12)
        #expect(contents.table.entry(r: 2, g: 1, b: 0) == SIMD4(Float(2000.0 / 4095), Float(1000.0 / 4095), 0, 1))
        #expect(contents.table.entry(r: 0, g: 1, b: 2) == SIMD4(0, Float(1000.0 / 4095), Float(2000.0 / 4095), 1))
    }

    @Test func bitDepthIsGuessedFromTheLargestValue() throws {
        func depth(largest: Int) throws -> Int {
            let text = "0 1023\n" + Array(repeating: "0 0 0", count: 7).joined(separator: "\n") + "\n\(largest) 0 0\n"
            return try ThreeDLFormat.parseContents(Array(text.utf8), path: "guess.3dl").outputBitDepth
        }
        #expect(try depth(largest: 1023) == 10)
        #expect(try depth(largest: 2047) == 10)
        #expect(try depth(largest: 4095) == 12)
        #expect(try depth(largest: 65535) == 16)
    }

    @Test func twelveBitShaperIsEvenlySpaced() throws {
        let text = "0 2048 4095\n" + Array(repeating: "4095 4095 4095", count: 27).joined(separator: "\n")
        let contents = try ThreeDLFormat.parseContents(Array(text.utf8), path: "shaper12.3dl")
        #expect(contents.inputMaximum == 4095)
        #expect(!contents.needsBaking)
    }

    @Test func unevenShaperPlacesNodesAtItsCodes() throws {
        // Nodes at input codes 0, 256 and 1023 holding their own input: the baked cube is the identity.
        var lines = ["0 256 1023"]
        let codes = [0, 256, 1023]
        for r in codes {
            for g in codes {
                for b in codes { lines.append("\(r) \(g) \(b)") }
            }
        }
        let contents = try ThreeDLFormat.parseContents(Array(lines.joined(separator: "\n").utf8), path: "uneven.3dl")
        #expect(contents.needsBaking)
        let baked = try contents.baked()
        let identity = try ColorCube.identity(size: 3)
        #expect(largestDifference(baked, identity) <= 1e-6)
        #expect(baked.entry(r: 1, g: 1, b: 1) != contents.table.entry(r: 1, g: 1, b: 1))
    }

    @Test func fileWithoutShaperLine() throws {
        let text = Self.flameSample.split(separator: "\n").dropFirst(2).joined(separator: "\n")
        let contents = try ThreeDLFormat.parseContents(Array(text.utf8), path: "bare.3dl")
        #expect(contents.shaper == nil)
        #expect(contents.table.size == 2)
        #expect(contents.table.entry(r: 0, g: 0, b: 1).x == Float(100) / 4095)
    }

    @Test func threeValueFirstLineIsAShaperWhen27LinesFollow() throws {
        let text = "0 512 1023\n" + Array(repeating: "4095 0 0", count: 27).joined(separator: "\n")
        let contents = try ThreeDLFormat.parseContents(Array(text.utf8), path: "three.3dl")
        #expect(contents.shaper == [0, 512, 1023])
        #expect(contents.table.size == 3)
    }

    // MARK: Errors, each at its exact line

    @Test func tooFewLinesIsReportedAtTheEnd() {
        let lines = Self.flameSample.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(malformedLine(lines.joined(separator: "\n")) == 10)
        #expect(malformedLine(lines.joined(separator: "\n") + "\n") == 10)
        #expect(malformedLine("0 1023\n") == 1)
    }

    @Test func tooManyLinesIsReportedAtTheFirstExtra() {
        #expect(malformedLine(Self.flameSample + "\n0 0 0\n") == 12)
    }

    @Test func nonIntegerValue() {
        #expect(malformedLine("0 1023\n0 0 0\n0 12.5 0\n") == 3)
        #expect(malformedLine("0 1023\n0 0 0\n0 -5 0\n") == 3)
        #expect(malformedLine("0 1023\n0 0 0\n0 0 1234567890\n") == 3)
        #expect(malformedLine("0 512 x 1023\n") == 1)
    }

    @Test func wrongValueCount() {
        #expect(malformedLine("0 1023\n0 0 0\n0 0\n") == 3)
        #expect(malformedLine("0 1023\n0 0 0\n0 0 0 0\n") == 3)
    }

    @Test func unknownKeyword() {
        #expect(malformedLine("3DMESH\nMesh 0 12\n<xml>\n0 1023\n") == 3)
        #expect(malformedLine("0 1023\nLUT_3D_SIZE 2\n") == 2)
    }

    @Test func badMeshLine() {
        #expect(malformedLine("3DMESH\nMesh 4\n") == 2)
        #expect(malformedLine("3DMESH\nMesh 4 20\n") == 2)
        #expect(malformedLine("3DMESH\nMesh four 12\n") == 2)
    }

    @Test func badShaper() {
        #expect(malformedLine("# one value\n1023\n") == 2)
        #expect(malformedLine("0 512 512 1023\n") == 1)
        let tooLong = (0..<300).map(String.init).joined(separator: " ")
        #expect(malformedLine("\(tooLong)\n0 0 0\n") == 1)
    }

    @Test func missingShaperAndWrongCount() {
        #expect(malformedLine(Array(repeating: "0 0 0", count: 7).joined(separator: "\n")) == 7)
        #expect(malformedLine("") == 1)
        #expect(malformedLine("# only a comment\n\n") == 2)
    }
}

// MARK: Helpers

/// The line of the `LUTFileError.malformed` that parsing `text` throws, or nil (and a failed
/// expectation) when it throws nothing or another error.
private func malformedLine(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int? {
    let error = #expect(throws: LUTFileError.self, sourceLocation: sourceLocation) {
        try ThreeDLFormat.parse(Array(text.utf8), path: "test.3dl")
    }
    guard case .malformed(let path, let line, _) = error else { return nil }
    #expect(path == "test.3dl", sourceLocation: sourceLocation)
    return line
}

private func temporary3DLPath(_ name: String) -> String {
    "/tmp/colorcube-3dl-test-\(getpid())-\(UInt32.random(in: .min ... .max))-\(name).3dl"
}
