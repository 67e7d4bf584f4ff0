import ArgumentParser
import ColorCubeApplier
import ColorCubeConverter
import ColorCubeCore
import ColorCubeImaging
import Foundation

extension ColorCubeCommand {
    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply a look to images, photo folders or raw video frames.",
            discussion: """
                LOOK is an edited reference PNG (or any Hald CLUT), a .cube, .3dl, raw Core Image cube file (.bin/.raw) or an ICC device link (.icc). \
                INPUT may be image files and folders, mixed; folders are walked recursively. One input \
                file and an -o with an image extension writes that file; otherwise -o is a folder \
                mirroring the inputs. With --raw, frames are read from -i (default stdin) and written \
                to -o (default stdout).
                """
        )

        @Argument(help: ArgumentHelp("The look, any LUT file: " + FormatArgument.readableList + "."))
        var look: String

        @Argument(help: "Images and folders to process.")
        var inputs: [String] = []

        @Option(name: .shortAndLong, help: "Output image or folder; with --raw, the output stream (- for stdout).")
        var output: String?

        @OptionGroup var engineOptions: EngineOptions

        @Option(help: "Images processed at once (default: the number of cores).")
        var jobs: Int?

        @Flag(help: "Leave outputs that already exist untouched (resume an interrupted batch).")
        var skipExisting = false

        @Option(help: "Process only shard K of N (K from 0 to N-1), chosen by a stable hash of each file's relative path.")
        var shard: String?

        @Flag(help: "Apply the look to the code values as stored, keeping an embedded ICC profile, instead of converting to sRGB.")
        var ignoreProfile = false

        @Option(help: "Quality of JPEG, lossy WebP, HEIC and AVIF outputs, 1 to 100 (default: 92).")
        var quality: Int?

        @Flag(help: "Print the time spent decoding, converting colours, applying the LUT and encoding.")
        var benchmark = false

        @OptionGroup var rawOptions: RawStreamOptions

        @OptionGroup var limits: LimitOptions

        func validate() throws {
            if rawOptions.raw != nil {
                let fileOptions = [(jobs != nil, "--jobs"), (skipExisting, "--skip-existing"), (shard != nil, "--shard"),
                                   (quality != nil, "--quality"), (benchmark, "--benchmark")]
                if let (_, name) = fileOptions.first(where: { $0.0 }) {
                    throw ValidationError("\(name) applies to image files, not to --raw frame streams")
                }
                guard inputs.isEmpty else {
                    throw ValidationError("--raw reads frames from -i (or stdin), not from INPUT arguments: \(inputs.joined(separator: " "))")
                }
                return
            }
            guard !inputs.isEmpty else { throw ValidationError("give at least one INPUT image or folder (or --raw for frames)") }
            guard output != nil else { throw ValidationError("give the output image or folder with -o") }
            if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
            if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be between 1 and 100") }
            if let shard, Shard(parsing: shard) == nil {
                throw ValidationError("invalid --shard \(shard); use K/N with 0 <= K < N, e.g. 0/4")
            }
        }

        func run() throws {
            try Diagnostics.reportingFailures {
                if let size = rawOptions.frameSize {
                    // Before the look is read: an absurd frame size costs nothing but this message.
                    try limits.pixelLimit.check(width: size.width, height: size.height, path: rawOptions.streamName)
                }
                let engine = try engineOptions.loadEngine(look: look, ignoreProfile: ignoreProfile,
                                                          pixelLimit: limits.pixelLimit, correctionID: limits.cdlID)
                if rawOptions.raw != nil {
                    try runRaw(engine: engine)
                } else {
                    try runImages(engine: engine)
                }
            }
        }

        private func runImages(engine: LUTEngine) throws {
            guard let output else { return }
            let started = ContinuousClock.now
            let plan = try BatchPlan(inputs: inputs, output: output, shard: shard.flatMap(Shard.init(parsing:)),
                                     protected: [look])
            if !plan.singleFile { try Folders.create(output) }
            var options = ImageApplier.Options(ignoreProfile: ignoreProfile,
                                               reading: ImageReadOptions(limit: limits.pixelLimit))
            if let quality { options.quality = quality }
            let applier = ImageApplier(engine: engine, options: options)
            let runner = BatchRunner(applier: applier, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                     skipExisting: skipExisting)
            let progress = ProgressLine(total: plan.jobs.count)
            let summary = runner.run(plan) { job, outcome in
                switch outcome {
                case .failed(let error):
                    progress.clear()
                    Diagnostics.error(Diagnostics.message(for: error, path: job.input))
                case .done(let report) where report.imageCount > 1:
                    progress.clear()
                    Diagnostics.note("\(job.input): graded the first of its \(report.imageCount) images")
                default:
                    break
                }
                progress.advance()
            }
            progress.clear()
            if !plan.singleFile {
                let passedOver = plan.passedOverSummary
                let removed = summary.temporariesRemoved
                Diagnostics.note("\(summary.done) done, \(summary.skipped) skipped, \(summary.failed) failed"
                    + (passedOver.isEmpty ? "" : "; passed over " + passedOver.joined(separator: " and "))
                    + (removed > 0 ? "; removed \(removed) temporary file\(removed == 1 ? "" : "s") left by an interrupted run" : ""))
            }
            if benchmark {
                let t = summary.times
                func seconds(_ d: Duration) -> String { Diagnostics.decimal(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18, places: 3) }
                Diagnostics.note("benchmark: \(summary.done) images, wall \(seconds(ContinuousClock.now - started)) s; "
                    + "summed over threads: decode \(seconds(t.decode)) s, colour management \(seconds(t.colorManagement)) s, "
                    + "LUT \(seconds(t.lut)) s, encode \(seconds(t.encode)) s")
            }
            if summary.failed > 0 { throw ExitCode.failure }
        }
    }
}

extension Interpolation: ExpressibleByArgument {}
