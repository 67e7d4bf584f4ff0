import Foundation
@testable import ColorCubeLearner
import Testing

/// The global model finds the space an edit's curves were applied in, and from there carries the
/// edit over to colours the pairs never showed.
struct GlobalModelTests {
    @Test func curveSpacesRoundTripEverySRGBColour() {
        var generator = TestRandom(seed: 11_24)
        var colors: [SIMD3<Double>] = []
        for corner in 0..<8 {
            let red: Double = corner & 1 == 0 ? 0 : 1, green: Double = corner & 2 == 0 ? 0 : 1
            let blue: Double = corner & 4 == 0 ? 0 : 1
            colors.append(SIMD3(red, green, blue))
        }
        for _ in 0..<2000 { colors.append(SIMD3(generator.unit(), generator.unit(), generator.unit())) }
        for space in CurveSpace.allCases {
            for color in colors {
                let encoded = space.encode(color)
                #expect(encoded.min() >= -1e-6 && encoded.max() <= 1 + 1e-6, "\(space) \(color) -> \(encoded)")
                let back = space.decode(encoded)
                #expect(largest(back - color) < 1e-4, "\(space) \(color) -> \(encoded) -> \(back)")
            }
        }
        // White and black are the same in both spaces.
        #expect(largest(CurveSpace.proPhoto.encode(SIMD3(1, 1, 1)) - SIMD3(1, 1, 1)) < 1e-6)
        #expect(largest(CurveSpace.proPhoto.encode(SIMD3(0, 0, 0))) < 1e-9)
    }

    @Test(arguments: CurveSpace.allCases)
    func curvesAppliedInASpaceAreFoundThereAndReachUnseenColours(space: CurveSpace) throws {
        // A warm grade: red lifted and blue lowered in the mid-tones, by curves in `space`.
        func edit(_ color: SIMD3<Double>) -> SIMD3<Double> {
            let c = space.encode(color)
            return space.decode(SIMD3(pow(c.x, 0.85), c.y, pow(c.z, 1.2)))
        }
        // The pairs show only browns and oranges (red >= green >= blue), dark to light.
        var generator = TestRandom(seed: 2026)
        let seen = (0..<20_000).map { _ -> FitColor in
            let r = 0.03 + 0.97 * generator.unit(), g = r * (0.55 + 0.45 * generator.unit())
            let b = g * (0.4 + 0.6 * generator.unit())
            let before = SIMD3(r, g, b)
            return FitColor(weight: Double(1 + generator.next() % 20), before: before, after: edit(before))
        }
        let total = UInt64(seen.reduce(0) { $0 + $1.weight })
        let model = GlobalModel.bestFitting(colors: seen, totalWeight: total)
        #expect(model.space == space)
        // Blues and greens the pairs never showed.
        let unseen = (0..<2000).map { _ in
            SIMD3(0.05 + 0.3 * generator.unit(), 0.2 + 0.5 * generator.unit(), 0.5 + 0.5 * generator.unit())
        }
        func worst(_ model: GlobalModel) -> Double {
            unseen.map { color in
                let predicted = model(color)
                return largest(SIMD3(predicted.x, predicted.y, predicted.z) - edit(color))
            }.max() ?? 0
        }
        let found = worst(model)
        // Within 3 of 255 codes on colours it never saw (the curves are smooth splines on 17
        // knots; these powers are steep near 0), and far closer than the other space's model.
        #expect(found < 3.0 / 255, "worst \(found * 255) codes")
        for other in CurveSpace.allCases where other != space {
            let elsewhere = worst(GlobalModel(colors: seen, totalWeight: total, space: other))
            #expect(elsewhere > 2 * found, "\(other): worst \(elsewhere * 255) codes against \(found * 255) in \(space)")
        }
    }

    /// The largest magnitude among the three lanes.
    private func largest(_ v: SIMD3<Double>) -> Double {
        max(abs(v.x), abs(v.y), abs(v.z))
    }
}
