import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Foundation
import Testing

/// .cube dialects, `combine` and `invert` against OpenColorIO, baked to 33-cubes: within 1e-3 at
/// every node (numerically inverted 3D LUTs: 99th percentile within 2e-3).
@Suite(.enabled(if: OCIOReference.ociobakelut != nil, "OpenColorIO's ociobakelut is not installed"))
struct ChainReferenceTests {
    /// A smooth, non-separable look: a warm grade with a touch of channel mixing.
    static func grade(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let mixed = SIMD3(0.9 * c.x + 0.1 * c.y, 0.05 * c.x + 0.9 * c.y + 0.05 * c.z, 0.1 * c.y + 0.85 * c.z + 0.02)
        return SIMD3(pow(mixed.x, 0.9), mixed.y, pow(mixed.z, 1.1))
    }

    static func writeCube(_ text: String, _ name: String, in folder: TemporaryDirectory) throws -> String {
        let path = folder.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func cubeLines(size: Int, _ transform: (SIMD3<Float>) -> SIMD3<Float>) -> String {
        var text = ""
        let last = Float(size - 1)
        for b in 0..<size { for g in 0..<size { for r in 0..<size {
            let v = transform(SIMD3(Float(r), Float(g), Float(b)) / last)
            text += String(format: "%.7f %.7f %.7f\n", v.x, v.y, v.z)
        } } }
        return text
    }

    static func ours(_ paths: [String], size: Int = 33) throws -> ColorCube {
        let look = Look(chain: try paths.map { try LUTReader.read(path: $0) })
        return ColorCube(try TransformBaker.bake(look.transform, size: size))
    }

    /// The Resolve dialect with both input ranges away from 0...1 (the 1D shaper over -1...3, the
    /// 3D table over 0...4): the case that used to differ from OCIO by up to 5 codes.
    @Test func resolveShaperWithInputRanges() throws {
        let folder = try TemporaryDirectory()
        var text = "LUT_1D_SIZE 64\nLUT_1D_INPUT_RANGE -1 3\nLUT_3D_SIZE 17\nLUT_3D_INPUT_RANGE 0 4\n"
        for i in 0..<64 {
            let x = -1 + 4 * Double(i) / 63
            let y = 4 * pow(max(x + 1, 0) / 4, 0.6)
            text += String(format: "%.7f %.7f %.7f\n", y, y * 0.98, y * 1.01)
        }
        text += Self.cubeLines(size: 17) { Self.grade($0) }
        let path = try Self.writeCube(text, "resolve.cube", in: folder)
        let theirs = try OCIOReference.bake([.forward(path)], size: 33, in: folder)
        let differences = OCIOReference.sortedDifferences(try Self.ours([path]), theirs)
        #expect((differences.last ?? 1) <= 1e-3, "largest difference \(differences.last ?? -1)")
    }

    @Test func combineTwoLooks() throws {
        let folder = try TemporaryDirectory()
        let first = try Self.writeCube("LUT_3D_SIZE 17\n" + Self.cubeLines(size: 17) { Self.grade($0) }, "a.cube", in: folder)
        var curve = "LUT_1D_SIZE 256\n"
        for i in 0..<256 {
            let x = Double(i) / 255
            curve += String(format: "%.7f %.7f %.7f\n", pow(x, 1.2), x, pow(x, 0.8))
        }
        let second = try Self.writeCube(curve, "b.cube", in: folder)
        let theirs = try OCIOReference.bake([.forward(first), .forward(second)], size: 33, in: folder)
        let differences = OCIOReference.sortedDifferences(try Self.ours([first, second]), theirs)
        #expect((differences.last ?? 1) <= 1e-3, "largest difference \(differences.last ?? -1)")
    }

    @Test func invertA1DLook() throws {
        let folder = try TemporaryDirectory()
        var curve = "LUT_1D_SIZE 1024\n"
        for i in 0..<1024 {
            let x = Double(i) / 1023
            curve += String(format: "%.7f %.7f %.7f\n", pow(x, 2.2), pow(x, 1.8), x * 0.9 + 0.05)
        }
        let path = try Self.writeCube(curve, "curve.cube", in: folder)
        let theirs = try OCIOReference.bake([.inverse(path)], size: 33, in: folder)
        let inverse = try TransformInverter.invert(try LUTReader.read(path: path).transform, size: 33)
        let differences = OCIOReference.sortedDifferences(ColorCube(try TransformBaker.bake(inverse, size: 33)), theirs)
        #expect((differences.last ?? 1) <= 1e-3, "largest difference \(differences.last ?? -1)")
    }

    /// How an inverse baked to a 33-cube agrees with OCIO's: over every node, and over the nodes
    /// whose colour the look reaches (its round trip through the look comes back).
    struct InverseAgreement: CustomStringConvertible {
        var largest: Double
        var p99: Double
        var reachableP99: Double
        var reachableCount: Int
        var description: String {
            "largest \(largest), p99 \(p99) over all nodes, p99 \(reachableP99) over \(reachableCount) reachable nodes"
        }
    }

    static func inverseAgreement(of path: String, in folder: TemporaryDirectory) throws -> InverseAgreement {
        let theirs = try OCIOReference.bake([.inverse(path)], size: 33, in: folder)
        let forward = try LUTReader.read(path: path).transform
        let inverse = try TransformInverter.invert(forward, size: 33)
        let ours = ColorCube(try TransformBaker.bake(inverse, size: 33))
        var all: [Double] = [], reachable: [Double] = []
        for index in 0..<ours.entryCount {
            let a = ours.entry(at: index), b = theirs.entry(at: index)
            let difference = Double(max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z)))
            all.append(difference)
            let node = SIMD3(Double(index % 33), Double((index / 33) % 33), Double(index / (33 * 33))) / 32
            let back = forward.apply(inverse.apply(node)) - node
            if max(abs(back.x), abs(back.y), abs(back.z)) < 0.5 / 255 { reachable.append(difference) }
        }
        all.sort()
        reachable.sort()
        func p99(_ sorted: [Double]) -> Double { sorted.isEmpty ? 0 : sorted[Int(Double(sorted.count) * 0.99)] }
        return InverseAgreement(largest: all.last ?? 0, p99: p99(all), reachableP99: p99(reachable), reachableCount: reachable.count)
    }

    /// A grade whose channel mixing narrows the gamut: the colours outside it have no inverse, and
    /// there colorcube does what OCIO does (the lattice extrapolated past its faces, the solution
    /// clamped back into the domain), so the agreement holds at every node.
    @Test func invertA3DLook() throws {
        let folder = try TemporaryDirectory()
        let path = try Self.writeCube("LUT_3D_SIZE 33\n" + Self.cubeLines(size: 33) { Self.grade($0) }, "grade.cube", in: folder)
        let agreement = try Self.inverseAgreement(of: path, in: folder)
        print("invert grade.cube against ociobakelut --invlut: \(agreement)")
        #expect(agreement.reachableCount > 33 * 33 * 33 / 2, "\(agreement)")
        #expect(agreement.p99 <= 2e-3, "\(agreement)")
        #expect(agreement.reachableP99 <= 2e-3, "\(agreement)")
    }

    /// A look that clips its highlights and lifts its blacks, so whole faces of the cube are out
    /// of reach, stated with tetrahedral interpolation (CLF) so the inverse is the exact one.
    @Test func invertAClippingTetrahedralLook() throws {
        let folder = try TemporaryDirectory()
        var values = ""
        for r in 0..<17 { for g in 0..<17 { for b in 0..<17 {
            // CLF lists its 3D LUT with blue fastest.
            let c = SIMD3(Double(r), Double(g), Double(b)) / 16
            let v = SIMD3(min(0.05 + 0.9 * c.x, 0.88), 0.1 + 0.8 * pow(c.y, 1.2), min(0.02 + c.z * 0.95 + 0.05 * c.x, 0.93))
            values += String(format: "%.7f %.7f %.7f\n", v.x, v.y, v.z)
        } } }
        let clf = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ProcessList id="clip" compCLFversion="3.0">
          <LUT3D inBitDepth="32f" outBitDepth="32f" interpolation="tetrahedral">
            <Array dim="17 17 17 3">
        \(values)    </Array>
          </LUT3D>
        </ProcessList>
        """
        let path = try Self.writeCube(clf, "clip.clf", in: folder)
        let agreement = try Self.inverseAgreement(of: path, in: folder)
        print("invert clip.clf against ociobakelut --invlut: \(agreement)")
        #expect(agreement.p99 <= 2e-3, "\(agreement)")
        #expect(agreement.largest <= 2e-3, "\(agreement)")
    }
}
