import ColorCubeLooks
import ColorCubeTransform
import Testing

/// The elements of a ProcessList as OpenColorIO 2.6 takes them: those CLF does not define are
/// skipped and named, CTF operators are read or refused by the version the file states, and
/// SMPTE ST 2136-1's `<Id>` is metadata whose value is checked.
@Suite struct CLFElementsTests {
    static let unknownElements: [(body: String, skipped: String)] = [
        ("<Foo inBitDepth=\"32f\" outBitDepth=\"32f\">abc</Foo>" + CLFParityTests.matrix, "<Foo>"),
        ("<Info><Vendor a=\"1\"><Deep/></Vendor></Info>" + CLFParityTests.matrix, ""),
        (CLFParityTests.matrix + "<Array dim=\"3 3\">1 0 0 0 1 0 0 0 1</Array>", "<Array>"),
        ("<Matrix inBitDepth=\"32f\" outBitDepth=\"32f\"><Foo/><Description>d</Description>"
            + "<Array dim=\"3 3\">2 0 0 0 1 0 0 0 0.5</Array><Id>x</Id></Matrix>", ""),
        ("<matrix inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"3 3\">2 0 0 0 1 0 0 0 0.5</Array></matrix>", ""),
    ]

    /// Elements CLF does not define are skipped, at any depth, and named in the notes when they
    /// stand among the operations; operation names match without regard to case.
    @Test(arguments: unknownElements.indices)
    func unknownElementsAreSkipped(index: Int) throws {
        let (body, skipped) = Self.unknownElements[index]
        let look = try CLFParityTests.read(CLFParityTests.processList(body))
        #expect(look.transform.operations.count == 1)
        #expect(look.transform.apply(SIMD3(0.25, 0.5, 0.75)) == SIMD3(0.5, 0.5, 0.375))
        if skipped.isEmpty {
            #expect(look.notes.isEmpty, "\(look.notes)")
        } else {
            #expect(look.notes.contains { $0.contains("skipped") && $0.contains(skipped) }, "\(look.notes)")
        }
    }

    /// OpenColorIO's CTF operators other than `<Gamma>` are refused with the way out rather than
    /// skipped, as skipping one would change the look.
    @Test func ctfOperatorsAreRefusedNotSkipped() throws {
        for name in ["FixedFunction", "exposureContrast", "InverseLUT1D"] {
            try CLFFormatTests.expectRefusal(CLFParityTests.processList("<\(name) inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"basicFwd\"/>" + CLFParityTests.matrix),
                                             line: 3, mentions: "<\(name)> is an OpenColorIO CTF operator")
        }
    }

    /// CTF operators a `.clf` holds as OpenColorIO reads them, by the version it states rather
    /// than its extension: `ACES` and `Reference` in any, the others with a pre-SMPTE `version`.
    static let ctfOperatorsInCLF: [(name: String, text: String)] = [
        ("aces.clf", CLFParityTests.processList("<ACES inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"RedMod03Fwd\"/>")),
        ("inverse.clf", CLFParityTests.processList("<InverseLUT1D inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"3 1\">0 0.25 1</Array></InverseLUT1D>",
                                    root: "id=\"t\" version=\"1.5\"")),
        ("exposure.clf", CLFParityTests.processList("<ExposureContrast inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"linear\">"
            + "<ECParams exposure=\"1\" contrast=\"1\" pivot=\"0.18\"/></ExposureContrast>", root: "id=\"t\" version=\"2.0\"")),
    ]

    @Test func aCLFHoldsTheCTFOperatorsItsVersionHas() throws {
        let operators = Self.ctfOperatorsInCLF
        let aces = try CLFParityTests.read(operators[0].text).transform
        #expect(aces.apply(SIMD3(0.5, 0.2, 0.1)).x < 0.5 && aces.apply(SIMD3(0.5, 0.2, 0.1)).z == 0.1)
        let inverse = try CLFParityTests.read(operators[1].text).transform.apply(SIMD3(0.25, 0.625, 1))
        #expect(abs(inverse.x - 0.5) < 1e-6 && abs(inverse.y - 0.75) < 1e-6 && abs(inverse.z - 1) < 1e-6, "\(inverse)")
        #expect(try CLFParityTests.read(operators[2].text).transform.apply(SIMD3(0.25, 0.5, 0.125)) == SIMD3(0.5, 1, 0.25))
        let folder = try TemporaryDirectory()
        _ = try CLFParityTests.write(CLFParityTests.processList(CLFParityTests.matrix), "scale.clf", in: folder)
        let reference = try CLFParityTests.write(CLFParityTests.processList("<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" path=\"scale.clf\"/>"),
                                       "reference.clf", in: folder)
        #expect(try LUTReader.read(path: reference).transform.apply(SIMD3(0.25, 0.5, 0.5)) == SIMD3(0.5, 0.5, 0.25))
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOReadsTheCTFOperatorsOfACLF() throws {
        try CLFParityTests.expectOpenColorIOAgrees(Self.ctfOperatorsInCLF, at: CLFParityTests.inputs)
    }

    // MARK: SMPTE ST 2136-1 Id

    /// A ProcessList in the SMPTE namespace (which needs no id attribute) with `id` as its `<Id>`.
    static func identified(_ id: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ProcessList xmlns=\"http://www.smpte-ra.org/ns/2136-1/2024\">\n"
            + "<Id>\(id)</Id>\n" + CLFParityTests.matrix + "\n</ProcessList>\n"
    }

    static let compliantIds = ["urn:uuid:123e4567-e89b-12d3-a456-426614174000", " urn:uuid:123E4567-E89B-12D3-A456-426614174000\n"]
    static let nonCompliantIds = ["3bae2da8", "URN:UUID:123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426614174000",
                                  "urn:uuid:123e4567e89b12d3a456426614174000", "urn:uuid:123e4567-e89b-12d3-a456-42661417400g", ""]

    /// A UUID URN is the Id ST 2136-1 asks for: the file is read without a note.
    @Test(arguments: compliantIds)
    func aUUIDIdIsMetadata(id: String) throws {
        let look = try CLFParityTests.read(Self.identified(id))
        #expect(look.notes.isEmpty, "\(look.notes)")
        #expect(look.transform.apply(SIMD3(0.25, 0.5, 0.75)) == SIMD3(0.5, 0.5, 0.375))
    }

    /// Any other Id is read as OpenColorIO 2.6 reads it (it applies the file and warns that the
    /// value is not an ST 2136-1 Id): the look is the same, and a note names the value, its line
    /// and what an Id should be, rather than calling the element skipped.
    @Test(arguments: nonCompliantIds)
    func anotherIdIsReadWithANote(id: String) throws {
        let look = try CLFParityTests.read(Self.identified(id))
        #expect(look.transform.apply(SIMD3(0.25, 0.5, 0.75)) == SIMD3(0.5, 0.5, 0.375))
        #expect(look.notes.count == 1, "\(look.notes)")
        let note = look.notes.first ?? ""
        #expect(note.contains("line 3") && note.contains("<Id> \"\(id)\"") && note.contains("not a SMPTE ST 2136-1 Id")
                    && note.contains("urn:uuid:") && !note.contains("skipped"), "\(note)")
    }

    /// OpenColorIO 2.6 reads a file whose Id is not ST 2136-1's (its own test file of that name
    /// is among those it loads with a warning) and applies it as colorcube does.
    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOReadsANonCompliantIdToo() throws {
        try CLFParityTests.expectOpenColorIOAgrees(Self.nonCompliantIds.enumerated().map { ("id\($0.offset).clf", Self.identified($0.element)) },
                                                   at: CLFParityTests.inputs)
    }
}
