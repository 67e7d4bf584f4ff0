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
}
