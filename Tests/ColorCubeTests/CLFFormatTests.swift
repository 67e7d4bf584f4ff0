import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeEngine
import ColorCubeTransform
import Foundation
import Testing

/// CLF files written here (not copied from anywhere), read exactly, against OpenColorIO, written
/// back losslessly, and refused with the element and line when broken.
@Suite struct CLFFormatTests {
    // MARK: Files

    static func processList(_ body: String, version: String = "compCLFversion=\"3.0\"") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ProcessList id=\"test\" \(version)>\n\(body)</ProcessList>\n"
    }

    /// A 17-entry 1D LUT to 10-bit codes: a different curve per channel.
    static let lut1D10i: String = {
        var rows = ""
        for index in 0..<17 {
            let x = Double(index) / 16
            rows += "\(Int((1023 * x * x).rounded())) \(Int((1023 * x.squareRoot()).rounded())) \(Int((1023 * (0.2 + 0.6 * x)).rounded()))\n"
        }
        return processList("""
            <Description>three curves</Description>
            <LUT1D inBitDepth="32f" outBitDepth="10i"><Array dim="17 3">
            \(rows)</Array></LUT1D>

            """)
    }()

    /// A 9-cube to 8-bit codes that turns hues, blue fastest; `interpolation` as given.
    static func lut3D(interpolation: String?) -> String {
        var rows = ""
        for r in 0..<9 {
            for g in 0..<9 {
                for b in 0..<9 {
                    let (x, y, z) = (Double(r) / 8, Double(g) / 8, Double(b) / 8)
                    let out = [0.7 * x + 0.3 * y * z, 0.2 * x + 0.8 * y * y, 0.5 * z + 0.5 * x * y]
                    rows += out.map { String(Int(($0 * 255).rounded())) }.joined(separator: " ") + "\n"
                }
            }
        }
        let attribute = interpolation.map { " interpolation=\"\($0)\"" } ?? ""
        return processList("<LUT3D inBitDepth=\"32f\" outBitDepth=\"8i\"\(attribute)><Array dim=\"9 9 9 3\">\n\(rows)</Array></LUT3D>\n")
    }

    /// Matrix (10i to 12i), range (12i to 32f, both ends), exponent, log and CDL in a row.
    static let chain = processList("""
        <Matrix inBitDepth="10i" outBitDepth="12i"><Array dim="3 4">
        0.9 0.1 0 40
        0.05 0.9 0.05 0
        0 0.2 0.8 -20
        </Array></Matrix>
        <Range inBitDepth="12i" outBitDepth="32f"><minInValue>0</minInValue><maxInValue>4095</maxInValue>
        <minOutValue>0.02</minOutValue><maxOutValue>0.98</maxOutValue></Range>
        <Exponent inBitDepth="32f" outBitDepth="32f" style="basicFwd"><ExponentParams exponent="1.8"/></Exponent>
        <Log inBitDepth="32f" outBitDepth="32f" style="linToLog">
        <LogParams base="10" logSideSlope="0.25" logSideOffset="0.7" linSideSlope="1.1" linSideOffset="0.02"/></Log>
        <ASC_CDL inBitDepth="32f" outBitDepth="32f" style="Fwd"><SOPNode><Slope>1.1 1 0.9</Slope>
        <Offset>-0.02 0.01 0.03</Offset><Power>1.2 1 0.8</Power></SOPNode>
        <SatNode><Saturation>1.3</Saturation></SatNode></ASC_CDL>

        """)

    /// Camera log (per channel), monCurve, mirror and pass-through exponents, reverse CDLs.
    static let curves = processList("""
        <Log inBitDepth="32f" outBitDepth="32f" style="cameraLinToLog">
        <LogParams channel="R" base="2" logSideSlope="0.09" logSideOffset="0.6" linSideSlope="5" linSideOffset="0.05" linSideBreak="0.01"/>
        <LogParams channel="G" base="2" logSideSlope="0.08" logSideOffset="0.55" linSideSlope="4" linSideOffset="0.06" linSideBreak="0.02"/>
        <LogParams channel="B" base="2" logSideSlope="0.07" logSideOffset="0.5" linSideSlope="6" linSideOffset="0.04" linSideBreak="0.015"/>
        </Log>
        <Log inBitDepth="32f" outBitDepth="32f" style="cameraLogToLin">
        <LogParams base="2" logSideSlope="0.08" logSideOffset="0.58" linSideSlope="5" linSideOffset="0.05" linSideBreak="0.012" linearSlope="4"/>
        </Log>
        <Exponent inBitDepth="32f" outBitDepth="32f" style="monCurveRev">
        <ExponentParams exponent="2.4" offset="0.055"/></Exponent>
        <Exponent inBitDepth="32f" outBitDepth="32f" style="monCurveMirrorFwd">
        <ExponentParams channel="R" exponent="2.2" offset="0.099"/>
        <ExponentParams channel="G" exponent="2.6" offset="0.01"/>
        <ExponentParams channel="B" exponent="1.5" offset="0.2"/></Exponent>
        <Exponent inBitDepth="32f" outBitDepth="32f" style="basicMirrorRev"><ExponentParams exponent="1.3"/></Exponent>
        <Exponent inBitDepth="32f" outBitDepth="32f" style="basicPassThruFwd"><ExponentParams exponent="0.9"/></Exponent>
        <ASC_CDL inBitDepth="32f" outBitDepth="32f" style="RevNoClamp"><SOPNode><Slope>1.2 1 0.8</Slope>
        <Offset>0.01 0 -0.01</Offset><Power>1.1 1 0.9</Power></SOPNode><SatNode><Saturation>0.8</Saturation></SatNode></ASC_CDL>
        <ASC_CDL inBitDepth="32f" outBitDepth="32f" style="Rev"><SOPNode><Slope>0.9 1 1.1</Slope>
        <Offset>0 0.02 0</Offset><Power>1 0.9 1</Power></SOPNode></ASC_CDL>

        """)

    /// Logs and antilogs of both bases, and the parametric logToLin.
    static let logs = processList("""
        <Log inBitDepth="32f" outBitDepth="32f" style="log2"/>
        <Log inBitDepth="32f" outBitDepth="32f" style="antiLog2"/>
        <Log inBitDepth="32f" outBitDepth="32f" style="log10"/>
        <Range inBitDepth="32f" outBitDepth="32f"><minInValue>-3</minInValue><maxInValue>0</maxInValue>
        <minOutValue>0</minOutValue><maxOutValue>1</maxOutValue></Range>
        <Log inBitDepth="32f" outBitDepth="32f" style="antiLog10"/>
        <Log inBitDepth="32f" outBitDepth="32f" style="logToLin">
        <LogParams base="10" logSideSlope="0.5" logSideOffset="0.6" linSideSlope="1.5" linSideOffset="0.01"/></Log>
        <ASC_CDL inBitDepth="32f" outBitDepth="32f" style="FwdNoClamp"><SOPNode><Slope>1 1 1</Slope>
        <Offset>0 0 0</Offset><Power>1.1 1.2 0.9</Power></SOPNode></ASC_CDL>

        """)

    /// A half-domain 1D LUT with raw half outputs: out = 0.5 * in + 0.1 as halves.
    static let halfDomain: String = {
        var rows = ""
        rows.reserveCapacity(65536 * 7)
        for bits in 0...UInt16.max {
            let x = halfValue(bits)
            let y = x.isFinite ? 0.5 * x + 0.1 : 0
            rows += "\(halfBits(y))\n"
        }
        return processList("<LUT1D inBitDepth=\"16f\" outBitDepth=\"16f\" halfDomain=\"true\" rawHalfs=\"true\"><Array dim=\"65536 1\">\n\(rows)</Array></LUT1D>\n")
    }()

    /// A pre-SMPTE (CLF v2, `version`) file with an IndexMap before a 1D table, and a 1-sided range.
    static let legacy = processList("""
        <LUT1D inBitDepth="10i" outBitDepth="10i"><IndexMap dim="2">64@0 940@4</IndexMap>
        <Array dim="5 1">0 300 500 800 1023</Array></LUT1D>
        <Range inBitDepth="10i" outBitDepth="8i"><maxInValue>1023</maxInValue><maxOutValue>255</maxOutValue></Range>

        """, version: "version=\"1.2\"")

    static func halfValue(_ bits: UInt16) -> Double {
        let sign: Double = bits & 0x8000 != 0 ? -1 : 1
        let exponent = Int((bits >> 10) & 0x1F), fraction = Double(bits & 0x3FF)
        if exponent == 0 { return sign * fraction * 0x1p-24 }
        if exponent == 31 { return fraction == 0 ? sign * .infinity : .nan }
        return sign * (1 + fraction / 1024) * Foundation.pow(2, Double(exponent - 15))
    }

    /// The nearest half's bits (ties away from zero are fine here: the test compares values).
    static func halfBits(_ value: Double) -> UInt16 {
        var best: UInt16 = 0, bestDistance = Double.infinity
        // A binary search over the ordered positive halves, then the sign.
        var low: UInt16 = 0, high: UInt16 = 0x7BFF
        let magnitude = abs(value)
        while low < high {
            let middle = (low + high) / 2
            if halfValue(middle) < magnitude { low = middle + 1 } else { high = middle }
        }
        for candidate in [low, low > 0 ? low - 1 : 0] where abs(halfValue(candidate) - magnitude) < bestDistance {
            best = candidate
            bestDistance = abs(halfValue(candidate) - magnitude)
        }
        return value < 0 ? best | 0x8000 : best
    }

    static func write(_ text: String, _ name: String, in folder: TemporaryDirectory) throws -> String {
        let path = folder.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func read(_ text: String, name: String = "look.clf") throws -> Look {
        let folder = try TemporaryDirectory()
        return try LUTReader.read(path: try write(text, name, in: folder))
    }

    // MARK: Exact values

    @Test func oneDTableScalesByItsOutputDepth() throws {
        let look = try Self.read(Self.lut1D10i)
        #expect(look.title == "three curves")
        #expect(look.format.name == "clf")
        let operation = try #require(look.transform.operations.first as? LUT1DOp)
        #expect(operation.curves[0].outputs.count == 17)
        #expect(operation.curves[0].outputs[16] == 1)
        #expect(operation.curves[0].outputs[8] == (1023 * 0.25).rounded() / 1023)
        #expect(operation.curves[2].outputs[0] == (1023 * 0.2).rounded() / 1023)
    }

    @Test func threeDTableIsReorderedFromBlueFastest() throws {
        let look = try Self.read(Self.lut3D(interpolation: "trilinear"))
        let lattice = try #require(look.transform.operations.first as? LUT3DOp)
        #expect(lattice.size == 9)
        #expect(lattice.interpolation == .trilinear)
        // Node (r, g, b) = (8, 0, 4): 0.7 * 1, 0.2 * 1, 0.5 * 0.5 in 8-bit codes.
        let entry = lattice.table.entry(at: 8 + 9 * (0 + 9 * 4))
        #expect(entry.x == Float(179) / 255)
        #expect(entry.y == Float(51) / 255)
        #expect(entry.z == Float(64) / 255)
        let defaulted = try #require(try Self.read(Self.lut3D(interpolation: nil)).transform.operations.first as? LUT3DOp)
        // The CLF default, as OpenColorIO 2.6 reads a file that states none.
        #expect(defaulted.interpolation == .trilinear)
    }

    /// The engine reads a lattice as its file states unless the caller names an interpolation.
    @Test func theEngineKeepsTheFilesInterpolationUnlessAsked() throws {
        let look = try Self.read(Self.lut3D(interpolation: "tetrahedral"))
        let lattice = try #require(look.transform.operations.first as? LUT3DOp)
        func graded(_ engine: LUTEngine) -> [Float] {
            var pixels: [Float] = [0.3, 0.7, 0.55, 0.9, 0.1, 0.45]
            pixels.withUnsafeMutableBufferPointer { engine.apply(floats: $0.baseAddress!, to: $0.baseAddress!, pixelCount: 2, layout: .rgb) }
            return pixels
        }
        func exact(_ interpolation: Interpolation) -> [Float] {
            var reading = lattice
            reading.interpolation = interpolation
            return [SIMD3<Double>(0.3, 0.7, 0.55), SIMD3(0.9, 0.1, 0.45)].flatMap { rgb in
                let out = reading.apply(rgb)
                return [Float(out.x), Float(out.y), Float(out.z)]
            }
        }
        let asFiled = graded(try LUTEngine(transform: look.transform))
        let trilinear = graded(try LUTEngine(transform: look.transform, interpolation: .trilinear))
        #expect(exact(.tetrahedral) != exact(.trilinear))
        for (index, value) in asFiled.enumerated() {
            #expect(abs(value - exact(.tetrahedral)[index]) < 1e-5)
            #expect(abs(trilinear[index] - exact(.trilinear)[index]) < 1e-5)
        }
    }

    @Test func matrixAndRangeFollowTheirBitDepths() throws {
        let look = try Self.read(Self.chain)
        #expect(look.transform.operations.count == 5)
        let matrix = try #require(look.transform.operations[0] as? MatrixOp)
        #expect(matrix.rows[0].x == 0.9 * (1023.0 / 4095))
        #expect(matrix.offset.x == 40.0 / 4095)
        let range = try #require(look.transform.operations[1] as? RangeOp)
        #expect(range.apply(SIMD3(repeating: 1)) == SIMD3(repeating: 0.98))
        #expect(range.apply(SIMD3(repeating: -1)) == SIMD3(repeating: 0.02))
        #expect(look.transform.operations[4] is CDLOp)
    }

    /// A version 1.2 file's IndexMap is checked and ignored, as OpenColorIO ignores it, with a note.
    @Test func legacyIndexMapIsCheckedAndIgnoredAsOpenColorIODoes() throws {
        let look = try Self.read(Self.legacy)
        #expect(look.transform.operations.count == 2)
        #expect(look.notes.count == 1 && look.notes[0].contains("IndexMap"))
        let at = { (code: Double) in look.transform.apply(SIMD3(repeating: code / 1023)).x }
        #expect(at(0) == 0)
        #expect(abs(at(511.5) - 500.0 / 1023) < 1e-12)  // halfway: entry 2
        #expect(at(2000) == 1)
        try Self.expectRefusal(Self.processList("<LUT1D inBitDepth=\"10i\" outBitDepth=\"10i\"><IndexMap dim=\"3\">0@0 1023@1 500@2</IndexMap>"
            + "<Array dim=\"3 1\">0 300 1023</Array></LUT1D>\n", version: "version=\"1.2\""), line: 3, mentions: "must increase")
    }

    @Test func halfDomainTableReadsEveryHalf() throws {
        let look = try Self.read(Self.halfDomain)
        let operation = try #require(look.transform.operations.first as? LUT1DOp)
        guard case .points(let points) = operation.curves[0].inputs else {
            Issue.record("a half-domain table has listed inputs")
            return
        }
        #expect(points.count == 63487)
        #expect(points.first == -65504 && points.last == 65504)
        for x in [-2.0, -0.25, 0, 0.001, 0.5, 1, 3.75, 1000] {
            let y = operation.apply(SIMD3(repeating: x)).x
            #expect(abs(y - (0.5 * x + 0.1)) <= abs(0.5 * x + 0.1) * 1e-3 + 1e-4, "input \(x)")
        }
    }

    // MARK: Against OpenColorIO

    static let ocioCases: [(name: String, text: String)] = [
        ("lut1d-10i", lut1D10i), ("lut3d-tetrahedral", lut3D(interpolation: "tetrahedral")),
        ("lut3d-trilinear", lut3D(interpolation: "trilinear")), ("chain", chain), ("curves", curves),
        ("logs", logs), ("legacy", legacy),
    ]

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"),
          arguments: ocioCases.indices, [false, true])
    func matchesOpenColorIO(caseIndex: Int, sixteenBits: Bool) throws {
        let folder = try TemporaryDirectory()
        let (name, text) = Self.ocioCases[caseIndex]
        let path = try Self.write(text, name + ".clf", in: folder)
        let look = try LUTReader.read(path: path)
        let comparison = try #require(try OCIOReference.compare(lut: path, with: look.transform, sixteenBits: sixteenBits, folder: folder),
                                      "OpenColorIO refused \(name)")
        if sixteenBits {
            #expect(comparison.largest <= 16, "\(name): \(comparison)")
        } else {
            #expect(comparison.largest <= 1 && comparison.exactShare >= 0.99, "\(name): \(comparison)")
        }
    }

    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"), arguments: [false, true])
    func halfDomainMatchesOpenColorIO(sixteenBits: Bool) throws {
        let folder = try TemporaryDirectory()
        let path = try Self.write(Self.halfDomain, "half.clf", in: folder)
        let look = try LUTReader.read(path: path)
        let comparison = try #require(try OCIOReference.compare(lut: path, with: look.transform, sixteenBits: sixteenBits, folder: folder))
        #expect(comparison.largest <= (sixteenBits ? 16 : 1) && (sixteenBits || comparison.exactShare >= 0.99), "\(comparison)")
    }

    // MARK: Writing

    @Test func writtenChainReadsBackTheSame() throws {
        let folder = try TemporaryDirectory()
        var operations: [any TransformOp] = []
        for text in [Self.chain, Self.curves, Self.lut1D10i, Self.lut3D(interpolation: nil), Self.legacy] {
            operations += try Self.read(text).transform.operations
        }
        operations.append(try RangeOp(scale: 0.5, offset: 0.25, lower: 0.3))
        operations.append(try LUT1DOp(curves: [try Curve(inputs: .uniform(-0.5...2), outputs: [0, 0.7, 1]),
                                                try Curve(inputs: .uniform(0...4), outputs: [0, 0.2, 0.9, 1]),
                                                try Curve(inputs: .uniform(0...1), outputs: [1, 0])]))
        let original = Transform(operations)
        let path = folder.file("out.clf")
        try LUTWriter.write(Look(transform: original, format: CLFFormat()), format: CLFFormat(), to: path, title: "a & b")
        let back = try LUTReader.read(path: path)
        #expect(back.title == "a & b")
        var largest = 0.0
        for r in stride(from: -0.1, through: 1.1, by: 0.1) {
            for g in stride(from: -0.1, through: 1.1, by: 0.15) {
                for b in stride(from: 0, through: 1, by: 0.2) {
                    let rgb = SIMD3(r, g, b)
                    let delta = back.transform.apply(rgb) - original.apply(rgb)
                    let difference = max(abs(delta.x), abs(delta.y), abs(delta.z))
                    largest = max(largest, difference)
                }
            }
        }
        #expect(largest <= 1e-12, "largest difference \(largest)")
    }

    @Test func listedInputsAreWrittenAsAHalfDomainTable() throws {
        let folder = try TemporaryDirectory()
        let curve = try Curve(inputs: .points([0, 0.1, 0.5, 1]), outputs: [0, 0.3, 0.6, 1])
        let original = Transform([try LUT1DOp(curves: [curve, curve, curve])])
        let path = folder.file("points.clf")
        try LUTWriter.write(Look(transform: original, format: CLFFormat()), format: CLFFormat(), to: path, title: "points")
        let back = try LUTReader.read(path: path)
        for x in [0.0, 0.05, 0.1, 0.3, 0.5, 0.77, 1] {
            let difference = abs(back.transform.apply(SIMD3(repeating: x)).x - original.apply(SIMD3(repeating: x)).x)
            #expect(difference < 1e-3, "input \(x)")
        }
    }

    // MARK: Refusals

    /// Reads `text` and expects a malformed-file error at `line` whose reason mentions `mentions`.
    static func expectRefusal(_ text: String, line: Int? = nil, mentions: String,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try TemporaryDirectory()
        let path = try write(text, "bad.clf", in: folder)
        let error = #expect(throws: LUTFileError.self, sourceLocation: sourceLocation) {
            try LUTReader.read(path: path)
        }
        guard case .malformed(let errorPath, let errorLine, let reason)? = error else {
            Issue.record("expected a malformed-file error, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(errorPath == path, sourceLocation: sourceLocation)
        if let line { #expect(errorLine == line, "\(reason)", sourceLocation: sourceLocation) }
        #expect(reason.description.contains(mentions), "\(reason)", sourceLocation: sourceLocation)
    }

    static let refusals: [(body: String, line: Int?, mentions: String)] = [
        ("<LUT1D inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"4 3\">0 0 0 1 1 1</Array></LUT1D>\n", 3, "expected 12 values in <Array> (its dimensions), found 6"),
        ("<LUT1D inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"2 1\">0 0.5 1</Array></LUT1D>\n", 3, "expected 2 values in <Array> (its dimensions), found 3"),
        ("<LUT1D inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"2 2\">0 0 1 1</Array></LUT1D>\n", 3, "dim \"2 2\""),
        ("<LUT3D inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"2 2 2 3\">nan" + String(repeating: " 0", count: 23)
            + "</Array></LUT3D>\n", 3, "not a finite number"),
        ("<Matrix inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"3 3\">1 0 0 0 inf 0 0 0 1</Array></Matrix>\n", 3, "not a finite number"),
        ("<LUT1D inBitDepth=\"32f\" outBitDepth=\"9i\"><Array dim=\"2 1\">0 1</Array></LUT1D>\n", 3, "outBitDepth \"9i\""),
        ("<LUT1D outBitDepth=\"32f\"><Array dim=\"2 1\">0 1</Array></LUT1D>\n", 3, "inBitDepth is missing"),
        ("<LUT3D inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"2 2 3 3\">0</Array></LUT3D>\n", 3, "<Array>: dim"),
        ("<LUT3D inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"100000 100000 100000 3\">0</Array></LUT3D>\n", 3, "dim"),
        ("<LUT3D inBitDepth=\"32f\" outBitDepth=\"32f\" interpolation=\"cubic\"><Array dim=\"2 2 2 3\">"
            + String(repeating: "0 ", count: 24) + "</Array></LUT3D>\n", 3, "interpolation"),
        ("<Matrix inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"4 3\">1 0 0 0 1 0 0 0 1 0 0 0</Array></Matrix>\n", 3, "dim"),
        ("<Matrix inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"3 3\">1 0 0 0 1 0 0 0</Array></Matrix>\n", 3, "found 8"),
        ("<Matrix inBitDepth=\"32f\" outBitDepth=\"10i\"><Array dim=\"3 3\">1 0 0 0 1 0 0 0 1</Array></Matrix>\n"
            + "<Matrix inBitDepth=\"32f\" outBitDepth=\"32f\"><Array dim=\"3 3\">1 0 0 0 1 0 0 0 1</Array></Matrix>\n", 4, "does not match"),
        ("<Range inBitDepth=\"32f\" outBitDepth=\"32f\"><minInValue>0</minInValue></Range>\n", 3, "pairs"),
        ("<Range inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"noClamp\"><minInValue>0</minInValue><minOutValue>0</minOutValue></Range>\n", 3, "noClamp"),
        ("<Range inBitDepth=\"32f\" outBitDepth=\"32f\"><minInValue>1</minInValue><maxInValue>1</maxInValue>"
            + "<minOutValue>0</minOutValue><maxOutValue>1</maxOutValue></Range>\n", 3, "both 1"),
        ("<Log inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"ln\"/>\n", 3, "style \"ln\""),
        ("<Log inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"cameraLinToLog\"><LogParams base=\"2\"/></Log>\n", 3, "linSideBreak"),
        ("<Log inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"linToLog\"><LogParams base=\"1\"/></Log>\n", 3, "base 1"),
        ("<Exponent inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"monCurveFwd\"><ExponentParams exponent=\"0.5\" offset=\"0.1\"/></Exponent>\n", 3, "exponent 0.5"),
        ("<Exponent inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"basicFwd\"><ExponentParams/></Exponent>\n", 3, "exponent (or gamma) is missing"),
        ("<ASC_CDL inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"Fwd\"><SOPNode><Slope>-1 1 1</Slope><Offset>0 0 0</Offset>"
            + "<Power>1 1 1</Power></SOPNode></ASC_CDL>\n", 3, "negative"),
        ("<ASC_CDL inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"Fwd\"><SOPNode><Slope>1 1 1</Slope><Offset>0 0 0</Offset>"
            + "<Power>1 0 1</Power></SOPNode></ASC_CDL>\n", 3, "power 0"),
        ("<ASC_CDL inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"Sideways\"/>\n", 3, "style \"Sideways\""),
        ("<Lut2D inBitDepth=\"32f\" outBitDepth=\"32f\"/>\n", 2, "no operation"),
        ("<Range inBitDepth=\"32f\" outBitDepth=\"32f\"></Range>\n", 3, "none of"),
        ("<Range inBitDepth=\"10i\" outBitDepth=\"8i\"><minInValue>100</minInValue><minOutValue>25</minOutValue></Range>\n", 3, "must be equal"),
        ("<Log inBitDepth=\"32f\" outBitDepth=\"32f\" style=\"cameraLinToLog\"><LogParams channel=\"R\" linSideBreak=\"0.1\" linearSlope=\"2\"/>"
            + "<LogParams channel=\"G\" linSideBreak=\"0.1\"/><LogParams channel=\"B\" linSideBreak=\"0.1\"/></Log>\n", 3, "all three channels"),
    ]

    @Test(arguments: refusals.indices)
    func refusesBrokenNodes(index: Int) throws {
        let (body, line, mentions) = Self.refusals[index]
        try Self.expectRefusal(Self.processList(body), line: line, mentions: mentions)
    }

    /// Windows line breaks ("\r\n", one Character in Swift) separate values, as any white space
    /// does: a CLF and a .cc written on Windows read as written on Unix.
    @Test func windowsLineBreaksSeparateValues() throws {
        let unix = "<?xml version=\"1.0\"?>\n<ProcessList id=\"w\" compCLFversion=\"3.0\">\n<Matrix inBitDepth=\"32f\" outBitDepth=\"32f\">\n"
            + "<Array dim=\"3 3\">\n0.5 0 0\n0 1 0\n0 0 2\n</Array>\n</Matrix>\n</ProcessList>\n"
        let windows = unix.replacingOccurrences(of: "\n", with: "\r\n")
        let input = SIMD3<Double>(0.25, 0.5, 0.75)
        #expect(try Self.read(windows).transform.apply(input) == SIMD3(0.125, 0.5, 1.5))
        let correction = ASCCDLFormatTests.single.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try ASCCDLFormatTests.read(correction, "windows.cc").transform.apply(input)
            == ASCCDLFormatTests.read(ASCCDLFormatTests.single, "unix.cc").transform.apply(input))
    }

    @Test func refusesBadVersionsAndBrokenXML() throws {
        try Self.expectRefusal(Self.processList("", version: "compCLFversion=\"4.0\""), line: 2, mentions: "compCLFversion 4.0")
        try Self.expectRefusal(Self.processList("", version: "compCLFversion=\"three\""), line: 2, mentions: "not a version")
        try Self.expectRefusal(Self.processList("", version: "version=\"7\""), line: 2, mentions: "version 7")
        try Self.expectRefusal("<?xml version=\"1.0\"?>\n<ProcessList compCLFversion=\"3\">\n<LUT1D>\n</ProcessList>\n",
                               mentions: "not well-formed XML")
        try Self.expectRefusal("<?xml version=\"1.0\"?>\n<ProcessList id=\"a\" compCLFversion=\"3\">\n"
            + "<Matrix inBitDepth=\"32f\" outBitDepth=\"32f\"></Range>\n</ProcessList>\n\n\n", line: 3, mentions: "not well-formed XML")
        try Self.expectRefusal("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [<!ENTITY lol \"lol\">]>\n<ProcessList compCLFversion=\"3\">&lol;</ProcessList>\n",
                               line: 2, mentions: "DOCTYPE")
        try Self.expectRefusal("<?xml version=\"1.0\"?>\n<LookList/>\n", line: 2, mentions: "not <ProcessList>")
        try Self.expectRefusal("<?xml version=\"1.0\"?>\n<ProcessList id=\"x\">\n</ProcessList>\n", line: 2, mentions: "compCLFversion (or")
        try Self.expectRefusal("<?xml version=\"1.0\"?>\n<ProcessList compCLFversion=\"3.0\">\n</ProcessList>\n", line: 2, mentions: "id is missing")
    }

    /// The refusals above that OpenColorIO also refuses (a sample: OCIO is stricter or looser
    /// elsewhere, and colorcube is never looser than it on these).
    @Test(.enabled(if: OCIOReference.ocioconvert != nil, "ocioconvert is not installed"))
    func openColorIORefusesThemToo() throws {
        let folder = try TemporaryDirectory()
        for index in [0, 1, 5, 7, 12, 16, 21, 22, 24, 25, 26, 27] {
            let path = try Self.write(Self.processList(Self.refusals[index].body), "refused\(index).clf", in: folder)
            #expect(try OCIOReference.refuses(lut: path, folder: folder) == true, "refusal \(index): \(Self.refusals[index].mentions)")
        }
    }

    /// Every seed of the XML formats' fuzz targets reads, or is refused with a file error naming it.
    @Test(arguments: ["clf", "ctf", "cc", "ccc", "cdl"])
    func fuzzSeedsReadOrAreRefused(format: String) throws {
        let folder = URL(fileURLWithPath: FuzzCorpus.path(format, ""))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        var read = 0
        for name in names {
            let path = folder.appendingPathComponent(name).path
            do {
                let look = try LUTReader.read(path: path, format: LUTFormats.all.named(format))
                _ = try TransformBaker.bake(look.transform, size: 5)
                read += 1
            } catch let error as LUTFileError {
                #expect(error.path == path, "\(name): \(error)")
            }
        }
        #expect(read >= 1, "no \(format) seed reads")
    }

    @Test func sniffsAProcessListWithoutItsExtension() throws {
        let folder = try TemporaryDirectory()
        let path = try Self.write(Self.chain, "look.xml", in: folder)
        #expect(try LUTReader.read(path: path).format.name == "clf")
    }
}
