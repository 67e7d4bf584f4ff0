import ColorCubeApplier
import ColorCubeEngine
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeImaging
import ColorCubeLearner
import Foundation
import Testing

/// What the learner reports of the pairs it was given: clean global edits, disagreeing pairs, local
/// and spatial edits.
extension LookLearnerTests {
    @Test func aCleanGlobalEditGetsNoWarning() throws {
        let look = try LearnBench.look("teal-orange")
        let photo = try LearnBench.photos()[0].image
        let learner = LookLearner()
        try learner.add(before: LearnBench.buffer(photo), after: LearnBench.buffer(try LearnBench.jpeg(LearnBench.apply(look, to: photo), quality: 90)))
        let report = learner.report(for: try learner.fit(size: 33))
        #expect(report.warnings.isEmpty, "\(report.warnings) \(report.regionVariation) \(report.fineDetail) \(report.broadDetail)")
    }

    /// `image` with its contrast raised by `gain` around its own mean code value, as an editor's
    /// contrast slider pivoting on each photo's mean does: the same before colour maps
    /// differently in each photo.
    static func contrastAroundOwnMean(_ image: RasterImage, gain: Double) -> RasterImage {
        guard case .eight(let samples) = image.pixels else { return image }
        let mean = Double(samples.reduce(0) { $0 + Int($1) }) / Double(max(samples.count, 1))
        var result = image
        result.pixels = .eight(samples.map { UInt8(max(0, min(255, (mean + gain * (Double($0) - mean)).rounded()))) })
        return result
    }

    @Test func pairsThatMapColoursDifferentlyAreReported() throws {
        let photos = Array(try LearnBench.photos().prefix(3))
        let look = try LearnBench.look("teal-orange")
        func report(_ after: (RasterImage) throws -> RasterImage) throws -> LearnReport {
            let learner = LookLearner()
            for photo in photos {
                try learner.add(before: LearnBench.buffer(photo.image), after: LearnBench.buffer(try after(photo.image)), name: photo.name)
            }
            return learner.report(for: try learner.fit(size: 33))
        }
        func disagreement(_ report: LearnReport) -> Bool {
            report.warnings.contains { if case .pairsDisagree = $0 { true } else { false } }
        }
        let same = try report { LearnBench.apply(look, to: $0) }
        let sameJPEG = try report { try LearnBench.jpeg(LearnBench.apply(look, to: $0), quality: 90) }
        let adapting = try report { Self.contrastAroundOwnMean($0, gain: 1.4) }
        print("pairs' disagreement: one look \(same.pairDisagreement) (PNG), \(sameJPEG.pairDisagreement) (JPEG q90); "
            + "contrast around each photo's mean \(adapting.pairDisagreement)")
        #expect(!disagreement(same) && !disagreement(sameJPEG), "\(same.warnings) \(sameJPEG.warnings)")
        #expect(disagreement(adapting), "\(adapting.pairDisagreement)")
    }

    @Test func noCleanGlobalEditIsWarnedAbout() throws {
        // Every sample look on every photo, exported losslessly and as JPEG q90: 70 clean edits.
        var warned: [String] = []
        var largest = (region: 0.0, fine: 0.0, broad: 0.0)
        for name in LearnBench.allLooks {
            let look = try LearnBench.look(name)
            for photo in try LearnBench.photos() {
                let after = LearnBench.apply(look, to: photo.image)
                for (export, image) in [("PNG", after), ("JPEG", try LearnBench.jpeg(after, quality: 90))] {
                    let report = try LearnBench.report(before: photo.image, after: image)
                    largest.region = max(largest.region, report.regionVariation)
                    largest.fine = max(largest.fine, abs(report.fineDetail.correlation) >= 0.3 ? report.fineDetail.amplitude : 0)
                    largest.broad = max(largest.broad, abs(report.broadDetail.correlation) >= 0.3 ? report.broadDetail.amplitude : 0)
                    if !report.warnings.isEmpty { warned.append("\(name) on \(photo.name) as \(export): \(report.warnings)") }
                }
            }
        }
        print("clean edits: largest region variation \(largest.region), high-pass amplitude (|r| >= 0.3) \(largest.fine) and \(largest.broad)")
        #expect(warned.isEmpty, "\(warned)")
    }

    @Test func localEditsAreReported() throws {
        // A graduated filter (top darkened), a radial brush (a brightened spot) and a strong
        // vignette, each on top of a look, on every photo. Where the before's colours already
        // change across the picture as the edit does (the rocket's sky darkens upwards), a colour
        // map absorbs part of the edit and the rest can stay under the limit: at most two of the
        // fifteen may go unreported, never a vignette.
        let look = try LearnBench.look("warm-fade")
        let edits: [(String, (Double, Double) -> Double)] = [
            ("graduated", { _, y in 0.65 + 0.35 * y }),
            ("brush", { x, y in 1 + 0.3 * max(0, 1 - ((x - 0.3) * (x - 0.3) + (y - 0.4) * (y - 0.4)) / 0.04) }),
            ("vignette", { x, y in 1 - 0.5 * ((x - 0.5) * (x - 0.5) + (y - 0.5) * (y - 0.5)) * 2 }),
        ]
        var missed: [String] = []
        for photo in try LearnBench.photos() {
            for (name, factor) in edits {
                let after = LearnBench.scaled(LearnBench.apply(look, to: photo.image), by: factor)
                let report = try LearnBench.report(before: photo.image, after: after, name: photo.name)
                if !report.warnings.contains(where: { if case .localEdit = $0 { true } else { false } }) {
                    missed.append("\(name) on \(photo.name) (region variation \(report.regionVariation))")
                }
            }
        }
        print("local edits not reported: \(missed.count) of \(edits.count * 5) \(missed)")
        #expect(missed.count <= 2, "\(missed)")
        #expect(!missed.contains { $0.hasPrefix("vignette") }, "\(missed)")
    }

    @Test func sharpeningAndClarityAreReported() throws {
        // An unsharp mask at 1 pixel (sharpening) and at 8 (clarity), on every photo. Clarity on
        // a starfield at 320 pixels (stars of a pixel or two) stays under the limit: at most one
        // clarity edit may go unreported, never sharpening.
        let look = try LearnBench.look("teal-orange")
        var missed: [String] = []
        for photo in try LearnBench.photos() {
            let graded = LearnBench.apply(look, to: photo.image)
            for (radius, amount) in [(1, 1.0), (8, 0.6)] {
                let after = LearnBench.sharpen(graded, amount: amount, radius: radius)
                let report = try LearnBench.report(before: photo.image, after: after)
                if !report.warnings.contains(where: { if case .neighbourhoodEdit = $0 { true } else { false } }) {
                    missed.append("radius \(radius) on \(photo.name) (fine \(report.fineDetail), broad \(report.broadDetail))")
                }
            }
        }
        print("neighbourhood edits not reported: \(missed.count) of 10 \(missed)")
        #expect(missed.count <= 1, "\(missed)")
        #expect(!missed.contains { $0.hasPrefix("radius 1 ") }, "\(missed)")
    }

    @Test func aVignetteIsReported() throws {
        let look = try LearnBench.look("teal-orange")
        let photo = try LearnBench.photos()[0].image
        let learner = LookLearner()
        try learner.add(before: LearnBench.buffer(photo), after: LearnBench.buffer(LearnBench.vignette(LearnBench.apply(look, to: photo), strength: 0.4)), name: "astronaut")
        let report = learner.report(for: try learner.fit(size: 33))
        #expect(report.warnings.contains { if case .localEdit(pair: "astronaut", _) = $0 { true } else { false } }, "\(report.warnings) \(report.regionVariation)")
        #expect(report.warnings.first?.description.contains("keeps only the global colour part") == true)
    }

    @Test func sharpeningIsReported() throws {
        let look = try LearnBench.look("teal-orange")
        let photo = try LearnBench.photos()[0].image
        let learner = LookLearner()
        try learner.add(before: LearnBench.buffer(photo), after: LearnBench.buffer(LearnBench.sharpen(LearnBench.apply(look, to: photo), amount: 1, radius: 1)))
        let report = learner.report(for: try learner.fit(size: 33))
        #expect(report.warnings.contains { if case .neighbourhoodEdit(radius: 1, _, _) = $0 { true } else { false } }, "\(report.warnings) \(report.fineDetail)")
    }
}
