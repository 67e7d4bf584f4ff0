import ColorCubeApplier
import ColorCubeEngine
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeGenerator
import ColorCubeImaging
import Foundation
import Testing

/// Every kind of writer colorcube has, beside another run writing the same outputs: the other run's
/// live temporaries stay, dead writers' leftovers go, and every output ends complete.
@Suite struct ConcurrentWritersTests {
    /// The writers, each writing one output at a path it is given.
    enum Writer: String, CaseIterable, CustomTestStringConvertible {
        case image, lutFile, reference

        var fileName: String {
            switch self {
            case .image: "photo.png"
            case .lutFile: "look.cube"
            case .reference: "reference.png"
            }
        }

        var testDescription: String { rawValue }

        /// Writes the output; `scratch` is a folder for the image writer's input.
        func write(to path: String, in scratch: String) throws {
            switch self {
            case .image:
                let input = scratch + "/input.png"
                if !FileManager.default.fileExists(atPath: input) { try BatchFixtures.writeImage(input, seed: 4) }
                try ConcurrentWritersTests.applier().apply(input: input, output: path)
            case .lutFile:
                try LUTWriter.write(try ConcurrentWritersTests.look(), format: CubeTextFormat(), to: path, title: "look")
            case .reference:
                try ReferenceGenerator.writeIdentity(size: 4, to: path)
            }
        }
    }

    static func look() throws -> ColorCube {
        try ColorCube(size: 5) { SIMD3($0.z, $0.x, $0.y) }
    }

    static func applier() throws -> ImageApplier {
        ImageApplier(engine: LUTEngine(cube: try look(), colorMemory: .none))
    }

    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Files below `root`, hidden ones included, sorted.
    static func files(below root: String) -> [String] {
        ((FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? [])
            .filter { !Folders.exists(root + "/" + $0) }.sorted()
    }

    @Test(arguments: Writer.allCases)
    func anotherRunsLiveTemporaryStaysAndADeadOnesGoes(_ writer: Writer) throws {
        let folder = try TemporaryDirectory()
        let expected = folder.file("alone-" + writer.fileName)
        try writer.write(to: expected, in: folder.path)
        let output = folder.file("out/" + writer.fileName)
        try Folders.create(folder.file("out"))
        let live = try HeldTemporary(folder.file("out/" + AtomicFile.temporaryName(for: writer.fileName, processID: 7, tag: "live")))
        let dead = folder.file("out/" + AtomicFile.temporaryName(for: writer.fileName, processID: 8, tag: "dead"))
        try Data("half".utf8).write(to: URL(fileURLWithPath: dead))
        try writer.write(to: output, in: folder.path)
        #expect(try Self.bytes(output) == Self.bytes(expected))
        #expect(Self.files(below: folder.file("out")) == [FilePath.split(live.path).name, writer.fileName].sorted())
        // Its writer gone, the other run's temporary is a leftover the next write removes.
        live.release()
        try writer.write(to: output, in: folder.path)
        #expect(Self.files(below: folder.file("out")) == [writer.fileName])
    }

    @Test(arguments: Writer.allCases)
    func writersOfOneOutputAtOnceAllSucceed(_ writer: Writer) throws {
        let folder = try TemporaryDirectory()
        let expected = folder.file("alone-" + writer.fileName)
        try writer.write(to: expected, in: folder.path)
        let output = folder.file(writer.fileName), scratch = folder.path
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<5 {
                do { try writer.write(to: output, in: scratch) } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try Self.bytes(output) == Self.bytes(expected))
        #expect(Self.files(below: folder.path).filter { $0.hasPrefix(".") } == [])
    }

    /// Runs `runners` over `plan` at the same time; returns their summaries.
    static func runTogether(_ runners: [BatchRunner], _ plan: BatchPlan) -> [BatchRunner.Summary] {
        let summaries = Locked<[Int: BatchRunner.Summary]>([:])
        DispatchQueue.concurrentPerform(iterations: runners.count) { index in
            let summary = runners[index].run(plan) { _, _ in }
            summaries.withLock { $0[index] = summary }
        }
        return summaries.withLock { all in runners.indices.compactMap { all[$0] } }
    }

    @Test(arguments: [false, true])
    func twoBatchesIntoOneFolderBothFinishWithoutFailures(skipExisting: Bool) throws {
        let folder = try TemporaryDirectory()
        let names = (0..<16).map { "d\($0 % 2)/p\($0).\($0 % 3 == 0 ? "jpg" : "png")" }
        for (index, name) in names.enumerated() {
            try BatchFixtures.writeImage(folder.file("in/" + name), seed: UInt8(index))
        }
        let engine = LUTEngine(cube: try Self.look(), colorMemory: .none)
        let runner = BatchRunner(applier: ImageApplier(engine: engine), jobs: 2, skipExisting: skipExisting)
        let alone = runner.run(try BatchPlan(inputs: [folder.file("in")], output: folder.file("alone"))) { _, _ in }
        #expect(alone.done == names.count)
        for round in 0..<3 {
            let out = folder.file("out-\(round)")
            let plan = try BatchPlan(inputs: [folder.file("in")], output: out)
            let summaries = Self.runTogether([runner, runner], plan)
            #expect(summaries.count == 2)
            for summary in summaries {
                #expect(summary.failed == 0)
                #expect(summary.temporariesRemoved == 0)
                #expect(summary.done + summary.skipped == names.count)
                #expect(summary.finishedElsewhere <= summary.done)
            }
            #expect(Self.files(below: out) == names.sorted())
            for name in names {
                #expect(try Self.bytes(out + "/" + name) == Self.bytes(folder.file("alone/" + name)), "\(name)")
            }
        }
    }
}
