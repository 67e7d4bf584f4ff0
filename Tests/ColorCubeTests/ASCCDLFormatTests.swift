import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Foundation
import Testing

/// ASC CDL .cc, .ccc and .cdl files written here: read exactly, a correction chosen by id or
/// position, compared with OpenColorIO, and refused when OpenColorIO refuses them.
@Suite struct ASCCDLFormatTests {
    static func correction(id: String, slope: String = "1.2 1 0.8", offset: String = "-0.05 0.02 0.1",
                           power: String = "1.1 0.9 1", saturation: String? = "0.7") -> String {
        "<ColorCorrection id=\"\(id)\">\n  <SOPNode>\n    <Description>grade \(id)</Description>\n"
            + "    <Slope>\(slope)</Slope>\n    <Offset>\(offset)</Offset>\n    <Power>\(power)</Power>\n  </SOPNode>\n"
            + (saturation.map { "  <SatNode>\n    <Saturation>\($0)</Saturation>\n  </SatNode>\n" } ?? "")
            + "</ColorCorrection>\n"
    }

    static let single = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + correction(id: "shot_010")
    static let collection = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ColorCorrectionCollection xmlns=\"urn:ASC:CDL:v1.01\">\n"
        + correction(id: "warm") + correction(id: "cool", slope: "0.9 1 1.15", offset: "0 0 0.01", power: "1 1 1.05", saturation: "1.2")
        + "</ColorCorrectionCollection>\n"
    static let decisionList = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ColorDecisionList xmlns=\"urn:ASC:CDL:v1.01\">\n"
        + "<ColorDecision>\n" + correction(id: "a", saturation: nil) + "</ColorDecision>\n"
        + "<ColorDecision>\n" + correction(id: "b", slope: "0.8 0.8 0.8", offset: "0.1 0.1 0.1", power: "1.3 1.3 1.3") + "</ColorDecision>\n"
        + "</ColorDecisionList>\n"

    static func write(_ text: String, _ name: String, in folder: TemporaryDirectory) throws -> String {
        let path = folder.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func read(_ text: String, _ name: String, id: String? = nil) throws -> Look {
        let folder = try TemporaryDirectory()
        return try LUTReader.read(path: try write(text, name, in: folder), options: LUTReadOptions(correctionID: id))
    }

    /// The ASC CDL's forward formula without clamps, written out for one colour.
    static func reference(_ rgb: SIMD3<Double>, slope: SIMD3<Double>, offset: SIMD3<Double>, power: SIMD3<Double>, saturation: Double) -> SIMD3<Double> {
        var v = rgb * slope + offset
        for c in 0..<3 where v[c] >= 0 { v[c] = Foundation.pow(v[c], power[c]) }
        let luma = 0.2126 * v.x + 0.7152 * v.y + 0.0722 * v.z
        return saturation == 1 ? v : SIMD3(repeating: luma) + saturation * (v - SIMD3(repeating: luma))
    }

    @Test func readsAColorCorrectionExactly() throws {
        let look = try Self.read(Self.single, "grade.cc")
        #expect(look.format.name == "cc")
        #expect(look.title == "shot_010")
        let cdl = try #require(look.transform.operations.first as? CDLOp)
        #expect(cdl.style == .fwdNoClamp)
        #expect(cdl.slope == SIMD3(1.2, 1, 0.8) && cdl.offset == SIMD3(-0.05, 0.02, 0.1) && cdl.power == SIMD3(1.1, 0.9, 1))
        #expect(cdl.saturation == 0.7)
        for rgb in [SIMD3(0.0, 0.5, 1), SIMD3(0.2, 0.9, 0.03), SIMD3(1.4, -0.2, 0.6)] {
            let expected = Self.reference(rgb, slope: cdl.slope, offset: cdl.offset, power: cdl.power, saturation: 0.7)
            let delta = look.transform.apply(rgb) - expected
            #expect(max(abs(delta.x), abs(delta.y), abs(delta.z)) < 1e-15, "input \(rgb)")
        }
    }

    @Test func collectionGivesTheFirstOrTheOneAskedFor() throws {
        let first = try Self.read(Self.collection, "grades.ccc")
        #expect(first.format.name == "ccc")
        #expect((first.transform.operations[0] as? CDLOp)?.slope == SIMD3(1.2, 1, 0.8))
        #expect(first.notes.count == 1 && first.notes[0].contains("first of 2"))
        let cool = try Self.read(Self.collection, "grades.ccc", id: "cool")
        #expect((cool.transform.operations[0] as? CDLOp)?.saturation == 1.2)
        #expect(cool.notes.isEmpty)
        let second = try Self.read(Self.collection, "grades.ccc", id: "1")
        #expect((second.transform.operations[0] as? CDLOp)?.saturation == 1.2)
        let list = try Self.read(Self.decisionList, "grades.cdl", id: "b")
        #expect(list.format.name == "cdl")
        #expect((list.transform.operations[0] as? CDLOp)?.power == SIMD3(repeating: 1.3))
        #expect((try Self.read(Self.decisionList, "grades.cdl").transform.operations[0] as? CDLOp)?.saturation == 1)
    }

    @Test func unknownIDIsRefusedWithTheIDsThereAre() throws {
        let folder = try TemporaryDirectory()
        let path = try Self.write(Self.collection, "grades.ccc", in: folder)
        #expect(throws: LUTFileError.unsupported(path: path, reason: "no ColorCorrection has the id \"hot\"; the ids are \"warm\" and \"cool\", "
            + "or give a position from 0 to 1")) {
            try LUTReader.read(path: path, options: LUTReadOptions(correctionID: "hot"))
        }
    }

    @Test func sniffsEachDocumentWithoutItsExtension() throws {
        #expect(try Self.read(Self.single, "a.xml").format.name == "cc")
        #expect(try Self.read(Self.collection, "b.xml").format.name == "ccc")
        #expect(try Self.read(Self.decisionList, "c.xml").format.name == "cdl")
    }

    static let refusals: [(text: String, name: String, line: Int, mentions: String)] = [
        (correction(id: "x", slope: "-1 1 1"), "neg.cc", 1, "slope -1 is negative"),
        (correction(id: "x", power: "1 -0.5 1"), "neg.cc", 1, "power -0.5 is not above 0"),
        (correction(id: "x", power: "1 0 1"), "zero.cc", 1, "power 0"),
        (correction(id: "x", saturation: "-0.5"), "sat.cc", 1, "saturation -0.5 is negative"),
        (correction(id: "x", slope: "1 1"), "short.cc", 4, "expected 3 numbers in <Slope>, found 2"),
        (correction(id: "x", offset: "0 nan 0"), "nan.cc", 5, "'nan' is not a finite number"),
        ("<ColorCorrection id=\"x\"><SOPNode><Offset>0 0 0</Offset><Power>1 1 1</Power></SOPNode></ColorCorrection>\n",
         "noslope.cc", 1, "<Slope> is missing"),
        ("<ColorCorrectionCollection>\n</ColorCorrectionCollection>\n", "empty.ccc", 1, "holds no ColorCorrection"),
        ("<ColorDecisionList>\n<ColorDecision>\n<ColorCorrectionRef ref=\"x\"/>\n</ColorDecision>\n</ColorDecisionList>\n",
         "ref.cdl", 3, "not followed"),
        ("<ColorCorrection id=\"x\">\n<SOPNode>\n", "cut.cc", 2, "not well-formed XML"),
    ]

    /// The defects a caller branches on come typed, naming the field and the text as written.
    @Test func typedDefectsNameTheFieldAndTheText() throws {
        let folder = try TemporaryDirectory()
        let notNumber = #expect(throws: LUTFileError.self) {
            try LUTReader.read(path: try Self.write(Self.correction(id: "x", slope: "1 one 1"), "word.cc", in: folder))
        }
        #expect(notNumber.map { if case .malformed(_, _, .notFinite("<Slope>", "one")) = $0 { true } else { false } } == true,
                "\(String(describing: notNumber))")
        let cube = try Self.write("LUT_3D_SIZE 300\n", "big.cube", in: folder)
        let tooLarge = #expect(throws: LUTFileError.self) { try LUTReader.read(path: cube) }
        #expect(tooLarge.map {
            if case .malformed(_, 1, .outOfRange("LUT_3D_SIZE", "300", ColorCube.sizeRange)) = $0 { true } else { false }
        } == true, "\(String(describing: tooLarge))")
        let word = try Self.write("LUT_3D_SIZE 2\n0 0 0\n1 x 0\n", "word.cube", in: folder)
        let cubeWord = #expect(throws: LUTFileError.self) { try LUTReader.read(path: word) }
        #expect(cubeWord?.description == "\(word), line 3: green: 'x' is not a finite number")
    }

    @Test(arguments: refusals.indices)
    func refusesBrokenCorrections(index: Int) throws {
        let (text, name, line, mentions) = Self.refusals[index]
        let folder = try TemporaryDirectory()
        let path = try Self.write(text, name, in: folder)
        let error = #expect(throws: LUTFileError.self) { try LUTReader.read(path: path) }
        guard case .malformed(let errorPath, let errorLine, let reason)? = error else {
            Issue.record("expected a malformed-file error, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(errorLine == line, "\(reason)")
        #expect(reason.description.contains(mentions), "\(reason)")
        // OpenColorIO refuses all of these but the NaN (index 5), which it reads.
        if index < 7, index != 5, let refused = try OCIOReference.refuses(lut: path, folder: folder) {
            #expect(refused, "OpenColorIO reads \(name) (\(mentions))")
        }
    }

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"), arguments: [false, true])
    func matchesOpenColorIO(sixteenBits: Bool) throws {
        let folder = try TemporaryDirectory()
        let oneDecision = "<ColorDecisionList>\n<ColorDecision>\n" + Self.correction(id: "only", power: "1.4 1 0.6", saturation: "1.5")
            + "</ColorDecision>\n</ColorDecisionList>\n"
        let oneCollection = "<ColorCorrectionCollection>\n" + Self.correction(id: "only", slope: "2 1.5 0.5", offset: "-0.3 0 0.2")
            + "</ColorCorrectionCollection>\n"
        for (text, name) in [(Self.single, "grade.cc"), (oneDecision, "one.cdl"), (oneCollection, "one.ccc")] {
            let path = try Self.write(text, name, in: folder)
            let look = try LUTReader.read(path: path)
            guard name.hasSuffix(".cc") else {
                // OpenColorIO 2.1 reads a collection only with a cccid, which ocioconvert cannot pass.
                #expect(try OCIOReference.refuses(lut: path, folder: folder) == true)
                continue
            }
            let comparison = try #require(try OCIOReference.compare(lut: path, with: look.transform, sixteenBits: sixteenBits, folder: folder))
            #expect(comparison.largest <= (sixteenBits ? 16 : 1) && (sixteenBits || comparison.exactShare >= 0.99), "\(name): \(comparison)")
        }
    }

    /// Collections and lists against ociobakelut with a cccid, by id and by position.
    @Test(.enabled(if: OCIOReference.ociobakelut != nil, "ociobakelut is not installed"))
    func chosenCorrectionsMatchOpenColorIO() throws {
        let folder = try TemporaryDirectory()
        for (text, name, id) in [(Self.collection, "grades.ccc", "cool"), (Self.collection, "grades.ccc", "0"),
                                 (Self.decisionList, "grades.cdl", "b"), (Self.decisionList, "grades.cdl", "a")] {
            let path = try Self.write(text, name, in: folder)
            let look = try LUTReader.read(path: path, options: LUTReadOptions(correctionID: id))
            let difference = try #require(try OCIOReference.bakedDifference(lut: path, cccid: id, with: look.transform, folder: folder))
            // The .cube holds six decimals; OpenColorIO computes in Float32.
            #expect(difference <= 2e-6, "\(name) id \(id): \(difference)")
        }
    }

    /// A correction read from each kind, written as each kind and read back: the same CDL, its
    /// title kept.
    @Test(arguments: [ASCCDLFormat.Kind.cc, .ccc, .cdl])
    func writtenCorrectionsReadBackTheSame(kind: ASCCDLFormat.Kind) throws {
        let folder = try TemporaryDirectory()
        let look = try LUTReader.read(path: try Self.write(Self.collection, "in.ccc", in: folder), options: LUTReadOptions(correctionID: "cool"))
        let path = folder.file("out.\(kind.rawValue)")
        #expect(try LUTWriter.write(look, format: ASCCDLFormat(kind), to: path, title: "cool & warm").size == nil)
        let back = try LUTReader.read(path: path)
        #expect(back.format.isSame(as: ASCCDLFormat(kind)))
        let a = try #require(look.transform.operations.first as? CDLOp), b = try #require(back.transform.operations.first as? CDLOp)
        #expect(a.slope == b.slope && a.offset == b.offset && a.power == b.power && a.saturation == b.saturation && a.style == b.style)
        #expect(back.title == "cool & warm")
        #expect(b.id == "cool")
    }

    /// OpenColorIO reads what is written: a .cc through ocioconvert, a .ccc and .cdl through
    /// ociobakelut with the correction's id.
    @Test(.enabled(if: OCIOReference.ociobakelut != nil && OCIOReference.ocioconvert != nil, "OpenColorIO tools are not installed"))
    func openColorIOReadsWhatIsWritten() throws {
        let folder = try TemporaryDirectory()
        let look = try LUTReader.read(path: try Self.write(Self.single, "in.cc", in: folder))
        for kind in [ASCCDLFormat.Kind.cc, .ccc, .cdl] {
            let path = folder.file("grade.\(kind.rawValue)")
            try LUTWriter.write(look, format: ASCCDLFormat(kind), to: path, title: "shot_010")
            if kind == .cc {
                let comparison = try #require(try OCIOReference.compare(lut: path, with: look.transform, sixteenBits: false, folder: folder))
                #expect(comparison.largest <= 1 && comparison.exactShare >= 0.99, "\(comparison)")
            }
            let difference = try #require(try OCIOReference.bakedDifference(lut: path, cccid: kind == .cc ? nil : "shot_010",
                                                                                    with: look.transform, folder: folder))
            #expect(difference <= 2e-6, "\(kind): \(difference)")
        }
    }

    /// Only one CDL without clamps fits: a clamping CDL, a chain and a cube are refused with
    /// what the look holds, nothing written.
    @Test func refusesLooksThatAreNotOneCDL() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("x.cc")
        let clamping = try CDLOp(slope: SIMD3(1.2, 1, 1), style: .fwd)
        let unclamped = try CDLOp(slope: SIMD3(1.2, 1, 1), style: .fwdNoClamp)
        for transform in [Transform([clamping]), Transform([unclamped, unclamped]), Transform(cube: try ColorCube.identity(size: 2))] {
            let holds = transform.operations.map(\.description).joined(separator: ", then ")
            #expect(throws: LUTFileError.unsupported(path: path, reason: "an ASC CDL .cc holds one CDL without clamps (slope, offset, power, "
                + "saturation); this look is \(holds); write a .clf, .cube or another format that holds it")) {
                try LUTWriter.write(Look(transform: transform, format: CLFFormat()), format: ASCCDLFormat(.cc), to: path, title: "x")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
