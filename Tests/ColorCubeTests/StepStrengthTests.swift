import ColorCubeConverter
import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// A step of a chain at part strength (`film.cube@0.6`): the LOOK syntax and `StrengthOp`.
@Suite struct StepStrengthTests {
    static let lattice = LUT3DOp(table: (try? ColorCube(size: 5) { SIMD3($0.y * 0.9, $0.z, min(1, $0.x + 0.1)) })
        ?? ColorCube(IdentityTable.unitCube))

    /// The largest difference of one channel.
    static func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
    }

    @Test func strengthsAreNumbersOrPercentages() {
        #expect(LookSpec.parseStrength("0.6") == 0.6)
        #expect(LookSpec.parseStrength("60%") == 0.6)
        #expect(LookSpec.parseStrength("1") == 1)
        #expect(LookSpec.parseStrength("0") == 0)
        for bad in ["", "1.5", "-0.2", "120%", "nan", "1e-1", "0.5.5", "%", "abc"] { #expect(LookSpec.parseStrength(bad) == nil) }
    }

    @Test func stepsCarryTheirStrength() throws {
        #expect(try LookSpec.step("film.cube@0.6") == .file(path: "film.cube", strength: 0.6))
        #expect(try LookSpec.step("film.cube") == .file(path: "film.cube", strength: 1))
        #expect(try LookSpec.step("space:acescct,srgb_tx@25%") == .conversion(from: "acescct", to: "srgb_tx", strength: 0.25))
        #expect(LookSpec.text(path: "a.cube", strength: 0.6) == "a.cube@0.6")
        #expect(LookSpec.text(path: "a.cube", strength: 1) == "a.cube")
    }

    @Test func anExistingFileWithTheMarkInItsNameIsThatFile() throws {
        let folder = NSTemporaryDirectory() + "/strength-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/film@0.5.cube"
        try LUTWriter.write(try ColorCube(size: 2) { $0 }, format: CubeTextFormat(), to: path, title: "t")
        #expect(try LookSpec.step(path) == .file(path: path, strength: 1))
        #expect(LookSpec.paths(path + "@0.25+" + path) == [path, path])
        #expect(try LookSpec.step(path + "@0.25") == .file(path: path, strength: 0.25))
    }

    @Test func badStepsAreRefusedWithTheirText() {
        #expect(throws: LookSpecError.badStrength(step: "film.cube@lots", text: "lots")) { try LookSpec.step("film.cube@lots") }
        #expect(throws: LookSpecError.badStrength(step: "@0.5", text: "0.5")) { try LookSpec.step("@0.5") }
        #expect(throws: LookSpecError.badConversion(step: "space:acescct")) { try LookSpec.step("space:acescct") }
        #expect(throws: LookSpecError.emptyStep(spec: "a.cube++b.cube")) { try LookSpec.read("a.cube++b.cube", options: LUTReadOptions()) }
        #expect(LookSpecError.badStrength(step: "f.cube@2", text: "2").description
            == "f.cube@2: \"2\" after @ is not a strength; a step's strength is a number from 0 to 1 or a percentage, "
            + "e.g. film.cube@0.6 or film.cube@60%")
        #expect(throws: TransformError.invalidOperation(operation: "strength", reason: "1.5 is outside 0...1")) {
            try StrengthOp(Transform([Self.lattice]), strength: 1.5)
        }
    }

    @Test func theMixIsTheWholeLookStrengthFormula() throws {
        let op = try StrengthOp(Transform([Self.lattice]), strength: 0.6)
        let input = SIMD3<Double>(0.2, 0.7, 0.4)
        let expected = input + 0.6 * (Self.lattice.apply(input) - input)
        #expect(op.apply(input) == expected)
        #expect(try StrengthOp(Transform([Self.lattice]), strength: 0).isIdentity)
        #expect(throws: TransformError.self) { try op.inverse() }
    }

    /// Trilinear and tetrahedral interpolation reproduce the identity lattice, so mixing every node
    /// mixes every interpolated value: the folded lattice agrees with the mix to Float rounding.
    @Test(arguments: [Interpolation.trilinear, .tetrahedral])
    func aLatticeFoldsItsStrengthIntoItsNodes(interpolation: Interpolation) throws {
        var lattice = Self.lattice
        lattice.interpolation = interpolation
        let op = try StrengthOp(Transform([lattice]), strength: 0.35)
        let folded = op.optimizedForm
        #expect(folded.count == 1 && folded[0] is LUT3DOp)
        var state: UInt64 = 7, worst = 0.0
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let rgb = SIMD3(Double(state >> 40 & 0xFFF), Double(state >> 20 & 0xFFF), Double(state & 0xFFF)) / 4095
            worst = max(worst, Self.distance(folded[0].apply(rgb), op.apply(rgb)))
        }
        #expect(worst < 1e-6, "largest difference \(worst)")
    }

    @Test func aMatrixFoldsAndOtherStepsStayMixed() throws {
        let matrix = try MatrixOp(rows: [SIMD3(0.5, 0.2, 0.3), SIMD3(0, 1, 0), SIMD3(0.1, 0.1, 0.8)], offset: SIMD3(0.1, 0, 0))
        let mixedMatrix = try StrengthOp(Transform([matrix]), strength: 0.5)
        #expect(mixedMatrix.optimizedForm.first is MatrixOp)
        let rgb = SIMD3<Double>(0.3, 0.6, 0.9)
        #expect(Self.distance(mixedMatrix.optimizedForm[0].apply(rgb), mixedMatrix.apply(rgb)) < 1e-12)
        var nearest = Self.lattice
        nearest.interpolation = .nearest
        #expect(try StrengthOp(Transform([nearest]), strength: 0.5).optimizedForm.first is StrengthOp)
        let two = try StrengthOp(Transform([Self.lattice, matrix]), strength: 0.5)
        #expect(two.optimizedForm.first is StrengthOp)
        // CLF holds the folded forms; a mix of two steps is baked.
        #expect(CLFFormat().holdsExactly(Transform([mixedMatrix])))
        #expect(!CLFFormat().holdsExactly(Transform([two])))
    }

    @Test func interpolationReachesTheLatticesOfAMixedStep() throws {
        let op = try StrengthOp(Transform([Self.lattice]), strength: 0.5)
        let changed = Transform([op]).interpolating(with: .tetrahedral)
        let inner = (changed.operations[0] as? StrengthOp)?.steps.operations[0] as? LUT3DOp
        #expect(inner?.interpolation == .tetrahedral)
    }
}
