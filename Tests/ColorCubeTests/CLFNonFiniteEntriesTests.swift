import ColorCubeLooks
import ColorCubeTransform
import Testing

/// NaN and infinite entries of 1D tables (.clf, .spi1d, .cube, .csp), read as OpenColorIO 2.6
/// reads them; compared with PyOpenColorIO in `CLFParityTests`.
@Suite struct CLFNonFiniteEntriesTests {
    /// Five "r g b" lines, the second `second`, the others exact in Float32.
    static func entries(_ second: String) -> String {
        "0 0 0\n\(second) \(second) \(second)\n0.25 0.25 0.25\n0.75 0.75 0.75\n1 1 1\n"
    }

    static func cube1D(_ second: String) -> String {
        "LUT_1D_SIZE 5\n" + entries(second)
    }

    /// A 1D .csp with identity pre-LUTs.
    static func csp1D(_ second: String) -> String {
        "CSPLUTV100\n1D\n\n2\n0 1\n0 1\n2\n0 1\n0 1\n2\n0 1\n0 1\n\n5\n" + entries(second)
    }

    static let nonFinite: [(name: String, text: String, outputs: [Double])] = [
        ("nan.clf", CLFParityTests.processList(CLFParityTests.lut1D("0 nan 0.3 0.6 1")), [0, 0, 0.3, 0.6, 1]),
        ("inf.clf", CLFParityTests.processList(CLFParityTests.lut1D("0 inf 0.3 0.6 1")), [0, CLFParityTests.largest, 0.3, 0.6, 1]),
        ("minus-infinity.clf", CLFParityTests.processList(CLFParityTests.lut1D("0 -Infinity 0.3 0.6 1")), [0, -CLFParityTests.largest, 0.3, 0.6, 1]),
        ("beyond-float.clf", CLFParityTests.processList(CLFParityTests.lut1D("0 1e39 0.3 0.6 1")), [0, CLFParityTests.largest, 0.3, 0.6, 1]),
        ("overflow.clf", CLFParityTests.processList(CLFParityTests.lut1D("0 1e999 0.3 0.6 1")), [0, 0, 0.3, 0.6, 1]),
        ("nan.spi1d", CLFParityTests.spi1D(["0", "nAn", "0.3", "0.6", "1"]), [0, 0, 0.3, 0.6, 1]),
        ("inf.spi1d", CLFParityTests.spi1D(["0", "INF", "0.3", "0.6", "1"]), [0, CLFParityTests.largest, 0.3, 0.6, 1]),
        ("minus-inf.spi1d", CLFParityTests.spi1D(["0", "-inf", "0.3", "0.6", "1"]), [0, -CLFParityTests.largest, 0.3, 0.6, 1]),
        ("nan.cube", cube1D("nan"), [0, 0, 0.25, 0.75, 1]),
        ("inf.cube", cube1D("inf"), [0, CLFParityTests.largest, 0.25, 0.75, 1]),
        ("nan.csp", csp1D("nan"), [0, 0, 0.25, 0.75, 1]),
        ("inf.csp", csp1D("-inf"), [0, -CLFParityTests.largest, 0.25, 0.75, 1]),
    ]

    /// A NaN entry reads as 0, an infinite one (or in a CLF one beyond Float32) as the CLFParityTests.largest
    /// Float32 of its sign, as OpenColorIO reads them; in a CLF a numeral that overflows Double
    /// is 0. (A table whose only entries off the identity are NaN is left out: OpenColorIO drops
    /// it as an identity before reading NaN as 0.)
    @Test(arguments: nonFinite.indices)
    func nonFiniteEntriesReadAsOpenColorIODoes(index: Int) throws {
        let (name, text, outputs) = Self.nonFinite[index]
        let look = try CLFParityTests.read(text, name)
        // The table is the last operation (a .csp's pre-LUT comes before it).
        let lut = try #require(look.transform.operations.last as? LUT1DOp)
        for curve in lut.curves {
            #expect(curve.outputs == outputs)
        }
        if name.hasSuffix(".clf") {
            #expect(look.notes.contains { $0.contains("1 entry") && $0.contains("NaN as 0") }, "\(look.notes)")
        }
    }
}
