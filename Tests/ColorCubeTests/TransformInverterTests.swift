import ColorCubeCore
import ColorCubeTransform
import Foundation
import Testing

/// 3D LUTs inverted numerically: exact inside the look's gamut, OpenColorIO's clamped
/// extrapolation outside it (`ChainReferenceTests` compares with OCIO itself when installed).
struct TransformInverterTests {
    /// A smooth look whose channel mixing widens the gamut, so every colour of 0...1 is reached.
    static func widening(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let s = c + 0.05 * SIMD3(sin(Float.pi * c.x), sin(Float.pi * c.y), sin(Float.pi * c.z))
        let d = s - 0.5
        return SIMD3(1.15 * d.x + 0.05 * d.y, 1.2 * d.y + 0.05 * d.z, 0.05 * d.x + 1.15 * d.z) + 0.5
    }

    static func look(size: Int, _ interpolation: Interpolation, _ function: (SIMD3<Float>) -> SIMD3<Float>) throws -> LUT3DOp {
        LUT3DOp(table: try ColorCube(size: size, sampling: function), interpolation: interpolation)
    }

    /// The inverse lattice's node position (its domain divided evenly) for entry `index`.
    static func node(_ inverse: LUT3DOp, _ index: Int) -> SIMD3<Double> {
        let n = inverse.size
        let t = SIMD3(Double(index % n), Double((index / n) % n), Double(index / (n * n))) / Double(n - 1)
        return inverse.domainMin + t * (inverse.domainMax - inverse.domainMin)
    }

    static func entry(_ inverse: LUT3DOp, _ index: Int) -> SIMD3<Double> {
        let e = inverse.table.entry(at: index)
        return SIMD3(Double(e.x), Double(e.y), Double(e.z))
    }

    static func inverseLattice(of forward: LUT3DOp, size: Int) throws -> LUT3DOp {
        let inverse = try TransformInverter.invert(Transform([forward]), size: size)
        let lattice = try #require(inverse.operations.first as? LUT3DOp)
        #expect(inverse.operations.count == 1)
        return lattice
    }

    /// Every node of 0...1 is an output of the look, so the look maps each inverse node's entry
    /// back onto the node: exactly for tetrahedral LUTs (solved per tetrahedron), to Newton's
    /// tolerance for trilinear ones; Float storage of the entries is the only other error.
    @Test(arguments: [Interpolation.tetrahedral, .trilinear])
    func reachableColoursComeBack(_ interpolation: Interpolation) throws {
        let forward = try Self.look(size: 9, interpolation, Self.widening)
        let inverse = try Self.inverseLattice(of: forward, size: 17)
        var largest = 0.0, checked = 0
        for index in 0..<inverse.table.entryCount {
            let y = Self.node(inverse, index)
            guard y.min() >= 0, y.max() <= 1 else { continue }
            let miss = forward.apply(Self.entry(inverse, index)) - y
            largest = max(largest, abs(miss.x), abs(miss.y), abs(miss.z))
            checked += 1
        }
        #expect(checked >= 13 * 13 * 13)
        #expect(largest < 1e-6, "largest miss \(largest) over \(checked) nodes")
    }

    /// The inverse's lattice spans 0...1 at least (where OpenColorIO's inverse takes its input),
    /// widened to the look's output range.
    /// A per-channel look's inverse as one 1D table with evenly spaced inputs over 0...1 widened
    /// to the look's output range, undoing the look; a look that mixes channels has none.
    @Test func aPerChannelLookInvertsIntoOneEvenlySpacedTable() throws {
        let curve = try LUT1DOp(entries: [SIMD3(0, 0, 0), SIMD3(0.25, 0.5, 0.6), SIMD3(1, 1.5, 1)])
        let power = try ExponentOp(style: .basicFwd, exponent: SIMD3(2.2, 1, 0.5))
        let forward = Transform([curve, power])
        let inverse = try #require(try TransformInverter.invertedCurves(of: forward, length: 1024))
        #expect(inverse.curves.allSatisfy { $0.inputs == .uniform(0...1.5) && $0.outputs.count == 1024 })
        var largest = 0.0
        for step in 0...255 {
            let y = SIMD3(repeating: Double(step) / 255)
            let miss = forward.apply(inverse.apply(y)) - y
            largest = max(largest, 255 * max(abs(miss.x), abs(miss.y), abs(miss.z)))
        }
        #expect(largest < 0.1, "off by up to \(largest) 8-bit codes")

        #expect(try TransformInverter.invertedCurves(of: Transform([try CDLOp(saturation: 0.8)])) == nil)
        #expect(try TransformInverter.invertedCurves(of: Transform(cube: try ColorCube.identity(size: 2))) == nil)
    }

    @Test func inverseDomainCoversTheUnitCubeAndTheOutputRange() throws {
        let narrow = try Self.inverseLattice(of: try Self.look(size: 5, .tetrahedral) { 0.2 + 0.5 * $0 }, size: 5)
        #expect(narrow.domainMin == SIMD3(repeating: 0) && narrow.domainMax == SIMD3(repeating: 1))
        let wide = try Self.inverseLattice(of: try Self.look(size: 5, .tetrahedral) { 2 * $0 - 0.25 }, size: 5)
        #expect(wide.domainMin == SIMD3(repeating: -0.25) && wide.domainMax == SIMD3(repeating: 1.75))
    }

    /// A separable look reaching only 0.1...0.9 in red: a red below its reach is extrapolated past
    /// the lattice's lower face and clamped onto it (input 0), one above onto the upper face
    /// (input 1). The padded nodes push every channel from mid-grey, not only red, so green and
    /// blue of such a colour shift too (as in OpenColorIO); colours with a reachable red come back.
    @Test func unreachableColoursClampOntoTheDomain() throws {
        let forward = try Self.look(size: 5, .tetrahedral) { SIMD3(0.1 + 0.8 * $0.x, $0.y, $0.z) }
        // 11 nodes, so the report's 11 samples per axis fall on nodes.
        let inverse = try TransformInverter.invert(Transform([forward]), size: 11)
        for (y, red) in [(SIMD3(0, 0.2, 0.7), 0.0), (SIMD3(1, 0.5, 1), 1.0), (SIMD3(0.05, 0.9, 0.1), 0.0)] {
            let x = inverse.apply(y)
            #expect(abs(x.x - red) < 1e-7, "\(y) gave \(x)")
        }
        let report = TransformInverter.report(inverse: inverse, of: Transform([forward]), samplesPerAxis: 11)
        // Reds 0.0 and 1.0 cannot be recovered: 2 of every 11 colours, each at least 0.1 off.
        #expect(report.unrecoveredCount == 2 * 11 * 11, "\(report)")
        #expect(report.maxCodes >= 0.1 * 255 - 0.01, "\(report)")
        #expect(report.worstColor.x == 0 || report.worstColor.x == 1, "\(report)")
    }

    /// A look that folds red back on itself (up to 1 at red 0.5, down again): red 0.5 comes from
    /// both 0.25 and 0.75, and the inverse takes the cell first in Morton order, the lower one,
    /// as OpenColorIO does.
    @Test func aFoldingLookTakesTheFirstCellInMortonOrder() throws {
        let forward = try Self.look(size: 9, .tetrahedral) { SIMD3(1 - abs(2 * $0.x - 1), $0.y, $0.z) }
        let inverse = try TransformInverter.invert(Transform([forward]), size: 9)
        for g in [0.0, 0.5, 1.0] {
            let x = inverse.apply(SIMD3(0.5, g, 0.25))
            #expect(abs(x.x - 0.25) < 1e-6 && abs(x.y - g) < 1e-6 && abs(x.z - 0.25) < 1e-6, "\(x)")
        }
    }

    /// A black-and-white look: no colour off the grey axis is an output, not even of the padded
    /// lattice, so the inverse gives the input whose output is nearest; greys are recovered.
    @Test func aBlackAndWhiteLookRecoversItsGreysAndReportsTheRest() throws {
        let forward = try Self.look(size: 9, .trilinear) { SIMD3(repeating: 0.3 * $0.x + 0.6 * $0.y + 0.1 * $0.z) }
        let transform = Transform([forward])
        let inverse = try TransformInverter.invert(transform, size: 9)
        for grey in [0.0, 0.25, 0.5, 1.0] {
            let back = transform.apply(inverse.apply(SIMD3(repeating: grey)))
            #expect(abs(back.x - grey) < 1e-6 && abs(back.y - grey) < 1e-6, "grey \(grey) came back as \(back)")
        }
        let report = TransformInverter.report(inverse: inverse, of: transform, samplesPerAxis: 9)
        #expect(report.unrecoveredFraction > 0.9, "\(report)")
        #expect(report.maxCodes.isFinite)
    }
}
