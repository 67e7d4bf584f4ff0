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

    @Test func invertA3DLook() throws {
        let folder = try TemporaryDirectory()
        let path = try Self.writeCube("LUT_3D_SIZE 33\n" + Self.cubeLines(size: 33) { Self.grade($0) }, "grade.cube", in: folder)
        let theirs = try OCIOReference.bake([.inverse(path)], size: 33, in: folder)
        let inverse = try TransformInverter.invert(try LUTReader.read(path: path).transform, size: 33)
        let ours = ColorCube(try TransformBaker.bake(inverse, size: 33))
        // Colours the grade never produces (its channel mixing narrows the gamut) have no inverse;
        // there OCIO and colorcube each give their own nearest guess, so the comparison is over the
        // colours the look reaches: those whose round trip through the look comes back.
        let forward = try LUTReader.read(path: path).transform
        var reachable: [Int] = []
        for index in 0..<ours.entryCount {
            let node = SIMD3(Double(index % 33), Double((index / 33) % 33), Double(index / (33 * 33))) / 32
            let back = forward.apply(inverse.apply(node)) - node
            if max(abs(back.x), abs(back.y), abs(back.z)) < 0.5 / 255 { reachable.append(index) }
        }
        #expect(reachable.count > ours.entryCount / 2, "only \(reachable.count) of \(ours.entryCount) nodes reachable")
        let differences = reachable.map { index -> Double in
            let a = ours.entry(at: index), b = theirs.entry(at: index)
            return Double(max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z)))
        }.sorted()
        let p99 = differences[Int(Double(differences.count) * 0.99)]
        #expect(p99 <= 2e-3, "99th percentile \(p99), largest \(differences.last ?? -1) over \(reachable.count) reachable nodes")
    }
}
