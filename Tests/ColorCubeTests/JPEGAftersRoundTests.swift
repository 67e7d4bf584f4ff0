@testable import ColorCubeLearner
import ColorCubeImaging
import Foundation
import Testing

/// A round of the JPEG afters' fit: each colour's change with the tally's flatness weights, and
/// with every pixel at full weight (the last round's, `JPEGAfters.Change`).
@Suite struct JPEGAftersRoundTests {
    /// A mid-tone random pair whose after is a quality-90 4:2:0 JPEG of the teal-orange grade,
    /// tallied with flatness weights for a code of noise (every pixel at full weight when
    /// `uniform`) and recorded for the coefficient fit; and one round's change from the identity.
    static func round(uniform: Bool) throws -> (tally: ColorTally, change: JPEGAfters.Change) {
        let folder = try TemporaryDirectory()
        let image = ChromaBlocksTests.midToneRandomColors()
        let look = try LearnBench.look("teal-orange")
        let path = try JPEGAftersTests.write(LearnBench.apply(look, to: image), folder, "after.jpg")
        var options = ImageReadOptions()
        options.replicatesChroma = true
        let before = try LearnBench.buffer(image)
        let after = try LearnBench.buffer(try JPEGFile.read(path: path, options: options))
        // Weights for a pair with a code of noise: a random image is busy everywhere, so its pixels
        // weigh between 1 and `full`.
        let weights = FlatnessWeights(noise: uniform ? 0 : 1)
        let tally = ColorTally()
        tally.add(before: before, after: after, weights: weights)
        var afters = JPEGAfters()
        let coefficients = try #require(try JPEGCoefficients.read(path: path))
        let recorded = afters.add(before: before, after: after, coefficients: coefficients, tally: tally, weights: weights)
        #expect(recorded)
        // The look predicted by the identity: every target moves.
        let predicted = FitColor.colors(of: tally.entries).map(\.before)
        var change = JPEGAfters.Change(count: tally.count, everyPixel: true)
        afters.addChange(predicted: predicted, into: &change)
        return (tally, change)
    }

    @Test func everyPixelAtFullWeightMakesUpTheTallysWeight() throws {
        let (tally, change) = try Self.round(uniform: false)
        let weight = tally.entries.reduce(0) { $0 + Int($1.count) } + change.fullWeight.reduce(0, +)
        #expect(weight == tally.pixels * Int(FlatnessWeights.full))
        // Busy pixels weighed less in the tally, so some colours gain weight, and none loses any.
        #expect(change.fullWeight.contains { $0 > 0 })
        #expect(change.fullWeight.allSatisfy { $0 >= 0 })
    }

    @Test func withUniformWeightsBothChangesAgree() throws {
        let (tally, change) = try Self.round(uniform: true)
        #expect(change.fullWeight.allSatisfy { $0 == 0 })
        var largest = 0.0, moved = 0.0
        for index in 0..<tally.count {
            let difference = change.full[index] - change.weighted[index], move = change.weighted[index]
            largest = max(largest, abs(difference.x), abs(difference.y), abs(difference.z))
            moved = max(moved, abs(move.x), abs(move.y), abs(move.z))
        }
        #expect(moved > 0.01)
        #expect(largest < 1e-9 * max(moved, 1))
    }

    /// One 8x8 block of luma, stored with a step of 4 and a DC of 10 (a block mean of 133): a
    /// round moves a predicted DC coefficient (8 times the block's mean less 128) into the middle
    /// `dcInterval` of its interval, and leaves an AC coefficient anywhere within its whole one.
    @Test func aBlocksMeanMovesIntoTheMiddleOfItsIntervalItsDetailDoesNot() throws {
        let folder = try TemporaryDirectory()
        let path = try JPEGAftersTests.write(LearnBench.randomColors(side: 8, seed: 1), folder, "block.jpg")
        var luma = try #require(try JPEGCoefficients.read(path: path)).components[0]
        #expect(luma.widthInBlocks == 1 && luma.heightInBlocks == 1)
        let step = 4.0
        luma.quantization = [UInt16](repeating: UInt16(step), count: 64)
        luma.coefficients = [Int16](repeating: 0, count: 64)
        luma.coefficients[0] = 10
        // A flat block whose DC lies `dc` steps from the stored one, plus a horizontal first
        // harmonic whose coefficient (stored 0) is `tilt` steps: JPEG's DCT written out.
        func correction(dc: Double, tilt: Double) -> [Double] {
            let ycc = (0..<64).map { i -> SIMD3<Double> in
                let harmonic = (1 / 8.0).squareRoot() * 0.5 * cos(Double(2 * (i % 8) + 1) * .pi / 16)
                return SIMD3(128 + (10 + dc) * step / 8 + tilt * step * harmonic, 0, 0)
            }
            return JPEGAfters.correction(luma, channel: 0, bandTop: 0, bandRows: 8, rows: 8, width: 8, ycc: ycc)
        }
        let edge = JPEGAfters.dcInterval / 2
        #expect(edge < 0.4)
        // Outside the middle (within the whole interval, or beyond it at -0.9): the mean moves to
        // the middle's edge, the same for every pixel; the tilt, within its interval, stays.
        for (dc, target) in [(0.4, edge), (-0.45, -edge), (-0.9, -edge)] {
            let moves = correction(dc: dc, tilt: 0.4)
            let expected = (target - dc) * step / 8
            #expect(moves.allSatisfy { abs($0 - expected) < 1e-9 }, "DC \(dc) steps off: \(moves[0]) against \(expected)")
        }
        // Within the middle: nothing moves.
        #expect(correction(dc: edge * 0.8, tilt: -0.45).allSatisfy { abs($0) < 1e-9 })
    }

    /// The transform's coefficients against the DCT-II's definition, summed here term by term
    /// (JPEG's 1/4 C(u) C(v) scale), and the inverse taking them back to the samples.
    @Test func theBlockTransformFollowsTheDefinitionAndInvertsIt() {
        var generator = TestRandom(seed: 8)
        var samples = [[Double]](repeating: [Double](repeating: 0, count: 8), count: 8)
        for y in 0..<8 { for x in 0..<8 { samples[y][x] = Double(generator.next() % 2560) / 10 - 128 } }
        let dct = DCT8()
        for y in 0..<8 { for x in 0..<8 { dct.block[y][x] = samples[y][x] } }
        dct.forward()
        func c(_ u: Int) -> Double { u == 0 ? 1 / 2.0.squareRoot() : 1 }
        var largest = 0.0
        for v in 0..<8 {
            for u in 0..<8 {
                var sum = 0.0
                for y in 0..<8 {
                    for x in 0..<8 {
                        sum += samples[y][x] * cos(Double((2 * x + 1) * u) * .pi / 16) * cos(Double((2 * y + 1) * v) * .pi / 16)
                    }
                }
                largest = max(largest, abs(c(u) * c(v) * sum / 4 - dct.block[v][u]))
            }
        }
        #expect(largest < 1e-9, "largest difference from the definition \(largest)")
        dct.inverse()
        var back = 0.0
        for y in 0..<8 { for x in 0..<8 { back = max(back, abs(dct.block[y][x] - samples[y][x])) } }
        #expect(back < 1e-9, "largest difference after the inverse \(back)")
    }
}
