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
        let browns = Browns(seed: 2026, edit: edit)
        let chosen = GlobalModelChooser(colors: browns.seen, totalWeight: browns.total)
        #expect(chosen.form == .curves)
        #expect(chosen.model.summary.curveSpace == space)
        let found = browns.worst(chosen.model)
        // Within 3 of 255 codes on colours it never saw (the curves are smooth splines on 17
        // knots; these powers are steep near 0), and far closer than the other space's model.
        #expect(found < 3.0 / 255, "worst \(found * 255) codes")
        for other in CurveSpace.allCases where other != space {
            let elsewhere = browns.worst(ChannelCurvesModel(colors: browns.seen, totalWeight: browns.total,
                                                            space: other))
            #expect(elsewhere > 2 * found, "\(other): worst \(elsewhere * 255) codes against \(found * 255) in \(space)")
        }
    }

    @Test func anHSVSaturationChangeIsFoundAndReachesUnseenHues() throws {
        // Faded colour as G'MIC's and RawTherapee's saturation sliders make it: every channel
        // moved towards the largest by a third (less for the most saturated colours), after a
        // gentle lift of the shadows on every channel.
        func edit(_ color: SIMD3<Double>) -> SIMD3<Double> {
            let lifted = SIMD3(pow(color.x, 0.9), pow(color.y, 0.9), pow(color.z, 0.9))
            let largest = lifted.max(), saturation = largest > 0 ? (largest - lifted.min()) / largest : 0
            let factor = 1 - (0.35 - 0.1 * saturation)
            return SIMD3(repeating: largest) - factor * (SIMD3(repeating: largest) - lifted)
        }
        let browns = Browns(seed: 1124, edit: edit)
        let chosen = GlobalModelChooser(colors: browns.seen, totalWeight: browns.total)
        #expect(chosen.form == .saturationCurves)
        #expect(chosen.model.summary.changesSaturation)
        let found = browns.worst(chosen.model)
        let plain = browns.worst(ChannelCurvesModel(colors: browns.seen, totalWeight: browns.total,
                                                    space: chosen.model.summary.curveSpace))
        #expect(found < 3.0 / 255, "worst \(found * 255) codes")
        #expect(plain > 3 * found, "without the saturation curve: worst \(plain * 255) codes against \(found * 255)")
    }

    @Test func aToningByLuminanceIsFoundAndReachesUnseenHues() throws {
        // Toned black and white as G'MIC's sepia makes it: grey by the colour's D50 luminance,
        // then a warm gradient of that grey.
        func toned(_ color: SIMD3<Double>) -> SIMD3<Double> {
            let linear = SIMD3(CurveSpace.srgbToLinear(color.x), CurveSpace.srgbToLinear(color.y),
                               CurveSpace.srgbToLinear(color.z))
            let t = CurveSpace.linearToSRGB((LuminanceWeights.d50.weights * linear).sum())
            return SIMD3(0.04 + 0.94 * pow(t, 0.85), 0.02 + 0.93 * t, 0.9 * pow(t, 1.25))
        }
        let browns = Browns(seed: 1125, edit: toned)
        let chosen = GlobalModelChooser(colors: browns.seen, totalWeight: browns.total)
        #expect(chosen.form == .luminance)
        #expect((chosen.model as? LuminanceCurvesModel)?.weights == .d50)
        #expect(chosen.model.summary.followsLuminance)
        let found = browns.worst(chosen.model)
        let plain = browns.worst(ChannelCurvesModel(colors: browns.seen, totalWeight: browns.total))
        #expect(found < 2.0 / 255, "worst \(found * 255) codes")
        #expect(plain > 3 * found, "as curves of r, g and b: worst \(plain * 255) codes against \(found * 255)")
    }

    @Test func aChannelMixerBlackAndWhiteStaysCurves() {
        // Black and white through an orange filter, a weighted sum of the codes: a sum of curves.
        let browns = Browns(seed: 1126) { color in SIMD3(repeating: 0.55 * color.x + 0.35 * color.y + 0.1 * color.z) }
        let chosen = GlobalModelChooser(colors: browns.seen, totalWeight: browns.total)
        #expect(chosen.form == .curves)
        #expect(!chosen.model.summary.followsLuminance)
        #expect(browns.worst(chosen.model) < 1.0 / 255, "worst \(browns.worst(chosen.model) * 255) codes")
    }

    @Test func aHueKeepingToneCurveReachesUnseenHues() throws {
        // A film-like S curve as RawTherapee and Lightroom apply it, then a little more saturation.
        let browns = Browns(seed: 1127, edit: filmLike)
        let model = HueKeepingCurveModel(colors: browns.seen)
        #expect(abs(model.saturationFactor - 1.1) < 0.01, "factor \(model.saturationFactor)")
        let found = browns.worst(model)
        let curves = browns.worst(GlobalModelChooser(colors: browns.seen, totalWeight: browns.total).model)
        // Within 12 codes (the curve is steep near black, where the blues' smallest channel
        // lies), against about 90 as curves.
        #expect(found < 12.0 / 255, "worst \(found * 255) codes")
        #expect(curves > 5 * found, "as curves: worst \(curves * 255) codes against \(found * 255)")
    }

    @Test func aVibranceAfterAHueKeepingCurveReachesUnseenHues() throws {
        // The film-like curve, then saturation raised more for pale colours than for saturated
        // ones, as a vibrance slider does: by 1.3 at grey down to 1.0 at full HSV saturation.
        let vibrance = { (color: SIMD3<Double>) in filmLike(color, factor: { 1.3 - 0.3 * $0 }) }
        let browns = Browns(seed: 1128, edit: vibrance)
        let model = HueKeepingCurveModel(colors: browns.seen)
        let found = browns.worst(model)
        let curves = browns.worst(GlobalModelChooser(colors: browns.seen, totalWeight: browns.total).model)
        print("vibrance as a hue-keeping model: worst \(found * 255) codes (as curves \(curves * 255)), "
              + "mean factor \(model.saturationFactor)")
        // About 1 code, against about 97 as curves.
        #expect(found < 3.0 / 255, "worst \(found * 255) codes")
        #expect(curves > 20 * found, "as curves: worst \(curves * 255) codes against \(found * 255)")
        #expect(abs(model.saturationFactor - 1.15) < 0.03, "mean factor \(model.saturationFactor)")
    }

    /// The film-like curve is learned from two photos, chosen because it predicts each from the
    /// other better than the curves do (they fit the pairs better), and carries over to the
    /// rocket photo's blue dusk, which neither shows; a warm grade of curves keeps the curves.
    @Test func aHueKeepingToneCurveIsChosenByPredictingEachPair() throws {
        let learn = try RocketBench()
        for jpeg in [false, true] {
            let (report, error) = try learn.look(filmLike, jpeg: jpeg)
            print("film-like, \(jpeg ? "JPEG" : "PNG") afters: keeps hue \(report.keepsHue), rocket \(error)")
            #expect(report.keepsHue)
            #expect(error < (jpeg ? 1.6 : 0.4))
        }
        let (report, _) = try learn.look({ SIMD3(pow($0.x, 0.85), $0.y, pow($0.z, 1.15)) }, jpeg: false)
        #expect(!report.keepsHue)
    }

    /// Pairs that show only browns and oranges (red >= green >= blue), dark to light, mapped by
    /// `edit`, and blues and greens they never show.
    private struct Browns {
        let seen: [FitColor]
        let total: UInt64
        let unseen: [SIMD3<Double>]
        let edit: (SIMD3<Double>) -> SIMD3<Double>

        init(seed: UInt64, edit: @escaping (SIMD3<Double>) -> SIMD3<Double>) {
            var generator = TestRandom(seed: seed)
            seen = (0..<20_000).map { _ -> FitColor in
                let r = 0.03 + 0.97 * generator.unit(), g = r * (0.55 + 0.45 * generator.unit())
                let b = g * (0.4 + 0.6 * generator.unit())
                let before = SIMD3(r, g, b)
                return FitColor(weight: Double(1 + generator.next() % 20), before: before, after: edit(before))
            }
            total = UInt64(seen.reduce(0) { $0 + $1.weight })
            unseen = (0..<2000).map { _ in
                SIMD3(0.05 + 0.3 * generator.unit(), 0.2 + 0.5 * generator.unit(), 0.5 + 0.5 * generator.unit())
            }
            self.edit = edit
        }

        /// The model's largest error over the unseen colours, in any channel (0...1 units).
        func worst(_ model: any GlobalModelForm) -> Double {
            unseen.map { color in
                let predicted = model(color)
                return largest(SIMD3(predicted.x, predicted.y, predicted.z) - edit(color))
            }.max() ?? 0
        }
    }
}

/// A film-like S curve in ProPhoto RGB that keeps hue (the largest and smallest channel through
/// the curve, the middle one at its place between them in linear light), then HSV saturation
/// up by a tenth, clipped to sRGB.
private func filmLike(_ color: SIMD3<Double>) -> SIMD3<Double> {
    filmLike(color, factor: { _ in 1.1 })
}

/// The film-like curve, then HSV saturation times `factor` of the colour's HSV saturation in
/// ProPhoto RGB, clipped to sRGB.
private func filmLike(_ color: SIMD3<Double>, factor: (Double) -> Double) -> SIMD3<Double> {
    func curve(_ x: Double) -> Double { x < 0.5 ? 2 * x * x * 0.9 + 0.1 * x : 1 - 2 * (1 - x) * (1 - x) * 0.9 - 0.1 * (1 - x) }
    let coded = CurveSpace.proPhoto.encode(color)
    let high = coded.max(), low = coded.min()
    let linearHigh = CurveSpace.rommToLinear(high), linearLow = CurveSpace.rommToLinear(low)
    let outHigh = CurveSpace.rommToLinear(curve(high)), outLow = CurveSpace.rommToLinear(curve(low))
    var result = SIMD3<Double>.zero
    for channel in 0..<3 {
        let place = linearHigh > linearLow ? (CurveSpace.rommToLinear(coded[channel]) - linearLow) / (linearHigh - linearLow) : 1
        result[channel] = CurveSpace.linearToROMM(outLow + place * (outHigh - outLow))
    }
    let largest = SIMD3(repeating: result.max())
    let saturation = high > 0 ? (high - low) / high : 0
    return CurveSpace.proPhoto.decode(largest + factor(saturation) * (result - largest))
        .clamped(lowerBound: .zero, upperBound: .one)
}

/// The largest magnitude among the three lanes.
private func largest(_ v: SIMD3<Double>) -> Double {
    max(abs(v.x), abs(v.y), abs(v.z))
}
