import ColorCubeCore
import ColorCubeImaging
import Foundation

/// Runs a batch with a fixed number of images in flight, so memory stays bounded by about `jobs`
/// decoded images however large the folder. One bad file never stops the batch: its error is
/// reported and the rest go on.
///
/// Before it looks at a job (even one it then skips because the output exists) the runner removes
/// the temporaries that killed writers of that output left (`AtomicFile.removeStaleTemporaries(of:)`),
/// which leaves those of live writers alone. So any number of runs may share an output folder: two
/// runs over the same inputs at once (a requeued task whose predecessor still runs, a second start
/// by mistake) both finish without failures, each output complete. An output that another run
/// finishes while this one writes it is counted in `Summary.finishedElsewhere`; with `skipExisting`
/// the other run's file is kept (`AtomicFile.Overlap.keep`), otherwise this run's replaces it.
public struct BatchRunner: Sendable {
    /// What happened to one job.
    public enum Outcome: Sendable {
        case done(ImageApplier.FileReport)
        /// A video clip graded.
        case doneVideo(VideoApplier.Report)
        /// The output existed and `skipExisting` was set.
        case skipped
        case failed(any Error)
    }

    /// Counts for the summary line.
    public struct Summary: Sendable, Equatable {
        public init() {}
        public var done = 0
        public var skipped = 0
        public var failed = 0
        /// Stale temporaries of the batch's outputs removed before processing them.
        public var temporariesRemoved = 0
        /// Outputs that another run finished while this one was writing them (counted as done too).
        public var finishedElsewhere = 0
        /// Time per stage, summed over the images done.
        public var times = StageTimes()
        public var total: Int { done + skipped + failed }
    }

    public let applier: ImageApplier
    /// Grades the batch's video clips; nil fails them (no clip expected).
    public let video: VideoApplier?
    /// Called after each frame of a clip with the job, the frames done and the expected total.
    public let videoProgress: (@Sendable (BatchJob, Int, Int?) -> Void)?
    /// Images processed at once (at least 1).
    public let jobs: Int
    /// Leave outputs that already exist untouched, so an interrupted batch resumes.
    public let skipExisting: Bool

    public init(applier: ImageApplier, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, skipExisting: Bool = false,
                video: VideoApplier? = nil, videoProgress: (@Sendable (BatchJob, Int, Int?) -> Void)? = nil) {
        self.applier = applier
        self.video = video
        self.videoProgress = videoProgress
        self.jobs = max(1, jobs)
        self.skipExisting = skipExisting
    }

    /// Processes every job of `plan`; `report` is called once per job as it ends, one call at a time
    /// (from the worker thread that ran the job).
    public func run(_ plan: BatchPlan, report: @Sendable (BatchJob, Outcome) -> Void) -> Summary {
        let jobsList = plan.jobs
        // The next job to hand out and the counts so far; reports are made under the same lock,
        // which keeps them one at a time.
        let progress = Locked((next: 0, summary: Summary()))
        let workers = min(jobs, max(jobsList.count, 1))
        // One image splits across cores only when it is alone in flight.
        let splitImages = workers == 1
        ParallelLoop.run(iterations: workers) { _ in
            while true {
                let index = progress.withLock { progress in
                    defer { progress.next += 1 }
                    return progress.next
                }
                guard index < jobsList.count else { return }
                let job = jobsList[index]
                let removed = AtomicFile.removeStaleTemporaries(of: job.output)
                let outcome = process(job, parallel: splitImages)
                progress.withLock { progress in
                    progress.summary.temporariesRemoved += removed.count
                    switch outcome {
                    case .done(let report):
                        progress.summary.done += 1
                        progress.summary.times += report.times
                        progress.summary.temporariesRemoved += report.staleTemporariesRemoved.count
                        if report.finishedElsewhere { progress.summary.finishedElsewhere += 1 }
                    case .doneVideo(let report):
                        progress.summary.done += 1
                        progress.summary.times += report.times
                    case .skipped: progress.summary.skipped += 1
                    case .failed: progress.summary.failed += 1
                    }
                    report(job, outcome)
                }
            }
        }
        return progress.withLock { $0.summary }
    }

    private func process(_ job: BatchJob, parallel: Bool) -> Outcome {
        let fileManager = FileManager.default
        if skipExisting, fileManager.fileExists(atPath: job.output) { return .skipped }
        do {
            try Folders.create(FilePath.split(job.output).folder)
            if job.isVideo {
                guard let video else { throw VideoError.noVideoApplier(path: job.input) }
                let progress = videoProgress
                return .doneVideo(try video.apply(input: job.input, output: job.output) { done, total in
                    progress?(job, done, total)
                })
            }
            return .done(try applier.apply(input: job.input, output: job.output, outputFormat: job.outputFormat,
                                           parallel: parallel, overlap: skipExisting ? .keep : .replace))
        } catch {
            return .failed(error)
        }
    }
}
