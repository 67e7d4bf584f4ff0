import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct CubeTextFormatTests {
    /// A smooth look that leaves 0...1 on purpose, so negative values and values above 1 are written.
    static func look(size: Int) throws -> ColorCube {
        try ColorCube(size: size) { v in
            SIMD3(v.x * v.x - 0.1, 0.5 * v.y + 0.25 * v.x * v.z, 1.2 * v.z - 0.05 * v.y)
        }
    }

    // MARK: Round trips

    @Test func identityRoundTrip() throws {
        let path = temporaryCubePath("identity")
        defer { unlink(path) }
        let identity = try ColorCube.identity(size: 17)
        try CubeTextFormat.write(identity, title: "Identity", to: path)
        let read = try CubeTextFormat.read(path: path)
        #expect(read.size == 17)
        #expect(largestDifference(read, identity) <= 1e-6)
    }

    @Test func lookRoundTripKeepsTitleAndValues() throws {
        let path = temporaryCubePath("look")
        defer { unlink(path) }
        let look = try Self.look(size: 17)
        try CubeTextFormat.write(look, title: "Look \"1\"", to: path)
        let contents = try CubeTextFormat.readContents(path: path)
        #expect(contents.title == "Look '1'")
        #expect(!contents.needsBaking)
        #expect(try contents.baked() == contents.table)
        #expect(largestDifference(try #require(contents.table), look) <= 1e-6)
    }

    @Test func writesTheDocumentedLayout() throws {
        let path = temporaryCubePath("layout")
        defer { unlink(path) }
        let cube = try ColorCube(size: 2) { v in SIMD3(v.x * 0.5, -v.y * 0.25, 1e-7 + v.z) }
        try CubeTextFormat.write(cube, title: "Two", to: path)
        let text = String(decoding: try fileBytes(path), as: UTF8.self)
        #expect(text == """
            TITLE "Two"
            LUT_3D_SIZE 2
            0.000000 0.000000 0.000000
            0.500000 0.000000 0.000000
            0.000000 -0.250000 0.000000
            0.500000 -0.250000 0.000000
            0.000000 0.000000 1.000000
            0.500000 0.000000 1.000000
            0.000000 -0.250000 1.000000
            0.500000 -0.250000 1.000000

            """)
    }

    @Test func sixteenBitCodesSurvive() throws {
        let path = temporaryCubePath("sixteen")
        defer { unlink(path) }
        let cube = try ColorCube(size: 5) { v in
            SIMD3((v.x * 65535 * 0.37).rounded() / 65535, (v.y * 65535 * 0.91).rounded() / 65535, (v.z * 12345).rounded() / 65535)
        }
        try CubeTextFormat.write(cube, title: "", to: path)
        let read = try CubeTextFormat.read(path: path)
        for index in 0..<cube.values.count {
            #expect((read.values[index] * 65535).rounded() == (cube.values[index] * 65535).rounded())
        }
    }

    @Test func cannotCreateInMissingFolder() throws {
        let identity = try ColorCube.identity(size: 2)
        #expect(throws: FileError.self) {
            try CubeTextFormat.write(identity, title: "x", to: "/nonexistent-colorcube-folder/x.cube")
        }
        #expect(throws: FileError.cannotOpen(path: "/nonexistent-colorcube-folder/x.cube", reason: "No such file or directory")) {
            try CubeTextFormat.read(path: "/nonexistent-colorcube-folder/x.cube")
        }
    }

    // MARK: Hand-written files

    @Test func crlfCommentsTitleAndDomainBeforeSize() throws {
        let text = "# written by hand\r\n"
            + "TITLE \"Halve # not a comment\"\r\n"
            + "\r\n"
            + "DOMAIN_MIN 0 0 0\r\n"
            + "DOMAIN_MAX 2 2 2  # doubles the input range\r\n"
            + "LUT_3D_SIZE 2\r\n"
            + identityLines(size: 2).joined(separator: "\r\n")
            + "  # last line\r\n"
        let contents = try CubeTextFormat.parseContents(Array(text.utf8), path: "halve.cube")
        #expect(contents.title == "Halve # not a comment")
        #expect(contents.domainMax == SIMD3(repeating: 2))
        #expect(contents.table == (try ColorCube.identity(size: 2)))
        let baked = try contents.baked()
        #expect(baked.entry(r: 0, g: 0, b: 0) == SIMD4(0, 0, 0, 1))
        #expect(baked.entry(r: 1, g: 0, b: 1) == SIMD4(0.5, 0, 0.5, 1))
        #expect(baked.entry(r: 1, g: 1, b: 1) == SIMD4(0.5, 0.5, 0.5, 1))
    }

    @Test func domainAppliesPerChannel() throws {
        let text = "LUT_3D_SIZE 3\nDOMAIN_MIN -1 0 0\nDOMAIN_MAX 1 1 2\n" + identityLines(size: 3).joined(separator: "\n")
        let baked = try CubeTextFormat.parse(Array(text.utf8), path: "domain.cube")
        // Red reads (x + 1) / 2, green x, blue x / 2.
        #expect(baked.entry(r: 0, g: 0, b: 0) == SIMD4(0.5, 0, 0, 1))
        #expect(baked.entry(r: 1, g: 1, b: 1) == SIMD4(0.75, 0.5, 0.25, 1))
        #expect(baked.entry(r: 2, g: 2, b: 2) == SIMD4(1, 1, 0.5, 1))
    }

    @Test func inputsOutsideTheDomainClamp() throws {
        let text = "DOMAIN_MIN 0.25 0.25 0.25\nDOMAIN_MAX 0.75 0.75 0.75\nLUT_3D_SIZE 3\n"
            + identityLines(size: 3).joined(separator: "\n")
        let baked = try CubeTextFormat.parse(Array(text.utf8), path: "narrow.cube")
        #expect(baked.entry(r: 0, g: 1, b: 2) == SIMD4(0, 0.5, 1, 1))
    }

    @Test func resolve3DInputRangeWithoutShaper() throws {
        let text = "LUT_3D_SIZE 2\nLUT_3D_INPUT_RANGE 0 2\n" + identityLines(size: 2).joined(separator: "\n")
        let baked = try CubeTextFormat.parse(Array(text.utf8), path: "range.cube")
        #expect(baked.entry(r: 1, g: 1, b: 0) == SIMD4(0.5, 0.5, 0, 1))
    }

    @Test func identityShaperGivesTheSameCube() throws {
        let path = temporaryCubePath("plain")
        defer { unlink(path) }
        try CubeTextFormat.write(try Self.look(size: 17), title: "Plain", to: path)
        let plainBytes = try fileBytes(path)
        let plain = try CubeTextFormat.parse(plainBytes, path: path)
        let dataLines = String(decoding: plainBytes, as: UTF8.self).split(separator: "\n").dropFirst(2)
        let shaperLines = (0...4).map { i in "\(Double(i) / 4) \(Double(i) / 4) \(Double(i) / 4)" }
        let text = "TITLE \"Shaped\"\nLUT_1D_SIZE 5\nLUT_1D_INPUT_RANGE 0.0 1.0\nLUT_3D_SIZE 17\n"
            + "LUT_3D_INPUT_RANGE 0.0 1.0\n" + (shaperLines + dataLines.map(String.init)).joined(separator: "\n") + "\n"
        let contents = try CubeTextFormat.parseContents(Array(text.utf8), path: "shaped.cube")
        #expect(contents.shaper?.entries.count == 5)
        #expect(contents.needsBaking)
        #expect(contents.table == plain)
        #expect(largestDifference(try contents.baked(), plain) <= 1e-6)
    }

    @Test func shaperOutputIsInThe3DInputRange() throws {
        // Over 0...2 the shaper reads t = x / 2 and outputs t / 2; the 3D table covers 0...0.5, so its
        // lattice coordinate is (x / 4) / 0.5 = x / 2.
        let shaperLines = ["0 0 0", "0.25 0.25 0.25", "0.5 0.5 0.5"]
        let text = "LUT_1D_SIZE 3\nLUT_1D_INPUT_RANGE 0 2\nLUT_3D_SIZE 2\nLUT_3D_INPUT_RANGE 0 0.5\n"
            + (shaperLines + identityLines(size: 2)).joined(separator: "\n")
        let baked = try CubeTextFormat.parse(Array(text.utf8), path: "shaper.cube")
        #expect(baked.entry(r: 1, g: 0, b: 1) == SIMD4(0.5, 0, 0.5, 1))
    }

    @Test func domainKeywordsSetTheShaperRange() throws {
        let text = "LUT_1D_SIZE 2\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 4 4 4\nLUT_3D_SIZE 2\n"
            + (["0 0 0", "1 1 1"] + identityLines(size: 2)).joined(separator: "\n")
        let contents = try CubeTextFormat.parseContents(Array(text.utf8), path: "shaperdomain.cube")
        #expect(contents.shaper?.inputMax == SIMD3(repeating: 4))
        #expect(contents.domainMax == SIMD3(repeating: 1))
        #expect(try contents.baked().entry(r: 1, g: 1, b: 1) == SIMD4(0.25, 0.25, 0.25, 1))
    }

    @Test func oneDimensionalFileBakesToSize33() throws {
        let text = "TITLE \"Curve\"\nLUT_1D_SIZE 3\n0 0 0\n0.25 0.5 1\n1 1 1.5\n"
        let contents = try CubeTextFormat.parseContents(Array(text.utf8), path: "curve.cube")
        #expect(contents.isOneDimensional)
        let baked = try contents.baked()
        #expect(baked.size == 33)
        #expect(baked.entry(r: 16, g: 16, b: 16) == SIMD4(0.25, 0.5, 1, 1))
        #expect(baked.entry(r: 32, g: 0, b: 32) == SIMD4(1, 0, 1.5, 1))
        #expect(baked.entry(r: 8, g: 8, b: 8) == SIMD4(0.125, 0.25, 0.5, 1))
    }

    @Test func lowerCaseKeywordsNumbersWithExponentsAndByteOrderMark() throws {
        let text = "\u{FEFF}lut_3d_size 2\n" + ["0 0 0", "1e0 0 0", "0 +1. 0", "1 1 0", "0 0 .1E1", "1 0 1", "0 1 1",
                                                 "100e-2 1 1"].joined(separator: "\n")
        let cube = try CubeTextFormat.parse(Array(text.utf8), path: "case.cube")
        #expect(cube == (try ColorCube.identity(size: 2)))
    }

    @Test func longNumbersAreReadExactly() throws {
        let text = "LUT_3D_SIZE 2\n0.1000000000000000000001 0 0\n" + identityLines(size: 2).dropFirst().joined(separator: "\n")
        let cube = try CubeTextFormat.parse(Array(text.utf8), path: "long.cube")
        #expect(cube.entry(r: 0, g: 0, b: 0).x == 0.1)
    }

    @Test func numbersMatchTheStandardLibrary() throws {
        // The scanner's fast path against Swift's own correctly rounded, locale-free parser.
        var generator = SystemRandomNumberGenerator()
        var texts: [String] = []
        for _ in 0..<(9 * 9 * 9 * 3) {
            let mantissa = UInt64.random(in: 0...99_999_999_999, using: &generator)
            let exponent = Int.random(in: -30...12, using: &generator)
            let sign = Bool.random(using: &generator) ? "-" : ""
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: texts.append("\(sign)\(mantissa / 1_000_000).\(String(mantissa % 1_000_000).leftPadded(to: 6))")
            case 1: texts.append("\(sign)\(mantissa)e\(exponent)")
            default: texts.append("\(sign)0.\(String(repeating: "0", count: exponent + 30))\(mantissa)")
            }
        }
        var lines: [String] = []
        for index in stride(from: 0, to: texts.count, by: 3) {
            lines.append("\(texts[index]) \(texts[index + 1]) \(texts[index + 2])")
        }
        let cube = try CubeTextFormat.parse(Array(("LUT_3D_SIZE 9\n" + lines.joined(separator: "\n")).utf8), path: "random.cube")
        for (index, text) in texts.enumerated() {
            let expected = try #require(Double(text))
            #expect(cube.values[4 * (index / 3) + index % 3] == Float(expected), "\(text)")
        }
    }

    @Test func nonFiniteAndHugeValuesStayReadable() throws {
        let path = temporaryCubePath("nonfinite")
        defer { unlink(path) }
        var values = try ColorCube.identity(size: 2).values
        values[0] = .nan
        values[1] = .infinity
        values[2] = -1e13
        values[4] = -.infinity
        let cube = try ColorCube(size: 2, values: values)
        try CubeTextFormat.write(cube, title: "odd", to: path)
        let read = try CubeTextFormat.read(path: path)
        #expect(read.entry(at: 0) == SIMD4(0, .greatestFiniteMagnitude, -1e13, 1))
        #expect(read.entry(at: 1).x == -.greatestFiniteMagnitude)
    }

    // MARK: Errors, each at its exact line

    @Test func tooFewLinesIsReportedAtTheEnd() {
        let text = "LUT_3D_SIZE 2\n" + identityLines(size: 2).dropLast().joined(separator: "\n") + "\n"
        #expect(malformedLine(text) == 8)
        #expect(malformedLine(String(text.dropLast())) == 8)
        #expect(malformedLine(text + "\n\n# trailing comment\n") == 11)
    }

    @Test func tooManyLinesIsReportedAtTheFirstExtra() {
        let text = "LUT_3D_SIZE 2\n" + identityLines(size: 2).joined(separator: "\n") + "\n1 1 1\n"
        #expect(malformedLine(text) == 10)
    }

    @Test func nonNumericValue() {
        #expect(malformedLine("LUT_3D_SIZE 2\n0 0 0\n1 x 0\n") == 3)
        #expect(malformedLine("LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1,5 0\n") == 4)
        #expect(malformedLine("LUT_3D_SIZE 2\n0 0 0\n0 nan 0\n") == 3)
        #expect(malformedLine("LUT_3D_SIZE 2\n0 0 0\nnan 0 0\n") == 3)
        #expect(malformedLine("LUT_3D_SIZE 2\n0 0 1e999\n") == 2)
        #expect(malformedLine("LUT_3D_SIZE 2\n0 0 1e\n") == 2)
    }

    @Test func wrongValueCount() {
        #expect(malformedLine("LUT_3D_SIZE 2\n0 0 0\n1 0\n") == 3)
        #expect(malformedLine("LUT_3D_SIZE 2\n0 0 0 1\n") == 2)
    }

    @Test(arguments: ["1", "300", "0", "abc", "33.0", "", "2 2"])
    func badSize(size: String) {
        #expect(malformedLine("TITLE \"x\"\nLUT_3D_SIZE \(size)\n0 0 0\n") == 2)
    }

    @Test func badShaperSize() {
        #expect(malformedLine("LUT_1D_SIZE 1\n0 0 0\n") == 1)
        #expect(malformedLine("LUT_1D_SIZE 65537\n0 0 0\n") == 1)
    }

    /// Resolve's video range flags: the identity table then gives full range 0 as code 64 of
    /// 1023 with only the input flag, and every value back with both.
    @Test func videoRangeFlagsAreRanges() throws {
        let identity = "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n"
        let input = try CubeTextFormat.parseContents(Array(("LUT_IN_VIDEO_RANGE\n" + identity).utf8), path: "in.cube")
        let inOnly = try input.transform(path: "in.cube")
        #expect(abs(inOnly.apply(SIMD3(repeating: 0)).x - 64.0 / 1023) < 1e-7)
        #expect(abs(inOnly.apply(SIMD3(repeating: 1)).x - 940.0 / 1023) < 1e-7)
        let both = try CubeTextFormat.parseContents(Array(("LUT_IN_VIDEO_RANGE\nLUT_OUT_VIDEO_RANGE\n" + identity).utf8), path: "both.cube")
        for value in [0.0, 0.3, 1.0] {
            #expect(abs(try both.transform(path: "both.cube").apply(SIMD3(repeating: value)).x - value) < 1e-6)
        }
        #expect(malformedLine("LUT_3D_SIZE 2\nLUT_IN_VIDEO_RANGE 1\n0 0 0\n") == 2)
    }

    @Test func unknownKeyword() {
        #expect(malformedLine("LUT_3D_SIZE 2\nLUT_IN_VIDE0_RANGE\n0 0 0\n") == 2)
        #expect(malformedLine("# comment\nFOO 1 2 3\nLUT_3D_SIZE 2\n") == 2)
    }

    @Test func keywordAfterData() {
        #expect(malformedLine("LUT_3D_SIZE 2\n0 0 0\nTITLE \"late\"\n") == 3)
    }

    @Test func sizeGivenTwice() {
        #expect(malformedLine("LUT_3D_SIZE 2\nLUT_3D_SIZE 2\n") == 2)
        #expect(malformedLine("LUT_1D_SIZE 2\nLUT_1D_SIZE 2\n") == 2)
    }

    @Test func dataBeforeAnySize() {
        #expect(malformedLine("TITLE \"x\"\n0 0 0\nLUT_3D_SIZE 2\n") == 2)
    }

    @Test func noSizeAtAll() {
        #expect(malformedLine("") == 1)
        #expect(malformedLine("TITLE \"x\"\n# nothing else\n") == 2)
    }

    @Test func invertedDomain() {
        #expect(malformedLine("DOMAIN_MIN 0 0 0\nDOMAIN_MAX 1 0 1\nLUT_3D_SIZE 2\n0 0 0\n") == 2)
        #expect(malformedLine("LUT_3D_SIZE 2\nDOMAIN_MIN 0 0 2\n0 0 0\n") == 2)
        #expect(malformedLine("LUT_3D_SIZE 2\nLUT_3D_INPUT_RANGE 1 1\n") == 2)
        #expect(malformedLine("LUT_1D_SIZE 2\nLUT_1D_INPUT_RANGE 1 0\n") == 2)
    }

    @Test func malformedDomainKeywords() {
        #expect(malformedLine("LUT_3D_SIZE 2\nDOMAIN_MIN 0 0\n") == 2)
        #expect(malformedLine("LUT_3D_SIZE 2\nDOMAIN_MAX 1 one 1\n") == 2)
        #expect(malformedLine("LUT_3D_SIZE 2\nLUT_3D_INPUT_RANGE 0\n") == 2)
    }

    @Test func errorNamesFileAndLine() {
        let error = #expect(throws: LUTFileError.self) {
            try CubeTextFormat.parse(Array("LUT_3D_SIZE 300\n".utf8), path: "big.cube")
        }
        #expect(error?.description == "big.cube, line 1: LUT_3D_SIZE 300 is outside 2...256")
    }
}

// MARK: Helpers

/// The lines of an identity cube file of `size`, red fastest.
private func identityLines(size: Int) -> [String] {
    var lines: [String] = []
    for b in 0..<size {
        for g in 0..<size {
            for r in 0..<size {
                let scale = Double(size - 1)
                lines.append("\(Double(r) / scale) \(Double(g) / scale) \(Double(b) / scale)")
            }
        }
    }
    return lines
}

/// The line of the `LUTFileError.malformed` that parsing `text` throws, or nil (and a failed
/// expectation) when it throws nothing or another error.
private func malformedLine(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int? {
    let error = #expect(throws: LUTFileError.self, sourceLocation: sourceLocation) {
        try CubeTextFormat.parse(Array(text.utf8), path: "test.cube")
    }
    guard case .malformed(let path, let line, _) = error else { return nil }
    #expect(path == "test.cube", sourceLocation: sourceLocation)
    return line
}

private func temporaryCubePath(_ name: String) -> String {
    "/tmp/colorcube-cube-test-\(getpid())-\(UInt32.random(in: .min ... .max))-\(name).cube"
}

private func fileBytes(_ path: String) throws -> [UInt8] {
    try BinaryFile.readAll(path: path)
}

private extension String {
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
