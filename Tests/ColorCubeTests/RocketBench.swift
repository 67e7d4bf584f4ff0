import ColorCubeApplier
import ColorCubeEngine
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeImaging
import ColorCubeLearner
import Foundation
import Testing

/// Looks learned from the astronaut and chelsea photos, judged on the rocket photo's blue dusk,
/// which neither shows.
struct RocketBench {
    let training: [(name: String, image: RasterImage)]
    let rocket: RasterImage

    init() throws {
        let photos = try LearnBench.photos()
        training = photos.filter { $0.name.hasPrefix("astronaut") || $0.name.hasPrefix("chelsea") }
        rocket = try #require(photos.first { $0.name.hasPrefix("rocket") }).image
        #expect(training.count == 2)
    }

    /// The report of `edit` learned from lossless (or JPEG q90) afters, and its mean CIEDE2000
    /// on the rocket photo.
    func look(_ edit: (SIMD3<Double>) -> SIMD3<Double>, jpeg: Bool) throws -> (LearnReport, Double) {
        let learner = LookLearner()
        for photo in training {
            let after = LearnBench.mapped(photo.image, edit)
            try learner.add(before: LearnBench.buffer(photo.image),
                            after: LearnBench.buffer(jpeg ? try LearnBench.jpeg(after, quality: 90) : after))
        }
        let learned = try learner.fit(size: 33)
        let error = LearnBench.summary(LearnBench.differences(LearnBench.apply(learned.cube, to: rocket),
                                                              LearnBench.mapped(rocket, edit))).mean
        return (learner.report(for: learned), error)
    }
}
