import ColorCubeConverter
import ColorCubeApplier
import ColorCubeCore
import ColorCubeEngine
import ColorCubeImaging
import ColorCubeLooks
import Foundation

/// Grading the studio's photos into a folder, in the background, with what `apply` does for a
/// folder: the same plan (`BatchPlan`: no output on an input or a look), the same runner (atomic
/// writes), outputs that exist left as they are so that a run can be resumed, and the same summary.
public final class GradeJob: Sendable {
    /// What the page shows of a run.
    public struct Status: Sendable, Codable, Equatable {
        public var running = false
        public var done = 0
        public var total = 0
        /// The output folder of the run, once one started.
        public var output: String?
        /// `apply`'s summary line once the run ended.
        public var summary: String?
        /// One line per file that failed, and a failure of the run itself.
        public var errors: [String] = []
    }

    private let state = Locked(Status())

    public init() {}

    /// The run's status now.
    public var status: Status { state.withLock { $0 } }

    /// Starts grading `inputs` under `spec` into `output` on a thread of its own.
    /// - Throws: `StudioError.refusedFolder` for an output that is not an absolute path, or lies in
    ///   or holds one of `readFolders` (the photo and look folders); `.badRequest` while a run is
    ///   going; `.failed` when the plan refuses the inputs or output (its message).
    public func start(spec: String, engine: LUTEngine, inputs: [String], output: String,
                      readFolders: [String]) throws(StudioError) {
        guard output.hasPrefix("/"), !output.split(separator: "/").contains("..") else {
            throw .refusedFolder(path: output, reason: "give the output folder as an absolute path, without ..")
        }
        let target = StudioCatalog.absolute(output)
        for folder in readFolders where Self.contains(folder, target) || Self.contains(target, folder) {
            throw .refusedFolder(path: target, reason: "the output folder must lie outside the photo and look folders "
                + "(\(folder)): the studio never writes where it reads")
        }
        let plan: BatchPlan
        do {
            plan = try BatchPlan(inputs: inputs, output: target, protected: LookSpec.paths(spec))
            try Folders.create(target)
        } catch {
            throw .failed(String(describing: error))
        }
        let started = state.withLock { status -> Bool in
            guard !status.running else { return false }
            status = Status(running: true, done: 0, total: plan.jobs.count, output: target)
            return true
        }
        guard started else { throw .badRequest("a folder is being graded; wait for it to finish") }
        let runner = BatchRunner(applier: ImageApplier(engine: engine), skipExisting: true)
        let state = self.state
        Thread.detachNewThread {
            let summary = runner.run(plan) { job, outcome in
                state.withLock { status in
                    status.done += 1
                    if case .failed(let error) = outcome { status.errors.append("\(job.input): \(error)") }
                }
            }
            let line = summary.line(passedOver: plan.passedOverSummary, keptExisting: true)
            state.withLock { status in
                status.running = false
                status.summary = line
            }
        }
    }

    /// True when `inner` is `outer` or lies under it.
    static func contains(_ outer: String, _ inner: String) -> Bool {
        inner == outer || inner.hasPrefix(outer.hasSuffix("/") ? outer : outer + "/")
    }
}
