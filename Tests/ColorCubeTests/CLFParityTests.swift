import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// Where the CLF and .spi1d readers agree with OpenColorIO 2.6 on what a file means or why it is
/// refused: IndexMaps of any length, elements CLF does not define, NaN and infinite 1D entries,
/// Gamma and Exponent nodes, Log parameters, and files OpenColorIO refuses. Each case is checked exactly here, and against PyOpenColorIO
/// when it is installed.
@Suite struct CLFParityTests {
    // MARK: Files

    static func processList(_ body: String, root: String = "id=\"t\" compCLFversion=\"3.0\"") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ProcessList \(root)>\n\(body)\n</ProcessList>\n"
    }

    static let legacy = "id=\"t\" version=\"1.2\""
    static let matrix = "<Matrix inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"3 3\">2 0 0 0 1 0 0 0 0.5</Array></Matrix>"

    /// A five-entry LUT1D with `entries`, after `map` (an IndexMap, or nothing).
    static func lut1D(_ entries: String, map: String = "") -> String {
        "<LUT1D inBitDepth=\"32f\" outBitDepth=\"32f\">\(map)<Array dim=\"5 1\">\(entries)</Array></LUT1D>"
    }

    static func spi1D(_ entries: [String]) -> String {
        "Version 1\nFrom 0.0 1.0\nLength \(entries.count)\nComponents 1\n{\n" + entries.joined(separator: "\n") + "\n}\n"
    }

    static func log(_ parameters: String) -> String {
        processList("<Log inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"linToLog\"><LogParams \(parameters)/></Log>")
    }

    static func exponent(_ style: String, _ parameters: String) -> String {
        processList("<Exponent inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"\(style)\"><ExponentParams \(parameters)/></Exponent>")
    }

    /// A two-entry LUT1D with one more attribute.
    static func lut1DAttribute(_ attribute: String, _ entries: String) -> String {
        processList("<LUT1D inBitDepth=\"32f\" outBitDepth=\"32f\" \(attribute)><Array dim=\"2 1\">\(entries)</Array></LUT1D>")
    }

    static let curve = "0 0.1 0.3 0.6 1"

    /// The curve in a ProcessList whose root states `version` after its id.
    static func versioned(_ version: String) -> String {
        processList(lut1D(curve), root: "id=\"t\" " + version)
    }

    /// The curve after `map`, in a pre-SMPTE ProcessList.
    static func mapped(_ map: String) -> String {
        processList(lut1D(curve, map: map), root: legacy)
    }
    static let inputs: [SIMD3<Double>] = [SIMD3(0, 0, 0), SIMD3(0.1, 0.2, 0.3), SIMD3(0.25, 0.5, 0.75),
                                          SIMD3(0.125, 0.375, 0.875), SIMD3(1, 1, 1)]

    static func write(_ text: String, _ name: String, in folder: TemporaryDirectory) throws -> String {
        try OCIOReference.write(text, named: name, in: folder)
    }

    static func read(_ text: String, _ name: String = "look.clf") throws -> Look {
        try OCIOReference.read(text, named: name, in: TemporaryDirectory())
    }

    static let largest = Double(Float.greatestFiniteMagnitude)

    // MARK: IndexMap

    static let indexMaps = ["0@0 0.5@1 1@4", "0@0 0.5@1 0.6@3 1@4", "0@0, 0.5@1, 1@4", "-1@-4 0@0 1@9", "0 @ 0 1@ 4"]

    /// Up to version 1.4 OpenColorIO reads an IndexMap of any length and ignores it: the table
    /// reads as without it.
    @Test(arguments: indexMaps)
    func indexMapsOfAnyLengthAreCheckedAndIgnored(map: String) throws {
        let count = map.split(separator: "@").count - 1
        let mapped = try Self.read(Self.mapped("<IndexMap dim=\"\(count)\">\(map)</IndexMap>"))
        let plain = try Self.read(Self.mapped(""))
        for input in Self.inputs {
            #expect(mapped.transform.apply(input) == plain.transform.apply(input))
        }
        #expect(mapped.notes.contains { $0.contains("IndexMap") && $0.contains("ignored") })
    }

    /// From CLF 2 (and CTF 1.5 for a LUT1D, 1.7 for a LUT3D) a two-entry map is a clamping range
    /// before the table, from its values in the input bit depth to its indices; CLF 3 dropped the
    /// element, and such a file's map is ignored again.
    @Test func twoEntryIndexMapsBecomeARangeFromCLF2() throws {
        let map = "<IndexMap dim=\"2\">0.2 @1 0.6@ 3</IndexMap>"
        let ranged = try Self.read(Self.processList(Self.lut1D(Self.curve, map: map), root: "id=\"t\" compCLFversion=\"2.0\""))
        #expect(ranged.transform.operations.count == 2 && ranged.transform.operations[0] is RangeOp)
        let plain = try Self.read(Self.processList(Self.lut1D(Self.curve), root: "id=\"t\" compCLFversion=\"2.0\""))
        // Input 0.2 reads entry 1 and 0.6 entry 3; halfway between is entry 2, and beyond them clamps.
        let at = { (x: Double) in ranged.transform.apply(SIMD3(repeating: x)).x }
        #expect(abs(at(0.2) - 0.1) < 1e-12 && abs(at(0.4) - 0.3) < 1e-12 && abs(at(0.6) - 0.6) < 1e-12)
        #expect(abs(at(0) - 0.1) < 1e-12 && abs(at(1) - 0.6) < 1e-12)
        #expect(plain.transform.apply(SIMD3(repeating: 0.4)).x != at(0.4))
        let ten = try Self.read(Self.processList("<LUT1D inBitDepth=\"10i\" outBitDepth=\"32f\"><IndexMap dim=\"2\">64@0 940@4</IndexMap>"
            + "<Array dim=\"5 1\">\(Self.curve)</Array></LUT1D>", root: "id=\"t\" compCLFversion=\"2.0\""))
        #expect(abs(ten.transform.apply(SIMD3(repeating: 502.0 / 1023)).x - 0.3) < 1e-12)
        let dropped = try Self.read(Self.processList(Self.lut1D(Self.curve, map: map)))
        #expect(dropped.transform.operations.count == 1)
        #expect(dropped.notes.contains { $0.contains("IndexMap") && $0.contains("CLF 3") })
    }

    // MARK: Gamma and Exponent

    /// A 32f node called `name` in `style`, holding `body`.
    static func node(_ name: String, _ style: String, _ body: String = "") -> String {
        "<\(name) inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"\(style)\">\(body)</\(name)>"
    }

    static func basic(_ style: String, _ exponent: String) -> String {
        processList(node("Exponent", style, "<ExponentParams exponent=\"\(exponent)\"/>"))
    }

    /// The inputs with one that is negative and one above 1.
    static let signedInputs = inputs + [SIMD3(-0.25, 0.01, 2)]

    /// Gamma and Exponent nodes OpenColorIO reads, each with the plain Exponent it reads as.
    static let exponents: [(text: String, same: String)] = [
        (processList(node("Gamma", "basicFwd", "<GammaParams gamma=\"2.2\"/>")), basic("basicFwd", "2.2")),
        (processList(node("Gamma", "moncurveFwd", "<GammaParams gamma=\"2.4\" offset=\"0.055\"/>")),
         processList(node("Exponent", "monCurveFwd", "<ExponentParams exponent=\"2.4\" offset=\"0.055\"/>"))),
        (processList(node("gamma", "basicMirrorRev", "<gammaparams exponent=\"2\"/><GammaParams channel=\"B\" gamma=\"3\"/>")),
         processList(node("Exponent", "basicMirrorRev", "<ExponentParams exponent=\"2\"/><ExponentParams channel=\"B\" exponent=\"3\"/>"))),
        // Parameters of the other element's kind are skipped.
        (processList(node("Gamma", "basicFwd", "<GammaParams gamma=\"2\"/><ExponentParams exponent=\"3\"/>")), basic("basicFwd", "2")),
        (processList(node("Exponent", "basicFwd", "<ExponentParams exponent=\"2\"/><GammaParams gamma=\"3\"/>")), basic("basicFwd", "2")),
        // Of exponent and gamma, the last written counts.
        (processList(node("Exponent", "basicFwd", "<ExponentParams exponent=\"2\" gamma=\"3\"/>")), basic("basicFwd", "3")),
        (processList(node("Exponent", "basicFwd", "<ExponentParams gamma=\"3\" exponent=\"2\"/>")), basic("basicFwd", "2")),
        // Pre-SMPTE files: the alpha channel's parameters from version 1.5, the mirror styles from 2.0.
        (processList(node("Gamma", "basicRev", "<GammaParams gamma=\"2\"/><GammaParams channel=\"A\" gamma=\"3\"/>"),
                     root: "id=\"t\" version=\"1.5\""), basic("basicRev", "2")),
        (processList(node("Gamma", "basicMirrorFwd", "<GammaParams gamma=\"2\"/>"), root: "id=\"t\" version=\"2.0\""),
         basic("basicMirrorFwd", "2")),
        (processList(node("Exponent", "monCurveFwd", "<ExponentParams exponent=\"2.4\" offset=\"0.1\"/>"), root: legacy),
         processList(node("Exponent", "monCurveFwd", "<ExponentParams exponent=\"2.4\" offset=\"0.1\"/>"))),
        (processList(node("Exponent", "basicRev", "<ExponentParams exponent=\"2\"/>"), root: "id=\"t\" compCLFversion=\"ST2136-1:2024\""),
         basic("basicRev", "2")),
        // Without parameters every channel has exponent 1 and offset 0.
        (processList(node("Exponent", "basicFwd")), basic("basicFwd", "1")),
        (processList(node("Gamma", "basicPassThruFwd", "<ExponentParams exponent=\"2\"/>")), basic("basicPassThruFwd", "1")),
        (processList(node("Exponent", "monCurveRev")),
         processList(node("Exponent", "monCurveRev", "<ExponentParams exponent=\"1\" offset=\"0\"/>"))),
    ]

    /// A Gamma reads as the Exponent of its style and parameters, as OpenColorIO reads it in a CLF.
    @Test(arguments: exponents.indices)
    func gammaAndExponentReadAsOpenColorIOReadsThem(index: Int) throws {
        let (text, same) = Self.exponents[index]
        let look = try Self.read(text), reference = try Self.read(same)
        #expect(look.transform.operations.count == 1)
        for input in Self.signedInputs {
            #expect(look.transform.apply(input) == reference.transform.apply(input), "at \(input)")
        }
    }

    /// An Exponent without parameters is read, and the notes say how.
    @Test func exponentWithoutParametersIsNoted() throws {
        let look = try Self.read(Self.processList(Self.node("Exponent", "basicMirrorFwd")))
        #expect(look.transform.apply(SIMD3(-0.25, 0.5, 2)) == SIMD3(-0.25, 0.5, 2))
        #expect(look.notes.contains { $0.contains("no <ExponentParams>") && $0.contains("exponent 1") }, "\(look.notes)")
    }

    // MARK: Log parameters

    /// A Log in `style` holding `body`, with `attributes` on the element itself.
    static func logNode(_ style: String, _ body: String = "", attributes: String = "",
                        root: String = "id=\"t\" compCLFversion=\"3.0\"") -> String {
        processList("<Log inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"\(style)\"\(attributes)>\(body)</Log>", root: root)
    }

    /// Logs OpenColorIO reads whatever their parameters say, each with the Log it reads as: the
    /// basic styles' LogParams are not read at all, and a base on the Log element is ignored.
    static let ignoredLogParameters: [(text: String, same: String)] = [
        (logNode("log10", "<LogParams base=\"-2\"/>"), logNode("log10")),
        (logNode("log2", "<LogParams base=\"abc\" logSideSlope=\"0\"/>"), logNode("log2")),
        (logNode("antiLog10", "<LogParams channel=\"R\" base=\"3\"/><LogParams channel=\"G\" base=\"5\"/>"), logNode("antiLog10")),
        (logNode("antiLog2", "<LogParams channel=\"X\" base=\"1\" linearSlope=\"0\"/>"), logNode("antiLog2")),
        (logNode("log10", attributes: " base=\"-2\""), logNode("log10")),
        (logNode("linToLog", "<LogParams/>", attributes: " base=\"3\""), logNode("linToLog", "<LogParams base=\"2\"/>")),
        // Files whose version OpenColorIO reads a Log in.
        (logNode("log10", "<LogParams base=\"-2\"/>", root: "id=\"t\" version=\"1.3\""), logNode("log10")),
        (logNode("linToLog", "<LogParams base=\"10\"/>", root: "id=\"t\" version=\"2.0\""), logNode("linToLog", "<LogParams base=\"10\"/>")),
        (logNode("antiLog2", root: "id=\"t\" compCLFversion=\"2.1\""), logNode("antiLog2")),
    ]

    @Test(arguments: ignoredLogParameters.indices)
    func logParametersOpenColorIOIgnoresAreIgnored(index: Int) throws {
        let (text, same) = Self.ignoredLogParameters[index]
        let look = try Self.read(text), reference = try Self.read(same)
        for input in Self.signedInputs {
            #expect(look.transform.apply(input) == reference.transform.apply(input), "at \(input)")
        }
        if text.contains("<LogParams"), !text.contains("linToLog") {
            #expect(look.notes.contains { $0.contains("LogParams") && $0.contains("ignored") }, "\(look.notes)")
        }
    }

    static let cameraParameters = "base=\"10\" logSideSlope=\"0.25\" logSideOffset=\"0.5\" linSideSlope=\"2\" linSideOffset=\"0.01\" linSideBreak=\"0.1\""

    /// Camera logs with a `linearSlope` of 0, which OpenColorIO reads.
    static let flatCameraLogs = [
        logNode("cameraLinToLog", "<LogParams \(cameraParameters) linearSlope=\"0\"/>"),
        logNode("cameraLogToLin", "<LogParams \(cameraParameters) linearSlope=\"0\"/>"),
        logNode("cameraLinToLog", "<LogParams channel=\"R\" linSideBreak=\"0.1\" linearSlope=\"0\"/>"
            + "<LogParams channel=\"G\" linSideBreak=\"0.1\" linearSlope=\"1\"/><LogParams channel=\"B\" linSideBreak=\"0.1\" linearSlope=\"-2\"/>"),
    ]

    /// With `linearSlope` 0 the straight part is flat: below the break cameraLinToLog gives the
    /// break's log value and cameraLogToLin -infinity, and the flat curve has no inverse.
    @Test func linearSlopeZeroIsAFlatLine() throws {
        let forward = try #require(try Self.read(Self.flatCameraLogs[0]).transform.operations.first as? LogOp)
        #expect(forward.apply(SIMD3(repeating: -0.25)) == forward.apply(SIMD3(repeating: 0.1)))
        #expect(forward.apply(SIMD3(repeating: 0.05)) == forward.apply(SIMD3(repeating: 0.1)))
        #expect(throws: TransformError.self) { try forward.inverse() }
        let reverse = try #require(try Self.read(Self.flatCameraLogs[1]).transform.operations.first as? LogOp)
        #expect(reverse.apply(SIMD3(repeating: 0.25)) == SIMD3(repeating: -.infinity))
        let logBreak = forward.apply(SIMD3(repeating: 0.1))
        #expect(abs(reverse.apply(logBreak).x - 0.1) <= 1e-12)
    }

    // MARK: Refusals

    static let refusals: [(text: String, line: Int, mentions: String)] = [
        (processList(""), 2, "holds no operation"),
        (processList("<Description>x</Description><Info><Vendor/></Info>"), 2, "holds no operation"),
        (processList("<Info>" + matrix + "</Info>"), 2, "holds no operation"),
        (processList("", root: legacy), 2, "holds no operation"),
        (processList(matrix, root: "id=\"\" compCLFversion=\"3.0\""), 2, "id is empty"),
        (processList(lut1D(curve), root: "id=\"\" version=\"1.2\""), 2, "id is empty"),
        (versioned("version=\"abc\""), 2, "not a version number"),
        (versioned("version=\"-1\""), 2, "not a version number"),
        (versioned("version=\" 1.2\""), 2, "not a version number"),
        (versioned("version=\"1e0\""), 2, "not a version number"),
        (versioned("version=\"1.\""), 2, "not a version number"),
        (versioned("version=\"3\""), 2, "newer than the pre-SMPTE"),
        (versioned("version=\"2.9\""), 2, "newer than the pre-SMPTE"),
        (versioned("compCLFversion=\"3.01\""), 2, "newer than CLF 3"),
        (versioned("compCLFversion=\"3.0.0.0\""), 2, "not a version number"),
        (versioned("compCLFversion=\"ST2136-1:2025\""), 2, "not a version number"),
        (versioned("version=\"1.2\" compCLFversion=\"3\""), 2, "both compCLFversion"),
        (versioned("version=\"2.0\" xmlns=\"http://www.smpte-ra.org/ns/2136-1/2024\""), 2, "remove version"),
        (processList(matrix, root: "compCLFversion=\"3.0\" xmlns=\"http://example.com/clf\""), 2, "id is missing"),
        (log("base=\"-2\""), 3, "base -2"),
        (log("base=\"0\""), 3, "base 0"),
        (log("logSideSlope=\"0\""), 3, "must not be 0"),
        (log("linSideSlope=\"0\""), 3, "must not be 0"),
        (exponent("basicFwd", "exponent=\"0.001\""), 3, "exponent 0.001"),
        (exponent("basicFwd", "exponent=\"-1\""), 3, "exponent -1"),
        (exponent("monCurveRev", "exponent=\"0.9\" offset=\"0.1\""), 3, "exponent 0.9"),
        (exponent("monCurveFwd", "exponent=\"2\" offset=\"1\""), 3, "outside 0...0.9"),
        (exponent("monCurveFwd", "exponent=\"2\""), 3, "offset is missing"),
        (exponent("basicFwd", "exponent=\"2\" offset=\"0\""), 3, "offset is for the monCurve styles"),
        (lut1DAttribute("halfDomain=\"false\"", "0 1"), 3, "halfDomain=\"false\" is not \"true\""),
        (lut1DAttribute("halfDomain=\"\"", "0 1"), 3, "halfDomain=\"\" is not \"true\""),
        (lut1DAttribute("rawHalfs=\"yes\"", "0 15360"), 3, "rawHalfs=\"yes\" is not \"true\""),
        (lut1DAttribute("hueAdjust=\"none\"", "0 1"), 3, "is not dw3"),
        (mapped("<IndexMap dim=\"3\">1@0 0.5@1 0@4</IndexMap>"), 3, "must increase"),
        (mapped("<IndexMap dim=\"3\">0@0 0.5@1 1@1</IndexMap>"), 3, "must increase"),
        (mapped("<IndexMap dim=\"3\">0@0 0@1 1@4</IndexMap>"), 3, "must increase"),
        (mapped("<IndexMap>0@0 1@4</IndexMap>"), 3, "dim is missing"),
        (mapped("<IndexMap dim=\"1\">0@0</IndexMap>"), 3, "dim \"1\""),
        (mapped("<IndexMap dim=\"3\">0@0 1@4</IndexMap>"), 3, "expected 3 entries in <IndexMap> (its dim), found 2"),
        (mapped("<IndexMap dim=\"3\">0@0 0.5 1@4</IndexMap>"), 3, "is not pairs"),
        (mapped("<IndexMap dim=\"2\">0@0 0.5@1 1@4</IndexMap>"), 3, "expected 2 entries in <IndexMap> (its dim), found 3"),
        (processList(lut1D(curve, map: "<IndexMap dim=\"3\">0@0 0.5@1 1@4</IndexMap>"), root: "id=\"t\" compCLFversion=\"2.0\""),
         3, "an IndexMap of 3 entries"),
        (mapped("<IndexMap dim=\"2\">0@0 1@4</IndexMap><IndexMap dim=\"2\">0@0 1@4</IndexMap>"),
         3, "a second IndexMap"),
        (processList(matrix, root: legacy), 3, "where a Matrix is \"3 3 3\""),
        (processList(matrix, root: "id=\"t\" version=\"1.1\""), 3, "where a Matrix is \"3 3 3\""),
        (processList(node("ASC_CDL", "Fwd", "<SOPNode><Slope>1.1 1 0.9</Slope></SOPNode>"), root: legacy), 3, "has no <ASC_CDL>"),
        (processList("<FixedFunction inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"RGB_TO_HSV\"/>" + matrix), 3, "CTF operator"),
        (processList("<InverseLUT1D inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"2 1\">0 1</Array></InverseLUT1D>" + matrix),
         3, "CTF operator"),
        (processList(node("Gamma", "basicFwd", "<GammaParams gamma=\"2\"/>"), root: "id=\"t\" compCLFversion=\"2.0\""), 3, "has no <Gamma>"),
        (processList(node("Exponent", "basicFwd", "<ExponentParams exponent=\"2\"/>"), root: "id=\"t\" compCLFversion=\"2\""),
         3, "has no <Exponent>"),
        (processList(node("Gamma", "basicMirrorFwd", "<GammaParams gamma=\"2\"/>"), root: legacy), 3, "came with version 2.0"),
        (processList(node("Exponent", "monCurveMirrorRev", "<ExponentParams exponent=\"2\" offset=\"0.1\"/>"),
                     root: "id=\"t\" compCLFversion=\"0\""), 3, "came with version 2.0"),
        (processList(node("Gamma", "basicFwd", "<GammaParams gamma=\"2\"/><GammaParams channel=\"A\" gamma=\"3\"/>")), 3, "channel \"A\""),
        (processList(node("Gamma", "basicFwd", "<GammaParams channel=\"A\" gamma=\"3\"/>"), root: "id=\"t\" version=\"1.4\""),
         3, "channel \"A\""),
        (processList(node("Gamma", "basicFwd", "<GammaParams gamma=\"0.001\"/>")), 3, "exponent 0.001"),
        (processList(node("Gamma", "moncurveFwd", "<GammaParams gamma=\"2\"/>")), 3, "offset is missing"),
        (processList(node("Gamma", "basicFwd", "<GammaParams gamma=\"2\" offset=\"0\"/>")), 3, "offset is for the monCurve styles"),
        (processList(node("Exponent", "basicFwd", "<ExponentParams/>")), 3, "exponent (or gamma) is missing"),
        (processList(node("Gamma", "bogus")), 3, "style \"bogus\""),
        (processList("<Gamma inBitDepth=\"32f\" outBitDepth=\"32f\"/>"), 3, "style is missing"),
        (logNode("linToLog", "<LogParams linearSlope=\"0\"/>"), 3, "linearSlope is for the cameraLinToLog"),
        (logNode("linToLog", "<LogParams linSideBreak=\"2\"/>"), 3, "linSideBreak is for the cameraLinToLog"),
        (logNode("linToLog", "<LogParams channel=\"A\" base=\"10\"/>"), 3, "channel \"A\""),
        (logNode("cameraLinToLog", "<LogParams base=\"-2\" linSideBreak=\"0.1\"/>"), 3, "base -2"),
        (logNode("logToLin", "<LogParams base=\"1\"/>"), 3, "base 1"),
        (logNode("linToLog", "<LogParams base=\"10\"/>", root: "id=\"t\" compCLFversion=\"2.0\""), 3, "has no <Log>"),
        (logNode("log10", root: "id=\"t\" compCLFversion=\"1\""), 3, "has no <Log>"),
        (logNode("log10", root: legacy), 3, "has no <Log>"),
        (logNode("linToLog", "<LogParams base=\"10\" logSideSlope=\"0.25\"/>", root: "id=\"t\" version=\"1.3\""), 3, "gamma is missing"),
        (logNode("linToLog", "", root: "id=\"t\" version=\"1.3\""), 3, "Cineon LogParams for red"),
        (logNode("cameraLogToLin", "<LogParams linSideBreak=\"0.1\"/>", root: "id=\"t\" version=\"1.8\""), 3, "came with version 2.0"),
    ]

    /// Each is refused with the file, the line and what is wrong.
    @Test(arguments: refusals.indices)
    func refusesWhatOpenColorIORefuses(index: Int) throws {
        let (text, line, mentions) = Self.refusals[index]
        try CLFFormatTests.expectRefusal(text, line: line, mentions: mentions)
    }

    /// Versions OpenColorIO accepts beside the plain ones.
    static let acceptedVersions = ["version=\"2.0.5\"", "version=\"01.2\"", "version=\"0\"", "compCLFversion=\"ST2136-1:2024\"",
                                   "compCLFversion=\"2.9\"", "compCLFversion=\"3.0.0\"", "compCLFversion=\"0\""]

    @Test(arguments: acceptedVersions)
    func versionsAreReadAsOpenColorIOReadsThem(version: String) throws {
        let look = try Self.read(Self.versioned(version))
        #expect(look.transform.operations.count == 1)
    }

    /// Matrices as pre-SMPTE versions write them: "3 3 3" up to version 1.2, any shape after.
    static let legacyMatrices = [
        processList(matrix.replacingOccurrences(of: "dim=\"3 3\"", with: "dim=\"3 3 3\""), root: legacy),
        processList(matrix, root: "id=\"t\" version=\"1.2.1\""),
        processList(matrix.replacingOccurrences(of: "dim=\"3 3\">2 0 0 0 1 0 0 0 0.5", with: "dim=\"3 4\">2 0 0 0 0 1 0 0 0 0 0.5 0"),
                    root: "id=\"t\" version=\"1.3\""),
    ]

    @Test(arguments: legacyMatrices)
    func legacyMatricesFollowTheirVersion(text: String) throws {
        let look = try Self.read(text)
        #expect(look.transform.apply(SIMD3(0.25, 0.5, 0.75)) == SIMD3(0.5, 0.5, 0.375))
    }

    /// OpenColorIO's RGBA matrices, which it reads in a .clf as in a .ctf: "4 4" and "4 5" with a
    /// third dimension or without, in CLF 3 and in a pre-SMPTE 1.3 file.
    static let alphaMatrices = [
        processList("<Matrix inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"4 4\">2 0 0 0.25 0 1 0 0.5 0 0 0.5 0 "
                    + "0.3 0.3 0.3 1</Array></Matrix>"),
        processList("<Matrix inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"4 5 4\">2 0 0 0.25 0.125 0 1 0 0.5 0 "
                    + "0 0 0.5 0 -0.25 0.3 0.3 0.3 1 0</Array></Matrix>", root: "id=\"t\" version=\"1.3\""),
    ]

    /// The alpha row is ignored; the alpha column meets alpha 1 and adds to the offset.
    @Test func alphaMatricesAddTheirAlphaColumnToTheOffset() throws {
        let fourByFour = try Self.read(Self.alphaMatrices[0])
        #expect(fourByFour.transform.apply(SIMD3(0.25, 0.5, 0.75)) == SIMD3(0.75, 1, 0.375))
        let fourByFive = try Self.read(Self.alphaMatrices[1])
        #expect(fourByFive.transform.apply(SIMD3(0.25, 0.5, 0.75)) == SIMD3(0.875, 1, 0.125))
    }

    // MARK: Against OpenColorIO

    /// Every file read above, with the name that picks its format.
    static var accepted: [(name: String, text: String)] {
        indexMaps.map { map in
            ("map.clf", mapped("<IndexMap dim=\"\(map.split(separator: "@").count - 1)\">\(map)</IndexMap>"))
        }
            + CLFElementsTests.unknownElements.map { ("unknown.clf", processList($0.body)) }
            + CLFNonFiniteEntriesTests.nonFinite.map { ($0.name, $0.text) }
            + acceptedVersions.map { ("version.clf", versioned($0)) }
            + legacyMatrices.map { ("matrix.clf", $0) }
            + alphaMatrices.map { ("alpha.clf", $0) }
            + smpteNamespaced.map { ("smpte.clf", $0) }
            + rangedMaps.map { ("ranged.clf", $0) }
            + hueKept.map { ("hue.clf", $0) }
    }

    /// `hueAdjust="dw3"` on a three-column LUT1D in CLF 3, and in a pre-SMPTE version 1.3 file,
    /// which had no such attribute (ignored there).
    static let hueKept = [
        processList("<LUT1D inBitDepth=\"32f\" outBitDepth=\"32f\" hueAdjust=\"dw3\"><Array dim=\"3 3\">"
            + "0 0.1 0  0.3 0.5 0.7  1 0.9 1</Array></LUT1D>"),
        processList("<LUT1D inBitDepth=\"32f\" outBitDepth=\"32f\" hueAdjust=\"dw3\"><Array dim=\"3 3\">"
            + "0 0.1 0  0.3 0.5 0.7  1 0.9 1</Array></LUT1D>", root: "id=\"t\" version=\"1.3\""),
    ]

    /// The middle channel keeps its place between the other two: with a curve that brightens
    /// green most, a colour whose green is the middle channel keeps its hue ratio.
    @Test func hueAdjustKeepsTheMiddleChannelsPlace() throws {
        let look = try Self.read(Self.hueKept[0])
        let kept = try #require(look.transform.operations.first as? HueKeepingOp)
        let input = SIMD3<Double>(0.8, 0.5, 0.2)
        let plain = kept.curves.apply(input), output = kept.apply(input)
        #expect(output.x == plain.x && output.z == plain.z)
        #expect(abs((output.y - output.z) / (output.x - output.z) - 0.5) < 1e-12)
        // A grey has no middle: OpenColorIO's order makes green the middle and red the smallest,
        // so green takes red's output.
        let grey = kept.curves.apply(SIMD3(repeating: 0.4))
        #expect(kept.apply(SIMD3(repeating: 0.4)) == SIMD3(grey.x, grey.x, grey.z))
        let inverse = try #require(try kept.inverse().first)
        let back = inverse.apply(output)
        #expect(abs(back.x - input.x) < 1e-9 && abs(back.y - input.y) < 1e-9 && abs(back.z - input.z) < 1e-9)
        let old = try Self.read(Self.hueKept[1])
        #expect(old.transform.operations.first is LUT1DOp)
    }


    /// Two-entry IndexMaps that are ranges (CLF 2, a 10-bit LUT1D, a LUT3D) or dropped (CLF 3).
    static let rangedMaps = [
        processList(lut1D(curve, map: "<IndexMap dim=\"2\">0.2 @1 0.6@ 3</IndexMap>"), root: "id=\"t\" compCLFversion=\"2.0\""),
        processList("<LUT1D inBitDepth=\"10i\" outBitDepth=\"32f\"><IndexMap dim=\"2\">64@0 940@4</IndexMap>"
            + "<Array dim=\"5 1\">\(curve)</Array></LUT1D>", root: "id=\"t\" compCLFversion=\"2.0\""),
        processList("<LUT3D inBitDepth=\"32f\" outBitDepth=\"32f\"><IndexMap dim=\"2\">0.1@0 0.7@1</IndexMap><Array dim=\"2 2 2 3\">"
            + "0 0 0  0 0 1  0 1 0  0 1 1  1 0 0  1 0 1  1 1 0  1 1 0.5</Array></LUT3D>", root: "id=\"t\" compCLFversion=\"2.0\""),
        processList(lut1D(curve, map: "<IndexMap dim=\"2\">0.2 @1 0.6@ 3</IndexMap>")),
    ]

    /// ST 2136-1 files: the namespace states CLF 3, and the id may be left out.
    static let smpteNamespaced = [
        processList(matrix, root: "xmlns=\"http://www.smpte-ra.org/ns/2136-1/2024\""),
        processList(matrix, root: "xmlns=\"http://www.smpte-ra.org/ns/2136-1/2024\" compCLFversion=\"ST2136-1:2024\""),
    ]

    @Test(arguments: smpteNamespaced)
    func theSMPTENamespaceStatesTheVersion(text: String) throws {
        let look = try Self.read(text)
        #expect(look.transform.apply(SIMD3(0.25, 0.5, 0.75)) == SIMD3(0.5, 0.5, 0.375))
    }

    /// The Gamma, Exponent and Log files read above, compared at inputs beyond 0...1 too.
    static var acceptedNodes: [(name: String, text: String)] {
        exponents.map { ("exponent.clf", $0.text) }
            + ignoredLogParameters.map { ("log.clf", $0.text) }
            + flatCameraLogs.map { ("camera.clf", $0) }
    }

    /// OpenColorIO reads every file colorcube reads here, to the same values (within Float32).
    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOReadsTheSameFiles() throws {
        try Self.expectOpenColorIOAgrees(Self.accepted, at: Self.inputs)
        try Self.expectOpenColorIOAgrees(Self.acceptedNodes, at: Self.signedInputs)
    }

    /// Each file read by colorcube and by OpenColorIO at `inputs`: equal within 1e-5 (relative
    /// above 1), and not finite where OpenColorIO's value is not.
    static func expectOpenColorIOAgrees(_ files: [(name: String, text: String)], at inputs: [SIMD3<Double>],
                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        for (index, (name, text)) in files.enumerated() {
            let path = try write(text, "\(index)-\(name)", in: folder)
            let ours = try LUTReader.read(path: path).transform
            guard case .outputs(let theirs) = try OCIOReference.verdict(lut: path, inputs: inputs, python: python) else {
                Issue.record("OpenColorIO refuses \(name): \(text)", sourceLocation: sourceLocation)
                continue
            }
            for (input, reference) in zip(inputs, theirs) {
                let value = ours.apply(input)
                for channel in 0..<3 {
                    if reference[channel].isNaN {
                        #expect(!value[channel].isFinite, "\(name) at \(input): ours \(value[channel]), OpenColorIO not finite",
                                sourceLocation: sourceLocation)
                        continue
                    }
                    let tolerance = 1e-5 * max(1, abs(reference[channel]))
                    #expect(abs(value[channel] - reference[channel]) <= tolerance,
                            "\(name) at \(input): ours \(value[channel]), OpenColorIO \(reference[channel]) in \(text)",
                            sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// OpenColorIO refuses every file colorcube refuses here.
    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIORefusesTheSameFiles() throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        for (index, refusal) in Self.refusals.enumerated() {
            let path = try Self.write(refusal.text, "refused\(index).clf", in: folder)
            #expect(try OCIOReference.verdict(lut: path, inputs: Self.inputs, python: python).isRefused,
                    "refusal \(index) (\(refusal.mentions)) is read by OpenColorIO")
        }
    }
}
