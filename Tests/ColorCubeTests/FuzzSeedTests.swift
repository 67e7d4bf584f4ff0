import ColorCubeImaging
import ColorCubeLooks
import Foundation
import Testing

/// Every fuzz target starts from seeds: Tools/fuzz runs one target per reader of the format tables
/// (and three of its own), and a target without a Tests/FuzzCorpus folder would start from nothing.
@Suite struct FuzzSeedTests {
    /// The names `FUZZ_TARGET=list` prints, worked out from the same tables.
    static var targets: [String] {
        ["stream", "image", "jpeg-coefficients"]
            + LUTFormats.all.filter { !$0.readsImages }.map(\.name)
            + ImageCodecs.all.filter(\.isReadable).map(\.format.identifier)
    }

    @Test func everyFuzzTargetHasSeeds() throws {
        #expect(Self.targets.count >= 26)
        for target in Self.targets {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: FuzzCorpus.path(target, ""))) ?? []
            #expect(!files.filter { !$0.hasPrefix(".") }.isEmpty, "Tests/FuzzCorpus/\(target) holds no seed")
        }
    }
}
