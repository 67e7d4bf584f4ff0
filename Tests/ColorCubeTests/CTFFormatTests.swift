import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// .ctf files (Autodesk's Common Transform Format) read through the CLF reader by CTF's rules:
/// files written here and a few of OpenColorIO's own test files, read as OpenColorIO 2.6 reads
/// them (compared with PyOpenColorIO when it is installed), and refused where it refuses them or
/// where colorcube cannot apply a CTF operator.
@Suite struct CTFFormatTests {
    // MARK: Files

    /// A ProcessList with `root`'s attributes after its id (none: no version, read as CTF 1.2).
    static func processList(_ body: String, root: String = "") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ProcessList id=\"t\"\(root.isEmpty ? "" : " " + root)>\n\(body)\n</ProcessList>\n"
    }

    static func node(_ name: String, _ attributes: String = "", _ body: String) -> String {
        "<\(name) inBitDepth=\"32f\" outBitDepth=\"32f\"\(attributes)>\(body)</\(name)>"
    }

    static let matrix333 = node("Matrix", "", "<Array dim=\"3 3 3\">0.9 0.1 0 0.05 0.9 0.05 0 0.2 0.8</Array>")
    static let matrix34 = node("Matrix", "", "<Array dim=\"3 4\">0.9 0.1 0 0.02 0.05 0.9 0.05 0 0 0.2 0.8 -0.01</Array>")
    static let gamma = node("Gamma", " style=\"basicFwd\"", "<GammaParams gamma=\"2.2\"/>")
    static let monCurve = node("Gamma", " style=\"moncurveRev\"", "<GammaParams gamma=\"2.4\" offset=\"0.055\"/>")
    static let cdl = node("ASC_CDL", " style=\"Fwd\"", "<SOPNode><Slope>1.1 1 0.9</Slope><Offset>-0.02 0.01 0.03</Offset>"
        + "<Power>1.2 1 0.8</Power></SOPNode><SatNode><Saturation>1.3</Saturation></SatNode>")
    static let log10 = node("Log", " style=\"log10\"", "")
    static let range = node("Range", "", "<minInValue>0.1</minInValue><maxInValue>0.9</maxInValue>"
        + "<minOutValue>0</minOutValue><maxOutValue>1</maxOutValue>")
    static let lut1D = node("LUT1D", "", "<Array dim=\"5 3\">0 0 0 0.1 0.2 0.3 0.35 0.45 0.5 0.6 0.7 0.8 1 1 1</Array>")
    static let lut3D = node("LUT3D", " interpolation=\"trilinear\"", "<Array dim=\"2 2 2 3\">"
        + "0 0 0 0 0.1 0.9 0.1 0.8 0 0.2 0.9 0.9 0.9 0 0.1 0.8 0.2 0.9 1 0.9 0 1 1 1</Array>")
    static let alphaMatrix = node("Matrix", "", "<Array dim=\"4 5\">0.9 0.1 0 0.05 0.01 0 1 0 -0.03 0.02 0 0.1 0.9 0.02 0 "
        + "0.2 0.2 0.2 0.4 0</Array>")

    /// Files written here that OpenColorIO reads as a .ctf.
    static let written: [(name: String, text: String)] = [
        ("no-version.ctf", processList(matrix333 + gamma)),
        ("version-1.2.ctf", processList(matrix333 + monCurve, root: "version=\"1.2\"")),
        ("offsets-1.2.ctf", processList(node("Matrix", "", "<Array dim=\"4 4 3\">1.1 0 0 0.1 0 1 0 0.2 0 0 0.9 0.3 0 0 0 1</Array>"),
                                        root: "version=\"1.2\"")),
        ("chain-1.3.ctf", processList(matrix34 + range + cdl + log10, root: "version=\"1.3\"")),
        ("luts-1.7.ctf", processList(lut1D + lut3D, root: "version=\"1.7\"")),
        ("alpha-2.0.ctf", processList(alphaMatrix + node("Exponent", " style=\"basicMirrorFwd\"", "<ExponentParams exponent=\"1.8\"/>"),
                                      root: "version=\"2.0\"")),
        ("newest.ctf", processList(node("Matrix", "", "<Array dim=\"4 4 4\">1 0 0 0.1 0 1 0 0 0 0 1 -0.1 0 0 0 1</Array>"),
                                   root: "version=\"2.6\"")),
        ("clf-in-ctf.ctf", processList(gamma, root: "compCLFversion=\"3.0\"")),
        ("vendor.ctf", processList("<Info><Release>1</Release></Info><Vendor/>" + matrix34, root: "version=\"1.3\"")),
        ("info-2.99.ctf", processList("<Info version=\"2.99\"><Release>1</Release></Info>" + matrix34, root: "version=\"1.3\"")),
        ("cineon-1.3.ctf", processList(cineon("logToLin", "<LogParams gamma=\"0.6\" refWhite=\"685\" refBlack=\"95\" highlight=\"1.0\" "
                                                         + "shadow=\"0.0005\" base=\"2\"/>"), root: "version=\"1.3\"")),
        ("cineon-channels-1.8.ctf", processList(cineon("linToLog", ["R": "0.6 685 95 1 0.0005", "G": "0.55 700 90 0.9 0.001",
                                                                    "B": "0.65 680 100 1.1 0"]), root: "version=\"1.8\"")),
        ("cineon-2.0.ctf", processList(cineon("logToLin", ["": "0.7 690 80 1 0.01"]) + cineon("linToLog", ["": "0.6 685 95 1 0.0005"]),
                                       root: "version=\"2.0\"")),
    ]

    /// A Log with Cineon LogParams: per channel ("" for all) the gamma, refWhite, refBlack,
    /// highlight and shadow, in that order.
    static func cineon(_ style: String, _ channels: [String: String]) -> String {
        let names = ["gamma", "refWhite", "refBlack", "highlight", "shadow"]
        let params = channels.sorted { $0.key < $1.key }.map { channel, values in
            let attributes = zip(names, values.split(separator: " ")).map { " \($0)=\"\($1)\"" }.joined()
            return "<LogParams\(channel.isEmpty ? "" : " channel=\"\(channel)\"")\(attributes)/>"
        }
        return cineon(style, params.joined())
    }

    static func cineon(_ style: String, _ body: String) -> String {
        node("Log", " style=\"\(style)\"", body)
    }

    /// A few of OpenColorIO's test files (tests/data/files), as written there.
    static let openColorIOFiles: [(name: String, text: String)] = [
        ("process_list_no_version.ctf", """
            <?xml version="1.0" encoding="UTF-8"?>
            <ProcessList id="b5cc7aed-d405-4d8b-b64b-382b2341a378" name="matrix example" xmlns="urn:NATAS:ASC:LUT:v0.95">
                <Description>Convert output-referred XYZ values to linear RGB.</Description>
                <InputDescriptor>XYZ</InputDescriptor>
                <OutputDescriptor>RGB</OutputDescriptor>
                <Matrix id="c61daf06-539f-4254-81fc-9800e6d02a37" inBitDepth="32f" outBitDepth="32f">
                    <Description>XYZ to sRGB matrix</Description>
                    <Array dim="3 3 3">
             3.24000 -1.53700 -0.49850
            -0.96930  1.87600  0.04156
             0.05560 -0.20400  1.05730
                    </Array>
                </Matrix>
            </ProcessList>
            """),
        ("matrix_example4x4.ctf", """
            <?xml version="1.0" encoding="UTF-8"?>
            <ProcessList version="1.2" id="b5cc7aed-d405-4d8b-b64b-382b2341a378" name="matrix example" xmlns="urn:NATAS:ASC:LUT:v0.95">
                <Matrix id="c61daf06-539f-4254-81fc-9800e6d02a37" inBitDepth="32f" outBitDepth="32f">
                    <Array dim="4 4 3">
             3.24000 -1.53700 -0.49850         0.987654321098
            -0.96930  1.87600  0.04156         0.2
             0.05560 -0.20400  1.123456789012  0.3
             0        0        0               0
                    </Array>
                </Matrix>
            </ProcessList>
            """),
        ("matrix_example_1_3_alpha_offsets.ctf", """
            <?xml version="1.0" encoding="UTF-8"?>
            <ProcessList version="1.3" id="b5cc7aed-d405-4d8b-b64b-382b2341a378" name="matrix example" xmlns="urn:NATAS:ASC:LUT:v0.95">
                <Matrix id="c61daf06-539f-4254-81fc-9800e6d02a37" inBitDepth="32f" outBitDepth="32f">
                    <Array dim="4 5 4">
             3.24000 -1.53700 -0.49850 0.6  0.1
            -0.96930  1.87600  0.04156 0.7  0.2
             0.05560 -0.20400  1.05730 0.8  0.3
             1.2      1.3      1.4     1.5  0.4
                    </Array>
                </Matrix>
            </ProcessList>
            """),
        ("gamma_test1.ctf", """
            <?xml version="1.0" encoding="UTF-8"?>
            <ProcessList id="id">
                <Description>2.4 gamma</Description>
                <Gamma inBitDepth="16f" outBitDepth="8i" style="basicFwd">
                    <!-- If there is only one Params, use it for R, G, and B. -->
                    <GammaParams gamma="2.4" />
                </Gamma>
            </ProcessList>
            """),
        ("gamma_alpha_test1.ctf", """
            <?xml version="1.0" encoding="UTF-8"?>
            <ProcessList version="1.3" id="id">
                <Description>2.4 gamma</Description>
                <Gamma inBitDepth="16f" outBitDepth="8i" style="basicFwd">
                    <GammaParams gamma="2.4" />
                </Gamma>
            </ProcessList>
            """),
    ]

    /// Files OpenColorIO refuses too, with what colorcube's message mentions.
    static let refusals: [(text: String, mentions: String)] = [
        (processList(matrix34, root: "version=\"2.7\""), "newer than CTF 2.6"),
        (processList(matrix34, root: "version=\"asd\""), "not a version number"),
        (processList(matrix34, root: "version=\"1.3\" compCLFversion=\"3.0\""), "both"),
        (processList(cdl), "has no <ASC_CDL>"),
        (processList(node("InverseLUT1D", "", "<Array dim=\"2 1\">0 1</Array>"), root: "version=\"1.2\""), "came with version 1.3"),
        (processList(node("InverseLUT3D", "", "<Array dim=\"2 2 2 3\">0 0 0 0 0 1 0 1 0 0 1 1 1 0 0 1 0 1 1 1 0 1 1 1</Array>"),
                     root: "version=\"1.5\""), "came with version 1.6"),
        (processList(log10, root: "version=\"1.2\""), "has no <Log>"),
        (processList(matrix34), "where a Matrix is \"3 3 3\""),
        (processList(node("Matrix", "", "<Array dim=\"4 4 3\">1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</Array>"), root: "version=\"1.3\""),
         "files up to version 1.2"),
        (processList(node("FixedFunction", " style=\"RGB_TO_HSV\"", ""), root: "version=\"1.7\""), "<FixedFunction>"),
        (processList(cineon("linToLog", ["R": "0.6 685 95 1 0.0005", "G": "0.6 685 95 1 0.0005"]), root: "version=\"1.5\""),
         "Cineon LogParams for blue is missing"),
        (processList(cineon("linToLog", "<LogParams gamma=\"0.6\" refWhite=\"685\" refBlack=\"95\" highlight=\"1\" shadow=\"0\" "
                                        + "linSideSlope=\"2\"/>"), root: "version=\"2.0\""), "not both"),
        (processList(cineon("logToLin", ["": "0.005 685 95 1 0"]), root: "version=\"1.3\""), "not above 0.01"),
        (processList(cineon("logToLin", ["": "0.6 95 685 1 0"]), root: "version=\"1.3\""), "refWhite 95.0 is not above"),
        (processList(cineon("logToLin", ["": "0.6 685 95 0 1"]), root: "version=\"2.1\""), "highlight 0.0 is not above"),
        (processList("<Info version=\"\"><Release>1</Release></Info>" + matrix34, root: "version=\"1.3\""), "not a version number"),
        (processList("<Info version=\"invalid\"/>" + matrix34, root: "version=\"1.3\""), "not a version number"),
        (processList("<Info version=\"3.0\"/>" + matrix34, root: "version=\"1.3\""), "newer than the Info version"),
    ]

    /// CTF operators OpenColorIO applies and colorcube cannot (a Reference to a config's
    /// transform by alias): refused, naming the element and the way out.
    static let cannotApply: [(element: String, text: String)] = [
        ("Reference", processList("<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" alias=\"display\"/>", root: "version=\"2.0\"")),
    ]

    static let inputs: [SIMD3<Double>] = [SIMD3(0, 0, 0), SIMD3(0.1, 0.2, 0.3), SIMD3(0.25, 0.5, 0.75),
                                          SIMD3(0.125, 0.375, 0.875), SIMD3(0.9, 0.6, 0.05), SIMD3(1, 1, 1)]

    static func read(_ text: String, _ name: String = "look.ctf") throws -> Look {
        let folder = try TemporaryDirectory()
        return try OCIOReference.read(text, named: name, in: folder)
    }

    // MARK: Reading

    @Test func aCTFIsItsOwnFormat() throws {
        let format = try #require(LUTFormats.all.forExtension("CTF"))
        #expect(format.name == "ctf")
        #expect(format.isWritable && format.holdsChains)
        let look = try Self.read(Self.written[0].text)
        #expect(look.format.name == "ctf")
        #expect(look.transform.operations.count == 2)
        #expect(format.describe(look) == "CTF (Autodesk Common Transform Format), 2 operations")
    }

    /// Without a version a .ctf is CTF 1.2, while a .clf needs one.
    @Test func aMissingVersionIsCTF12() throws {
        let text = Self.processList(Self.matrix333)
        let look = try Self.read(text)
        #expect(look.transform.apply(SIMD3(1, 0, 0)) == SIMD3(0.9, 0.05, 0))
        #expect(try LUTTestFiles.malformedLine(text, named: "look.clf") == 2)
    }

    /// The alpha column of a 4-row matrix meets alpha 1 and adds to the offset; the alpha row is
    /// ignored; "4 4 3" (version 1.2) holds offsets in its fourth column.
    @Test func alphaMatricesFoldIntoTheOffset() throws {
        let alpha = try Self.read(Self.written[5].text).transform.operations[0] as? MatrixOp
        #expect(alpha?.offset == SIMD3(0.05 + 0.01, -0.03 + 0.02, 0.02 + 0))
        let offsets = try Self.read(Self.written[2].text).transform.operations[0] as? MatrixOp
        #expect(offsets?.offset == SIMD3(0.1, 0.2, 0.3))
    }

    /// A Cineon Log takes refWhite to highlight and refBlack to shadow (codes out of 1023).
    @Test func cineonParametersMapTheReferencesToTheHighlightAndTheShadow() throws {
        let text = Self.processList(Self.cineon("linToLog", ["": "0.6 685 95 1 0.0005"]), root: "version=\"1.3\"")
        let look = try Self.read(text)
        let white = look.transform.apply(SIMD3(repeating: 1))
        let black = look.transform.apply(SIMD3(repeating: 0.0005))
        #expect(abs(white.x - 685.0 / 1023) < 1e-12 && abs(black.x - 95.0 / 1023) < 1e-12, "\(white) \(black)")
        let log = try #require(look.transform.operations.first)
        let back = try #require(try log.inverse().first).apply(white)
        #expect(abs(back.x - 1) < 1e-12, "\(back)")
    }

    @Test func refusalsNameTheProblem() throws {
        for (index, refusal) in Self.refusals.enumerated() {
            let error = #expect(throws: LUTFileError.self, "refusal \(index)") { try Self.read(refusal.text) }
            #expect(error?.description.contains(refusal.mentions) == true, "refusal \(index): \(String(describing: error))")
        }
    }

    @Test func operatorsColorcubeCannotApplyAreRefusedWithTheFix() throws {
        for (element, text) in Self.cannotApply {
            let error = #expect(throws: LUTFileError.self, "\(element)") { try Self.read(text) }
            let message = error?.description ?? ""
            #expect(message.contains("<\(element)>") && message.contains("ociobakelut") && message.contains("does not read"), "\(message)")
        }
    }

    // MARK: Against OpenColorIO

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOReadsTheSameFiles() throws {
        try CLFParityTests.expectOpenColorIOAgrees(Self.written + Self.openColorIOFiles, at: Self.inputs)
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIORefusesTheSameFiles() throws {
        try Self.expectOpenColorIORefuses(Self.refusals)
    }

    /// OpenColorIO refuses each of `refusals`, written as a .ctf.
    static func expectOpenColorIORefuses(_ refusals: [(text: String, mentions: String)],
                                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        for (index, refusal) in refusals.enumerated() {
            let path = try OCIOReference.write(refusal.text, named: "refused\(index).ctf", in: folder)
            #expect(try OCIOReference.verdict(lut: path, inputs: inputs, python: python).isRefused,
                    "refusal \(index) (\(refusal.mentions)) is read by OpenColorIO", sourceLocation: sourceLocation)
        }
    }
}
