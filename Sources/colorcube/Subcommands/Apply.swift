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

        @Argument(help: "The look: reference PNG, .cube, .3dl, .bin/.raw or .icc.")
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

        @Option(help: "JPEG quality, 1 to 100 (default: 92).")
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
                let engine = try engineOptions.loadEngine(look: look, ignoreProfile: ignoreProfile)
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
            var options = ImageApplier.Options(ignoreProfile: ignoreProfile)
            if let quality { options.quality = quality }
            let applier = ImageApplier(engine: engine, options: options)
            let runner = BatchRunner(applier: applier, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                     skipExisting: skipExisting)
            let progress = ProgressLine(total: plan.jobs.count)
            let summary = runner.run(plan) { job, outcome in
                if case .failed(let error) = outcome {
                    progress.clear()
                    Diagnostics.error(Diagnostics.message(for: error, path: job.input))
                }
                progress.advance()
            }
            progress.clear()
            if !plan.singleFile {
                let removed = summary.temporariesRemoved
                Diagnostics.note("\(summary.done) done, \(summary.skipped) skipped, \(summary.failed) failed"
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

/// Options that choose and shape the LUT engine, shared by every command that applies a look.
struct EngineOptions: ParsableArguments {
    @Option(help: "Interpolation: trilinear (Core Image's), tetrahedral or nearest.")
    var interpolation: Interpolation = .trilinear

    @Option(help: "Strength of the look, 0 to 1: out = in + S * (look(in) - in).")
    var strength: Float = 1

    func validate() throws {
        guard (0...1).contains(strength) else { throw ValidationError("--strength must be between 0 and 1, got \(strength)") }
    }

    /// Reads the look once and prepares the engine; reports what was noticed about the look.
    /// - Parameter remembersColors: keep each 8-bit colour's result (see `LUTEngine`); worth its
    ///   64 MB table only when many pixels follow, so thumbnails interpolate instead.
    func loadEngine(look: String, ignoreProfile: Bool, remembersColors: Bool = true) throws -> LUTEngine {
        let loaded = try LUTReader.read(path: look, referenceOptions: .init(ignoreProfile: ignoreProfile))
        if let profile = loaded.convertedFromProfile {
            Diagnostics.note("\(look): converted the look's colours from its embedded profile \"\(profile)\" to sRGB")
        }
        if let roughness = loaded.roughness, roughness.suggestsSpatialEdit {
            Diagnostics.warning(ColorCubeCommand.Convert.roughnessWarning(roughness, path: look))
        }
        return LUTEngine(cube: loaded.cube, interpolation: interpolation, strength: strength,
                         remembersColors: remembersColors)
    }
}

extension Interpolation: ExpressibleByArgument {}
