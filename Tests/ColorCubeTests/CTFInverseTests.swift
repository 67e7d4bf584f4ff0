import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// CTF's InverseLUT1D, InverseLUT3D and Reference, read as OpenColorIO 2.6 applies them: values
/// worked out by hand from OpenColorIO's rules (flat stretches, reversals, clamping), files that
/// refer to files, and the same files compared with PyOpenColorIO when it is installed.
@Suite struct CTFInverseTests {
    static func processList(_ body: String, version: String = "1.7") -> String {
        CTFFormatTests.processList(body, root: "version=\"\(version)\"")
    }

    static func inverse1D(_ values: String, dim: String, depths: String = "inBitDepth=\"32f\" outBitDepth=\"32f\"",
                          attributes: String = "") -> String {
        "<InverseLUT1D \(depths)\(attributes)><Array dim=\"\(dim)\">\(values)</Array></InverseLUT1D>"
    }

    /// Tables whose inverses OpenColorIO's rules pin down, with inputs and expected outputs
    /// (every input a half-float value, so the baked table holds the exact inverse there).
    static let tables: [(name: String, text: String, expected: [(Double, Double)])] = [
        // A flat start maps its value to the end nearest the middle; beyond the ends, clamped.
        ("flat-start.ctf", processList(inverse1D("0 0 0.5 1", dim: "4 1")),
         [(0, 1.0 / 3), (0.25, 0.5), (1, 1), (-1, 1.0 / 3), (4, 1)]),
        // A reversal is flattened (0.375 becomes 0.625); a flat stretch inside maps to its start.
        ("reversal.ctf", processList(inverse1D("0 0.625 0.375 1", dim: "4 1")),
         [(0.5, 0.8 / 3), (0.625, 1.0 / 3), (0.8125, 5.0 / 6)]),
        // A falling table inverts backwards.
        ("falling.ctf", processList(inverse1D("1 0.5 0", dim: "3 1")),
         [(0.25, 0.75), (0.5, 0.5), (2, 0), (-1, 1)]),
        // Entries in 8-bit codes (the input depth): a table of 256 codes, exact at the codes.
        ("codes.ctf", processList(inverse1D("0 51 255", dim: "3 1", depths: "inBitDepth=\"8i\" outBitDepth=\"32f\"")),
         [(0.2, 0.5), (0.6, 0.75), (0, 0)]),
        // A constant table: every value maps to input 0.
        ("constant.ctf", processList(inverse1D("0.4 0.4 0.4", dim: "3 1")), [(0.4, 0), (0.9, 0)]),
    ]

    /// Inverse tables for OpenColorIO to compare: three channels, a table reaching beyond 1
    /// (baked over half floats), 10-bit codes, a half-domain table, a rise and fall, an inverse
    /// next to the LUT1D it undoes (which OpenColorIO replaces with a clamp), and files built as
    /// two of OpenColorIO's own test files are.
    static var openColorIOTables: [(name: String, text: String)] {
        let halfDomain = (0..<65536).map { bits -> String in
            // A rising curve over the half floats: 0 at -0 and +0, odd in sign, finite patterns only.
            let value = HalfBits.value(UInt16(bits))
            return value.isFinite ? String(value / (1 + abs(value))) : "0"
        }.joined(separator: " ")
        let forward = "<LUT1D inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"4 1\">0 0.2 0.7 1</Array></LUT1D>"
        return tables.map { ($0.name, $0.text) } + [
            ("channels.ctf", processList(inverse1D("0 0 1 0.1 0.2 0.8 0.5 0.3 0.4 1 1 0", dim: "4 3"))),
            ("extended.ctf", processList(inverse1D("-0.2 0.3 0.9 1.6", dim: "4 1"))),
            ("ten-bit.ctf", processList(inverse1D("0 300 700 1023", dim: "4 1", depths: "inBitDepth=\"10i\" outBitDepth=\"32f\""))),
            ("half-domain.ctf", processList(inverse1D(halfDomain, dim: "65536 1", attributes: " halfDomain=\"true\""))),
            ("rise-fall.ctf", processList(inverse1D("0 0.8 0.3 0.5 1 0.9", dim: "6 1"))),
            ("pair.ctf", processList(inverse1D("0 0.2 0.7 1", dim: "4 1") + forward)),
            ("after-lut1d_inv.ctf", processList(CTFFormatTests.matrix333 + "<InverseLUT1D inBitDepth=\"32f\" outBitDepth=\"8i\">"
                + "<Array dim=\"17 3\">\(gammaTable.map { "\($0) \($0) \($0)" }.joined(separator: " "))</Array></InverseLUT1D>", version: "1.3")),
            ("after-lut_inv_pairs.ctf", processList(inversePair, version: "1.6")),
        ]
    }

    /// The 17-entry 1/2.2 gamma table of OpenColorIO's lut1d_inv.ctf and lut_inv_pairs.ctf.
    static let gammaTable: [String] = (0...16).map { String(format: "%.5f", pow(Double($0) / 16, 1 / 2.2)) }

    /// After OpenColorIO's lut_inv_pairs.ctf: each inverse next to the table it undoes (blue's
    /// second entry 0.2), which its optimiser replaces with clamps.
    static var inversePair: String {
        let rows = gammaTable.enumerated().map { "\($1) \($1) \($0 == 1 ? "0.2" : $1)" }.joined(separator: " ")
        let lattice = "<Array dim=\"2 2 2 3\">0 0 0 0 0 .95 0 .8 0 0 .7 .9 1 0 0 1 0 .8 1 1 0 1 1 1</Array>"
        return "<InverseLUT1D inBitDepth=\"16f\" outBitDepth=\"32f\"><Array dim=\"17 3\">\(rows)</Array></InverseLUT1D>"
            + "<LUT1D inBitDepth=\"32f\" outBitDepth=\"16f\"><Array dim=\"17 3\">\(rows)</Array></LUT1D>"
            + "<InverseLUT3D interpolation=\"tetrahedral\" inBitDepth=\"16f\" outBitDepth=\"32f\">\(lattice)</InverseLUT3D>"
            + "<LUT3D interpolation=\"tetrahedral\" inBitDepth=\"32f\" outBitDepth=\"16f\">\(lattice)</LUT3D>"
    }

    static let inputs: [SIMD3<Double>] = CTFFormatTests.inputs + [
        SIMD3(-0.1, 1.2, 0.5), SIMD3(2, -1, 0.3), SIMD3(0.4, 0.55, 0.7), SIMD3(0.01, 0.99, 0.62),
    ]

    static func read(_ text: String, _ name: String = "look.ctf") throws -> Look {
        try CTFFormatTests.read(text, name)
    }

    /// The largest difference between two colours' channels.
    static func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        return max(abs(d.x), abs(d.y), abs(d.z))
    }

    // MARK: InverseLUT1D

    @Test func inverseTablesFollowOpenColorIOsRules() throws {
        for (name, text, expected) in Self.tables {
            let transform = try Self.read(text).transform
            #expect(transform.operations.count == 1 && transform.operations[0] is LUT1DOp, "\(name)")
            for (value, input) in expected {
                let found = transform.apply(SIMD3(repeating: value)).x
                #expect(abs(found - input) <= 1e-6, "\(name) at \(value): expected \(input), found \(found)")
            }
        }
    }

    /// An inverse next to the table it undoes leaves a clamp to the table's range of values.
    @Test func anInverseNextToItsTableIsAClamp() throws {
        let look = try Self.read(Self.openColorIOTables.first { $0.name == "pair.ctf" }?.text ?? "")
        #expect(look.transform.operations.count == 1 && look.transform.operations[0] is RangeOp)
        #expect(look.transform.apply(SIMD3(-0.5, 0.3, 1.5)) == SIMD3(0, 0.3, 1))
    }

    /// `hueAdjust="dw3"` keeps hue around the inverse table; a CLF has no InverseLUT1D.
    @Test func hueAdjustIsKeptAndCLFFilesAreRefused() throws {
        let hue = Self.processList(Self.inverse1D("0 1", dim: "2 1", attributes: " hueAdjust=\"dw3\""))
        #expect(try Self.read(hue).transform.operations.first is HueKeepingOp)
        let clf = CTFFormatTests.processList(Self.inverse1D("0 1", dim: "2 1"), root: "compCLFversion=\"3.0\"")
        let refused = #expect(throws: LUTFileError.self) { try Self.read(clf) }
        #expect(refused?.description.contains("<InverseLUT1D>") == true)
    }

    // MARK: InverseLUT3D

    /// A smooth lattice (a power and a mild mix) with `n` nodes per axis, blue fastest.
    static func smoothLattice(_ n: Int) -> String {
        var rows: [String] = []
        for r in 0..<n {
            for g in 0..<n {
                for b in 0..<n {
                    let v = SIMD3(Double(r), Double(g), Double(b)) / Double(n - 1)
                    let p = SIMD3(pow(v.x, 1 / 1.8), pow(v.y, 1 / 1.8), pow(v.z, 1 / 1.8))
                    let out = SIMD3(0.85 * p.x + 0.1 * p.y + 0.05 * p.z, 0.05 * p.x + 0.9 * p.y + 0.05 * p.z,
                                    0.02 * p.x + 0.08 * p.y + 0.9 * p.z)
                    rows.append("\(out.x) \(out.y) \(out.z)")
                }
            }
        }
        return "<Array dim=\"\(n) \(n) \(n) 3\">\(rows.joined(separator: " "))</Array>"
    }

    static let inverse3D = processList("<InverseLUT3D inBitDepth=\"32f\" outBitDepth=\"32f\">\(smoothLattice(9))</InverseLUT3D>")
    static let forward3D = processList("<LUT3D interpolation=\"tetrahedral\" inBitDepth=\"32f\" outBitDepth=\"32f\">"
        + "\(smoothLattice(9))</LUT3D>")

    /// The inverse is a 48-cube over 0...1 that the forward lattice takes back to where it started.
    @Test func anInverseLattice() throws {
        let inverse = try Self.read(Self.inverse3D).transform
        let lattice = try #require(inverse.operations.first as? LUT3DOp)
        #expect(lattice.size == TransformInverter.openColorIOInverseSize && lattice.hasUnitDomain && lattice.interpolation == .trilinear)
        let forward = try Self.read(Self.forward3D).transform
        for input in [SIMD3(0.3, 0.5, 0.7), SIMD3(0.6, 0.4, 0.2), SIMD3(0.5, 0.5, 0.5)] {
            let back = forward.apply(inverse.apply(input))
            #expect(Self.distance(back, input) <= 2e-3, "\(input) comes back as \(back)")
        }
    }

    // MARK: Reference

    /// A folder of files that refer to each other: a.ctf refers to sub/b.clf (a matrix), c.ctf to
    /// a.ctf and, inverted, to sub/b.clf again; e.ctf to sub/d.ctf, which refers to "sub/b.clf":
    /// relative paths start from the folder of the first file read, as OpenColorIO starts them
    /// from its search path, not from the folder of the file that holds the reference.
    static func referenceFolder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("sub"), withIntermediateDirectories: true)
        let matrix = "<Matrix inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"3 3\">2 0 0 0 1 0 0.5 0 1</Array></Matrix>"
        let files = [
            ("sub/b.clf", CTFFormatTests.processList(matrix, root: "compCLFversion=\"3.0\"")),
            ("a.ctf", processList("<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" path=\"sub/b.clf\" basePath=\"Shared\"/>")),
            ("c.ctf", processList("<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" path=\"a.ctf\"/>"
                + "<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" path=\"./sub/../sub/b.clf\" inverted=\"true\"/>")),
            ("sub/d.ctf", processList("<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" path=\"sub/b.clf\"/>")),
            ("e.ctf", processList("<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" path=\"sub/d.ctf\"/>")),
            ("curve.clf", CTFFormatTests.processList("<LUT1D inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"5 1\">0 0 0.3 0.8 1</Array></LUT1D>",
                                                     root: "compCLFversion=\"3.0\"")),
        ]
        for (name, text) in files { try text.write(toFile: folder.file(name), atomically: true, encoding: .utf8) }
        return folder
    }

    @Test func referencesReadTheFilesTheyName() throws {
        let folder = try Self.referenceFolder()
        let a = try LUTReader.read(path: folder.file("a.ctf")).transform
        #expect(a.apply(SIMD3(0.1, 0.2, 0.3)) == SIMD3(0.2, 0.2, 0.35))
        // A file and its inverse: the identity.
        let c = try LUTReader.read(path: folder.file("c.ctf")).transform
        #expect(Self.distance(c.apply(SIMD3(0.1, 0.2, 0.3)), SIMD3(0.1, 0.2, 0.3)) <= 1e-12)
        #expect(try LUTReader.read(path: folder.file("e.ctf")).transform.operations.count == 1)
        // Read first, sub/d.ctf starts from its own folder, where sub/sub/b.clf is not.
        let error = #expect(throws: LUTFileError.self) { try LUTReader.read(path: folder.file("sub/d.ctf")) }
        #expect(error?.description.contains("sub/sub/b.clf") == true)
    }

    @Test func cyclesMissingFilesAndAliasesAreRefused() throws {
        let folder = try TemporaryDirectory()
        let files: [(String, String, String)] = [
            ("self.ctf", Self.processList("<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" path=\"./self.ctf\"/>"), "cycle"),
            ("one.ctf", Self.processList("<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" path=\"two.ctf\"/>"), "cycle of references"),
            ("two.ctf", Self.processList("<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" path=\"one.ctf\"/>"), "cycle of references"),
            ("missing.ctf", Self.processList("<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" path=\"none/x.ctf\"/>"), "does not exist"),
            ("alias.ctf", Self.processList("<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" alias=\"display\"/>"), "alias"),
            ("no-path.ctf", Self.processList("<Reference inBitDepth=\"32f\" outBitDepth=\"32f\"/>"), "path is missing"),
        ]
        for (name, text, _) in files { try text.write(toFile: folder.file(name), atomically: true, encoding: .utf8) }
        for (name, _, mentions) in files {
            let error = #expect(throws: LUTFileError.self, "\(name)") { try LUTReader.read(path: folder.file(name)) }
            #expect(error?.description.contains(mentions) == true, "\(name): \(String(describing: error))")
        }
    }

    // MARK: Against OpenColorIO

    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOAgreesOnInverseTables() throws {
        try CLFParityTests.expectOpenColorIOAgrees(Self.openColorIOTables, at: Self.inputs)
    }

    /// References by absolute path, as OpenColorIO resolves a relative one from its working folder:
    /// a matrix and its inverse, and a 1D table with a flat start inverted by OpenColorIO's rules.
    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOAgreesOnReferences() throws {
        let folder = try Self.referenceFolder()
        let reference = { (path: String, inverted: Bool) in
            "<Reference inBitDepth=\"32f\" outBitDepth=\"32f\" path=\"\(path)\" inverted=\"\(inverted)\"/>"
        }
        try CLFParityTests.expectOpenColorIOAgrees([
            ("absolute.ctf", Self.processList(reference(folder.file("sub/b.clf"), false) + reference(folder.file("sub/b.clf"), true))),
            ("inverted-curve.ctf", Self.processList(reference(folder.file("curve.clf"), true))),
        ], at: Self.inputs)
    }

    /// An inverse lattice against OpenColorIO's at colours the forward lattice produces: within
    /// one 16-bit code (OpenColorIO bakes the same 48-cube from the same exact inverse).
    @Test(.enabled(if: SpaceOracle.python != nil, "PyOpenColorIO 2.6 is not installed (see Tools/install-deps)"))
    func openColorIOAgreesOnInverseLattices() throws {
        let python = try #require(SpaceOracle.python)
        let folder = try TemporaryDirectory()
        let path = try OCIOReference.write(Self.inverse3D, named: "inverse.ctf", in: folder)
        let forward = try Self.read(Self.forward3D).transform
        // Outputs of the forward lattice: colours its inverse reaches exactly.
        let inputs = (0..<64).map { (i: Int) -> SIMD3<Double> in
            let node = SIMD3(Double(i % 4), Double(i / 4 % 4), Double(i / 16))
            return forward.apply(node * 0.3 + 0.05)
        }
        guard case .outputs(let theirs) = try OCIOReference.verdict(lut: path, inputs: inputs, python: python) else {
            Issue.record("OpenColorIO refuses the inverse lattice")
            return
        }
        let ours = try LUTReader.read(path: path).transform
        for (input, reference) in zip(inputs, theirs) {
            let value = ours.apply(input)
            #expect(Self.distance(value, reference) <= 16.0 / 65535, "at \(input): ours \(value), OpenColorIO \(reference)")
        }
    }
}
