import ColorCubeConverter
import ColorCubeCore
import ColorCubeImaging
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

@Suite struct ICCDisplayProfileTests {
    typealias Profile = ICCTestProfile

    /// sRGB's tone curve as ICC parametric types 1 to 4 (types 1 and 2 without the straight
    /// segment), and as type 0, a plain gamma.
    static let parametric: [ICCTestProfile.Curve] = [
        .parametric(0, [2.2]),
        .parametric(1, [2.4, 1 / 1.055, 0.055 / 1.055]),
        .parametric(2, [2.4, 1 / 1.055, 0.055 / 1.055, 0]),
        .parametric(3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]),
        .parametric(4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045, 0, 0]),
    ]

    /// A tabulated curve: x^2 in 1024 entries.
    static let squares = ICCTestProfile.Curve.table((0..<1024).map { UInt16((pow(Double($0) / 1023, 2) * 65535).rounded()) })

    static func profile(_ curve: ICCTestProfile.Curve) -> ICCTestProfile {
        var profile = ICCTestProfile()
        profile.curves = [curve, curve, curve]
        return profile
    }

    static func read(_ profile: ICCTestProfile, path: String = "display.icc") throws -> ICCDisplayProfile {
        try ICCDisplayProfile(bytes: profile.bytes, path: path)
    }

    /// What a profile does in the ICC direction, in Float64: display code values through the
    /// tone curve `curve`, the colorant matrix (each tag rounded to s15Fixed16, as stored), then
    /// OpenColorIO's Bradford matrix to D65.
    static func forward(_ rgb: SIMD3<Double>, profile: ICCTestProfile, curve: (Double) -> Double) -> SIMD3<Double> {
        let linear = SIMD3(curve(rgb.x), curve(rgb.y), curve(rgb.z))
        let columns = profile.colorants.map { ($0 * 65536).rounded(.toNearestOrAwayFromZero) / 65536 }
        let xyz = columns[0] * linear.x + columns[1] * linear.y + columns[2] * linear.z
        let rows = ICCDisplayProfile.bradfordD50ToD65
        return SIMD3((rows[0] * xyz).sum(), (rows[1] * xyz).sum(), (rows[2] * xyz).sum())
    }

    static func largest(_ difference: SIMD3<Double>) -> Double {
        max(abs(difference.x), abs(difference.y), abs(difference.z))
    }

    static let grid: [SIMD3<Double>] = {
        let levels = [0.0, 0.05, 0.18, 0.4, 0.75, 1]
        return levels.flatMap { r in levels.flatMap { g in levels.map { b in SIMD3(r, g, b) } } }
    }()

    /// The largest difference over `grid` between `rgb` and the profile's transform at the XYZ
    /// that `curve` and the matrices give for it.
    static func roundTripError(_ profile: ICCTestProfile, curve: (Double) -> Double) throws -> Double {
        let transform = try read(profile).transform
        return grid.map { rgb in largest(transform.apply(forward(rgb, profile: profile, curve: curve)) - rgb) }.max() ?? 0
    }

    // MARK: Reading

    @Test func aGammaIsItsInverseExponentAfterTheTwoMatrices() throws {
        let transform = try Self.read(ICCTestProfile()).transform
        #expect(transform.operations.count == 3)
        #expect(transform.operations[0] is MatrixOp && transform.operations[1] is MatrixOp)
        let exponent = try #require(transform.operations[2] as? ExponentOp)
        #expect(exponent.style == .basicMirrorRev)
        #expect(exponent.exponent == SIMD3(repeating: 563.0 / 256))
        // Exact but for Float64 rounding, which the power 1/2.2 lifts to about 1e-7 where a channel
        // should come out 0 (1e-16^0.45).
        let error = try Self.roundTripError(ICCTestProfile()) { pow($0, 563.0 / 256) }
        #expect(error < 1e-6, "observed \(error)")
    }

    @Test func aGammaIsMirroredForNegativeValuesAndNotClamped() throws {
        let transform = try Self.read(ICCTestProfile()).transform
        let gamma = 563.0 / 256
        for rgb in [SIMD3(-0.5, 0.25, 1.5), SIMD3(2, -1, 0)] {
            let xyz = Self.forward(rgb, profile: ICCTestProfile()) { $0 < 0 ? -pow(-$0, gamma) : pow($0, gamma) }
            #expect(Self.largest(transform.apply(xyz) - rgb) < 1e-6, "\(rgb)")
        }
    }

    @Test func aTabulatedCurveIsInverted() throws {
        let profile = Self.profile(Self.squares)
        let transform = try Self.read(profile).transform
        var largest = 0.0
        for rgb in Self.grid where rgb.min() > 0 {
            largest = max(largest, Self.largest(transform.apply(Self.forward(rgb, profile: profile) { $0 * $0 }) - rgb))
        }
        #expect(largest < 2e-4, "observed \(largest)")
        // Entries 0, 1 and 2 all round to code 0: black maps to the end of that flat start, as in
        // OpenColorIO.
        #expect(Self.largest(transform.apply(.zero) - SIMD3(repeating: 2.0 / 1023)) < 1e-6)
        let table = try #require(transform.operations.last as? LUT1DOp)
        #expect(table.description.contains("65536"), "\(table.description)")
    }

    @Test(arguments: 0..<5)
    func eachParametricTypeIsInverted(function: Int) throws {
        let profile = Self.profile(Self.parametric[function])
        let srgb = { (x: Double) in x >= 0.04045 ? pow((x + 0.055) / 1.055, 2.4) : x / 12.92 }
        let error = try Self.roundTripError(profile, curve: function == 0 ? { pow($0, 2.2) }
            : function < 3 ? { pow(max($0 + 0.055, 0) / 1.055, 2.4) } : srgb)
        #expect(error < 1e-4, "type \(function): observed \(error)")
        let last = try Self.read(profile).transform.operations.last
        #expect(function == 0 ? last is ExponentOp : last is LUT1DOp)
    }

    @Test func theReaderTakesDisplayProfilesByExtensionAndSignature() throws {
        let folder = try TemporaryDirectory()
        for name in ["monitor.icc", "monitor.icm", "monitor.pf", "monitor.bin.icc"] {
            let path = folder.file(name)
            try Data(ICCTestProfile().bytes).write(to: URL(fileURLWithPath: path))
            let look = try LUTReader.read(path: path)
            #expect(look.format.name == "icc")
            #expect(look.title == "colorcube test display")
            #expect(look.transform.operations.count == 3)
            #expect(look.format.describe(look) == "ICC matrix/TRC profile \"colorcube test display\", read as "
                + "OpenColorIO reads it: D65 XYZ to display code values")
        }
    }

    @Test func littleCMSsRGBProfileTakesD65WhiteToWhite() throws {
        let transform = try ICCDisplayProfile(bytes: ICCProfiles.sRGB, path: "srgb.icc").transform
        let white = transform.apply(SIMD3(0.95047, 1, 1.08883))
        #expect(Self.largest(white - SIMD3(repeating: 1)) < 2e-3, "observed \(white)")
    }

    @Test func deviceLinksStillReadAsOneCube() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("link.icc")
        let cube = try ColorCube(size: 5) { SIMD3($0.z, $0.x, $0.y) }
        try DeviceLinkFormat.write(cube, title: "rotation", to: path)
        let look = try LUTReader.read(path: path)
        #expect(look.plainTable?.size == 5)
        #expect(look.format.describe(look) == "ICC device link (RGB to RGB)")
    }

    @Test func aGammaAfterTheMatricesRunsAsStepsNotTabulated() throws {
        let plan = try ChainPlan(Self.read(ICCTestProfile()).transform)
        #expect(plan.runsAsSteps)
        #expect(plan.reason?.contains("too steep for a table") == true)
    }

    // MARK: Refusals

    static let refusals: [(profile: ICCTestProfile, reason: String)] = {
        var cases: [(ICCTestProfile, String)] = []
        func add(_ reason: String, _ change: (inout ICCTestProfile) -> Void) {
            var profile = ICCTestProfile()
            change(&profile)
            cases.append((profile, reason))
        }
        func tone(_ reason: String, _ curves: [ICCTestProfile.Curve]) {
            add(reason) { $0.curves = curves }
        }
        func curve(_ parameters: String, _ rule: String, _ curve: ICCTestProfile.Curve) {
            tone("the red tone curve (parametric type \(parameters)) \(rule); OpenColorIO refuses it too", [curve, curve, curve])
        }
        tone("its three tone curves are not of one type (all curveType or all parametricCurveType)",
             [.gamma(563), .parametric(0, [2.2]), .gamma(563)])
        tone("its three tone curves are not of one length (4, 4, 3 entries)", [.table([0, 1, 2, 3]), .table([0, 1, 2, 3]), .table([0, 1, 3])])
        tone("its tone curves have no entries", [.table([]), .table([]), .table([])])
        tone("its three tone curves are not of one parametric function type (3, 3, 4)",
             [parametric[3], parametric[3], parametric[4]])
        curve("5, parameters 1.0 2.0", "has an unknown function type (ICC defines 0 to 4)", .parametric(5, [1, 2]))
        curve("3, parameters 2.0 1.0 0.0 0.5", "has 4 parameters where its type has 5", .parametric(3, [2, 1, 0, 0.5]))
        curve("1, parameters 0.0 1.0 0.0", "has a power g that is not above 0, so it falls", .parametric(1, [0, 1, 0]))
        curve("1, parameters 2.0 -1.0 0.0", "has a slope a that is not above 0, so it falls", .parametric(1, [2, -1, 0]))
        curve("3, parameters 2.0 1.0 0.0 -0.5 0.25", "has a straight segment c that falls", .parametric(3, [2, 1, 0, -0.5, 0.25]))
        curve("3, parameters 2.0 1.0 0.0 1.0 0.5", "jumps down where the straight segment meets the power law (at d)",
              .parametric(3, [2, 1, 0, 1, 0.5]))
        curve("4, parameters 2.0 1.0 -0.75 0.0 0.25 0.0 0.0", "raises a negative number to the power g at d",
              .parametric(4, [2, 1, -0.75, 0, 0.25, 0, 0]))
        add("the gXYZ tag is not one XYZ value") { $0.leftOut = ["gXYZ"]; $0.extraTags = [("gXYZ", ICCTestProfile.encode(.gamma(1)))] }
        add("its colorant matrix (rXYZ, gXYZ, bXYZ as columns) is singular, so it cannot be inverted") {
            $0.colorants = [SIMD3(0.4, 0.2, 0), SIMD3(0.4, 0.2, 0), SIMD3(0.1, 0.1, 0.7)]
        }
        add("its tone curves: invalid exponent: exponent 0 is outside 0.01...100 for the basicMirrorRev style") {
            $0.curves = [.gamma(563), .gamma(0), .gamma(563)]
        }
        add("not an ICC profile: the signature 'acsp' is not at byte 36") { $0.signature = "ascp" }
        add("unknown profile class 'disp'") { $0.deviceClass = "disp" }
        add("unknown rendering intent 4 (ICC defines 0 to 3)") { $0.renderingIntent = 4 }
        add("the profile has 101 tags; colorcube reads profiles of at most 100") {
            $0.extraTags = Array(repeating: ("wtpt", ICCTestProfile.text("XYZ ") + [UInt8](repeating: 0, count: 16)), count: 94)
        }
        return cases
    }()

    @Test func brokenProfilesAreRefusedWithTheRuleTheyBreak() throws {
        for (profile, reason) in Self.refusals {
            #expect(throws: LUTFileError.undecodable(path: "display.icc", reason: reason)) {
                try Self.read(profile)
            }
        }
    }

    @Test func aShortTagTableIsRefused() throws {
        let bytes = Array(ICCTestProfile().bytes.prefix(140))
        #expect(throws: LUTFileError.undecodable(path: "short.icc", reason: "the tag table of 7 entries runs past the end of the file (140 bytes)")) {
            try ICCDisplayProfile(bytes: bytes, path: "short.icc")
        }
    }

    @Test func aProfileWithoutMatrixAndCurvesSaysWhatItIs() throws {
        var printer = ICCTestProfile()
        printer.deviceClass = "prtr"
        printer.colorSpace = "CMYK"
        printer.leftOut = ["rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"]
        printer.extraTags = [("A2B0", ICCTestProfile.text("mft2") + [UInt8](repeating: 0, count: 48))]
        #expect(throws: LUTFileError.unsupported(path: "press.icc", reason: "this is an ICC output (printer) profile for CMYK data, "
            + "built on colour tables (AToB/BToA tags), without RGB colorant and tone-curve tags; colorcube reads RGB-to-RGB "
            + "device links and RGB matrix/TRC (display) profiles")) {
            try Self.read(printer, path: "press.icc")
        }
        var grey = ICCTestProfile()
        grey.colorSpace = "GRAY"
        grey.leftOut = ["rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"]
        grey.extraTags = [("kTRC", ICCTestProfile.encode(.gamma(563)))]
        #expect(throws: LUTFileError.unsupported(path: "grey.icc", reason: "this is an ICC display profile for GRAY data "
            + "without RGB colorant and tone-curve tags; colorcube reads RGB-to-RGB device links and RGB matrix/TRC (display) profiles")) {
            try Self.read(grey, path: "grey.icc")
        }
    }

    /// Every prefix of a profile, and every 4-byte field of it set to 0xFFFFFFFF or 0, reads or is
    /// refused: nothing traps or allocates by what the file claims.
    @Test func hostileProfilesNeverTrap() throws {
        var profile = Self.profile(Self.squares)
        profile.extraTags = [("dscm", ICCTestProfile.text("mluc") + ICCTestProfile.word(0) + ICCTestProfile.word(1)
            + ICCTestProfile.word(12) + Array("enUS".utf8) + ICCTestProfile.word(4) + ICCTestProfile.word(28) + [0, 65, 0, 66])]
        let bytes = profile.bytes
        for length in stride(from: 0, to: bytes.count, by: 7) {
            _ = try? ICCDisplayProfile(bytes: Array(bytes.prefix(length)), path: "cut.icc")
        }
        for offset in stride(from: 0, to: min(bytes.count, 400) - 3, by: 2) {
            for fill: UInt8 in [0xFF, 0] {
                var changed = bytes
                changed.replaceSubrange(offset..<(offset + 4), with: [UInt8](repeating: fill, count: 4))
                _ = try? ICCDisplayProfile(bytes: changed, path: "changed.icc")
            }
        }
        #expect(try ICCDisplayProfile(bytes: bytes, path: "whole.icc").title == "AB")
    }

    // MARK: Against OpenColorIO

    /// The profiles compared with OpenColorIO: each tone-curve kind, written as .icc, .icm and .pf.
    static var compared: [(name: String, profile: ICCTestProfile)] {
        var profiles: [(String, ICCTestProfile)] = [("gamma.icc", ICCTestProfile()), ("table.icm", profile(squares))]
        for (function, curve) in parametric.enumerated() {
            profiles.append(("para\(function).pf", profile(curve)))
        }
        var unequal = ICCTestProfile()
        unequal.curves = [.gamma(563), .gamma(460), .gamma(256)]
        profiles.append(("unequal.icc", unequal))
        return profiles
    }

    static let inputs: [SIMD3<Double>] = grid + [SIMD3(-0.1, 0.5, 1.2), SIMD3(0.9505, 1, 1.089), SIMD3(0.002, 0.001, 0.003)]

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOGivesTheSameValues() throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        for (name, profile) in Self.compared {
            let path = folder.file(name)
            try Data(profile.bytes).write(to: URL(fileURLWithPath: path))
            let ours = try LUTReader.read(path: path).transform
            guard case .outputs(let theirs) = try OCIOReference.verdict(lut: path, inputs: Self.inputs, python: python) else {
                Issue.record("OpenColorIO refuses \(name)")
                continue
            }
            var largest = 0.0
            for (input, reference) in zip(Self.inputs, theirs) {
                largest = max(largest, Self.largest(ours.apply(input) - reference))
            }
            #expect(largest < 1e-4, "\(name): largest difference \(largest)")
        }
    }

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIORefusesTheSameProfiles() throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        for (index, refusal) in Self.refusals.enumerated() {
            let path = folder.file("refused\(index).icc")
            try Data(refusal.profile.bytes).write(to: URL(fileURLWithPath: path))
            #expect(try OCIOReference.verdict(lut: path, inputs: Self.inputs, python: python).isRefused,
                    "OpenColorIO reads the profile we refuse as: \(refusal.reason)")
        }
    }
}
