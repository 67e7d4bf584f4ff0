import ArgumentParser
import ColorCubeApplier
import ColorCubeEngine
import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeImaging
import Foundation

extension ColorCubeCommand {
    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply a look to images, video clips, folders of both, or raw video frames.",
            discussion: "LOOK is " + LookSpec.help + ". " + """
                INPUT may be image files, video clips and folders, mixed; folders are walked recursively. \
                One input file and an -o with an image extension (or, for a clip, a video extension: \
                .mp4, .mov, .mkv, ...) writes that file; otherwise -o is a folder mirroring the inputs. \
                Clips are decoded and encoded with FFmpeg (ffmpeg and ffprobe on the PATH), in the \
                stream's own colour matrix and range, keeping audio, subtitles, chapters and metadata. With --raw, frames are read from -i (default stdin) and written \
                to -o (default stdout).
                """ + HelpExamples.apply
        )

        @Argument(help: ArgumentHelp("The look: " + LookSpec.help + "."))
        var look: String

        @Argument(help: "Images, video clips and folders to process.")
        var inputs: [String] = []

        @Option(name: .shortAndLong, help: "Output image or folder; with --raw, the output stream (- for stdout).")
        var output: String?

        @OptionGroup var engineOptions: EngineOptions

        @Option(help: "Images processed at once (default: the number of cores); also clips at once (default: 1).")
        var jobs: Int?

        @Option(help: "FFmpeg encoder for video clips (libx264, libx265, prores_ks, ffv1, ...; default: the clip's own codec).")
        var videoCodec: String?

        @Option(help: ArgumentHelp("FFmpeg encoder for the audio of video clips (aac, libopus, ...), or copy. Default: copy "
            + "where the output's container holds the codec, else its usual one (AAC for .mp4 and .mov, Opus for .webm).",
                                   valueName: "name"))
        var audioCodec: String?

        @Option(help: ArgumentHelp("What an HDR clip (PQ or HLG) becomes under a look made for SDR: keep (stays HDR; the look acts "
            + "on its SDR rendition, BT.2408's 203 cd/m² as SDR's 1.0, and highlights keep their light) or to-sdr (a BT.709 "
            + "SDR clip, highlights rolled off). A --look-space naming an HDR display space applies the look to the clip's values.",
            valueName: "keep|to-sdr"))
        var hdr: HDRHandling = .keep

        @Option(help: "Constant quality for libx264/libx265 (default 16), libvpx-vp9 (16) and libsvtav1 (20); lower is better.")
        var crf: Int?

        @Flag(help: "Leave outputs that already exist untouched (resume an interrupted batch).")
        var skipExisting = false

        @Option(help: "Process only shard K of N (K from 0 to N-1), chosen by a stable hash of each file's relative path.")
        var shard: String?

        @Flag(help: "Apply the look to the code values as stored, keeping an embedded ICC profile, instead of converting to sRGB.")
        var ignoreProfile = false

        @Option(help: ArgumentHelp("How a graded picture or 8-bit clip is brought to the bits its output stores (8 for an "
            + "8-bit picture, JPEG and WebP; 10 or 12 for HEIC and AVIF): none (round to the nearest code), ordered (an 8x8 Bayer pattern) "
            + "or blue-noise (no visible pattern); deterministic, and codes that fit the output stay as they are.",
            valueName: "method"))
        var dither: Dither = .none

        @Option(help: "Quality of JPEG, lossy WebP, HEIC and AVIF outputs, 1 to 100 (default: 92).")
        var quality: Int?

        @Flag(help: "Print the time spent decoding, converting colours, applying the LUT and encoding.")
        var benchmark = false

        @OptionGroup var rawOptions: RawStreamOptions

        @OptionGroup var limits: LimitOptions

        func validate() throws {
            if rawOptions.raw != nil {
                let fileOptions = [(jobs != nil, "--jobs"), (skipExisting, "--skip-existing"), (shard != nil, "--shard"), (dither != .none, "--dither"),
                                   (videoCodec != nil, "--video-codec"), (crf != nil, "--crf"), (hdr != .keep, "--hdr"), (audioCodec != nil, "--audio-codec"),
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
            guard output != nil else {
                if let misspelt = MisspeltOption.near("--output") {
                    throw ValidationError("unknown option '\(misspelt)': did you mean '--output' (-o)?")
                }
                throw ValidationError("give the output image or folder with -o")
            }
            if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
            if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be between 1 and 100") }
            if let crf, !(0...63).contains(crf) { throw ValidationError("--crf must be between 0 and 63") }
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
                // A raw stream is a long run of frames: a table of every colour pays for itself.
                let engines = try engineOptions.loadEngines(look: look, ignoreProfile: ignoreProfile,
                                                            colorMemory: rawOptions.raw != nil ? .every : .recent,
                                                            pixelLimit: limits.pixelLimit)
                if rawOptions.raw != nil {
                    try runRaw(engine: engines.pictures)
                } else {
                    try runImages(engines)
                }
            }
        }

        private func runImages(_ engines: Engines) throws {
            guard let output else { return }
            let started = ContinuousClock.now
            let plan = try BatchPlan(inputs: inputs, output: output, shard: shard.flatMap(Shard.init(parsing:)),
                                     protected: LookSpec.paths(look))
            if !plan.singleFile {
                // A name with a picture's or clip's extension is a file the user meant, not a folder to create.
                let named = FilePath.pathExtension(output)
                if !Folders.exists(output), ImageFormat(pathExtension: named) != nil || VideoContainer.isVideoExtension(named) {
                    throw CommandFailure("-o \(output) names one file, but \(inputs.count == 1 ? "the folder \(inputs[0]) gives" : "\(inputs.count) inputs give") "
                        + "several outputs; give a folder for -o (one that does not end in .\(named))")
                }
                try Folders.create(output)
                for job in plan.jobs where !job.isVideo
                    && FilePath.pathExtension(job.input).lowercased() != FilePath.pathExtension(job.output).lowercased() {
                    Diagnostics.note("\(job.input) is a picture of another format than its name says: written as \(job.output)")
                }
            }
            var options = ImageApplier.Options(ignoreProfile: ignoreProfile,
                                               reading: ImageReadOptions(limit: limits.pixelLimit))
            if let quality { options.quality = quality }
            options.dither = dither
            let lookPrecision = dither == .none ? 0 : engines.lookPrecision
            options.lookPrecision = lookPrecision
            let declared = engines.declared
            options.engineForPicture = { image, path in try declared.engine(for: image, path: path) }
            let applier = ImageApplier(engine: engines.pictures, options: options)
            var videoOptions = VideoApplier.Options(videoCodec: videoCodec, crf: crf, audioCodec: audioCodec,
                                                    concurrentClips: jobs ?? 1, pixelLimit: limits.pixelLimit, hdr: hdr)
            videoOptions.engineForClip = engines.forClip
            videoOptions.dither = dither
            videoOptions.lookPrecision = lookPrecision
            let video = VideoApplier(engine: engines.clips, options: videoOptions)
            let progress = ProgressLine(total: plan.jobs.count)
            let runner = BatchRunner(applier: applier, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                     skipExisting: skipExisting, video: video) { job, done, total in
                progress.frames(of: job.relativePath, done: done, total: total)
            }
            let summary = runner.run(plan) { job, outcome in
                switch outcome {
                case .failed(let error):
                    progress.clear()
                    Diagnostics.error(Diagnostics.message(for: error, path: job.input))
                case .done(let report) where report.imageCount > 1 || !report.readNotes.isEmpty:
                    progress.clear()
                    if report.imageCount > 1 { Diagnostics.note("\(job.input): graded the first of its \(report.imageCount) images") }
                    for note in report.readNotes { Diagnostics.note("\(job.input): \(note)") }
                case .doneVideo(let report) where report.hdrNote != nil || !report.streamNotes.isEmpty:
                    progress.clear()
                    for note in report.streamNotes { Diagnostics.note("\(job.input): \(note)") }
                    if let note = report.hdrNote { Diagnostics.note("\(job.input): \(note)") }
                default:
                    break
                }
                progress.advance()
            }
            progress.clear()
            if !plan.singleFile {
                Diagnostics.note(summary.line(passedOver: plan.passedOverSummary, keptExisting: skipExisting))
            }
            if benchmark {
                let t = summary.times
                func seconds(_ d: Duration) -> String { Diagnostics.decimal(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18, places: 3) }
                Diagnostics.note("benchmark: \(summary.done) file\(summary.done == 1 ? "" : "s"), wall \(seconds(ContinuousClock.now - started)) s; "
                    + "summed over threads: decode \(seconds(t.decode)) s, colour management \(seconds(t.colorManagement)) s, "
                    + "LUT \(seconds(t.lut)) s, encode \(seconds(t.encode)) s")
            }
            if summary.failed > 0 { throw ExitCode.failure }
        }
    }
}

extension Interpolation: ExpressibleByArgument {}

extension Dither: ExpressibleByArgument {}

extension HDRHandling: ExpressibleByArgument {}
