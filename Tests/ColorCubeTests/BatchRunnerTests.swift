import ColorCubeApplier
import ColorCubeEngine
import ColorCubeCore
import ColorCubeImaging
import Foundation
import Testing

@Suite struct BatchRunnerTests {
    static func runner(jobs: Int = 2, skipExisting: Bool = false) throws -> BatchRunner {
        let engine = LUTEngine(cube: try ColorCube(size: 5) { SIMD3($0.z, $0.x, $0.y) }, colorMemory: .none)
        return BatchRunner(applier: ImageApplier(engine: engine), jobs: jobs, skipExisting: skipExisting)
    }

    /// Runs the plan and returns the summary and each job's outcome by relative path.
    static func run(_ runner: BatchRunner, _ plan: BatchPlan) -> (BatchRunner.Summary, [String: String]) {
        // Reports come from the worker threads (one at a time).
        let outcomes = Locked<[String: String]>([:])
        let summary = runner.run(plan) { job, outcome in
            let word = switch outcome {
            case .done, .doneVideo: "done"
            case .skipped: "skipped"
            case .failed: "failed"
            }
            outcomes.withLock { $0[job.relativePath] = word }
        }
        return (summary, outcomes.withLock { $0 })
    }

    static func files(below root: String) -> [String] {
        ((FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? [])
            .filter { !Folders.exists(root + "/" + $0) }.sorted()
    }

    @Test func everyJobIsReportedOnceAndCounted() throws {
        let folder = try TemporaryDirectory()
        try BatchFixtures.writeImage(folder.file("in/a.png"), seed: 1)
        try BatchFixtures.writeImage(folder.file("in/sub/b.jpg"), seed: 2)
        try BatchFixtures.writeImage(folder.file("in/c.png"), seed: 3)
        let plan = try BatchPlan(inputs: [folder.file("in")], output: folder.file("out"))
        let (summary, outcomes) = Self.run(try Self.runner(), plan)
        #expect(outcomes == ["a.png": "done", "sub/b.jpg": "done", "c.png": "done"])
        #expect(summary.done == 3 && summary.skipped == 0 && summary.failed == 0 && summary.total == 3)
        #expect(summary.temporariesRemoved == 0)
        #expect(Self.files(below: folder.file("out")) == ["a.png", "c.png", "sub/b.jpg"])
        // The rotation look moved the channels.
        let output = try PNGFile.read(path: folder.file("out/a.png"))
        let input = BatchFixtures.image(seed: 1)
        #expect(output.pixels.count == input.pixels.count)
        #expect(output.pixels[0] == input.pixels[2] && output.pixels[1] == input.pixels[0] && output.pixels[2] == input.pixels[1])
    }

    @Test func aBadFileFailsAloneAndTheRestAreWritten() throws {
        let folder = try TemporaryDirectory()
        try BatchFixtures.writeImage(folder.file("a.png"))
        try BatchFixtures.writeText(folder.file("broken.png"))
        let plan = try BatchPlan(inputs: [folder.file("a.png"), folder.file("broken.png")], output: folder.file("out"))
        let (summary, outcomes) = Self.run(try Self.runner(jobs: 1), plan)
        #expect(outcomes == ["a.png": "done", "broken.png": "failed"])
        #expect(summary.done == 1 && summary.failed == 1)
        #expect(Self.files(below: folder.file("out")) == ["a.png"])
    }

    @Test func jobsBelowOneMeanOne() throws {
        #expect(try Self.runner(jobs: 0).jobs == 1)
        #expect(try Self.runner(jobs: -3).jobs == 1)
        #expect(try Self.runner(jobs: 5).jobs == 5)
    }

    @Test func skipExistingLeavesOutputsAsTheyAre() throws {
        let folder = try TemporaryDirectory()
        try BatchFixtures.writeImage(folder.file("in/a.png"))
        try BatchFixtures.writeImage(folder.file("in/b.png"))
        try BatchFixtures.writeText(folder.file("out/a.png"), "kept")
        let plan = try BatchPlan(inputs: [folder.file("in")], output: folder.file("out"))
        let (summary, outcomes) = Self.run(try Self.runner(skipExisting: true), plan)
        #expect(outcomes == ["a.png": "skipped", "b.png": "done"])
        #expect(summary.skipped == 1 && summary.done == 1)
        #expect(try String(contentsOfFile: folder.file("out/a.png"), encoding: .utf8) == "kept")
    }

    @Test func staleTemporariesOfOwnedOutputsAreRemovedSkippedOnesIncluded() throws {
        let folder = try TemporaryDirectory()
        try BatchFixtures.writeImage(folder.file("in/a.png"))
        try BatchFixtures.writeImage(folder.file("in/sub/b.png"))
        try BatchFixtures.writeText(folder.file("out/a.png"), "kept")
        let stale = [folder.file("out/" + AtomicFile.temporaryName(for: "a.png", processID: 9, tag: "k1")),
                     folder.file("out/sub/" + AtomicFile.temporaryName(for: "b.png", processID: 9, tag: "k2")),
                     folder.file("out/sub/" + AtomicFile.temporaryName(for: "b.png", processID: 10, tag: "k3"))]
        // Temporaries of outputs this batch does not own, and files that only look similar.
        let foreign = [folder.file("out/" + AtomicFile.temporaryName(for: "z.png", processID: 9, tag: "k1")),
                       folder.file("out/" + AtomicFile.temporaryName(for: "a.png.jpg", processID: 9, tag: "k1")),
                       folder.file("out/.a.png.9-k1.tmp")]
        for path in stale + foreign { try BatchFixtures.writeText(path, "half") }
        let plan = try BatchPlan(inputs: [folder.file("in")], output: folder.file("out"))
        let (summary, outcomes) = Self.run(try Self.runner(skipExisting: true), plan)
        #expect(outcomes == ["a.png": "skipped", "sub/b.png": "done"])
        #expect(summary.temporariesRemoved == 3)
        for path in stale { #expect(!FileManager.default.fileExists(atPath: path), "\(path)") }
        for path in foreign { #expect(FileManager.default.fileExists(atPath: path), "\(path)") }
    }

    @Test func aShardRemovesOnlyItsOwnOutputsTemporaries() throws {
        let folder = try TemporaryDirectory()
        let names = (0..<12).map { "p\($0).png" }
        for name in names {
            try BatchFixtures.writeImage(folder.file("in/" + name))
            try BatchFixtures.writeText(folder.file("out/" + AtomicFile.temporaryName(for: name, processID: 1, tag: "s")), "half")
        }
        let shard = try #require(Shard(index: 1, count: 3))
        let plan = try BatchPlan(inputs: [folder.file("in")], output: folder.file("out"), shard: shard)
        let mine = names.filter(shard.contains)
        #expect(!mine.isEmpty && mine.count < names.count)
        let (summary, _) = Self.run(try Self.runner(), plan)
        #expect(summary.done == mine.count)
        #expect(summary.temporariesRemoved == mine.count)
        let left = Self.files(below: folder.file("out"))
        let expected = mine + names.filter { !shard.contains($0) }.map { AtomicFile.temporaryName(for: $0, processID: 1, tag: "s") }
        #expect(left == expected.sorted())
    }
}
