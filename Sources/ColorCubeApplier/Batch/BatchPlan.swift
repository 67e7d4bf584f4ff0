import ColorCubeCore
import ColorCubeImaging
import Foundation

/// Turns the user's inputs (files and folders, mixed) and one output into the list of images to
/// process, checking before anything is written that no two inputs share an output and that no
/// output would land on an input.
///
/// - One input file and an output with an image extension: that file, in the format the extension
///   names. One video clip (recognised by content) and an output with a video extension (.mp4,
///   .mov, .mkv, ...): that clip, in the container the extension names.
/// - Otherwise the output is a folder mirroring the inputs: a single input folder's tree lands
///   directly in it; with several inputs each folder becomes OUTPUT/<its name>/ and loose files land
///   in OUTPUT.
/// - Folders are walked recursively; hidden files and folders are skipped, and so are files that no
///   readable codec of `ImageCodecs` recognises by content and that are not video containers
///   (`VideoContainer`) either (they are counted in `passedOver`). Clips keep their name and
///   container.
///   Files named directly are always taken (a bad one fails in the run).
public struct BatchPlan: Sendable {
    public private(set) var jobs: [BatchJob]
    /// Files found in folders and left out, with why: not an image, or a format colorcube
    /// recognises but does not grade (camera raw). Under a shard, only that shard's files.
    public private(set) var passedOver: [PassedOver] = []
    /// True when the output names a single file rather than a folder.
    public let singleFile: Bool

    /// Plans the batch.
    /// - Parameter protected: other files of the run that no output may replace (the look).
    /// - Throws: `BatchError` or `SafetyError` naming the inputs or output at fault.
    public init(inputs: [String], output: String, shard: Shard? = nil, protected: [String] = []) throws {
        guard !inputs.isEmpty else { throw BatchError.noInputs }
        let fileManager = FileManager.default
        for input in inputs where !fileManager.fileExists(atPath: input) {
            throw BatchError.missingInput(path: input)
        }
        let outputExtension = FilePath.pathExtension(output)
        let outputFormat = ImageFormat(pathExtension: outputExtension)
        let singleFileInput = inputs.count == 1 && !Folders.exists(inputs[0]) && !Folders.exists(output)
        let singleClip = singleFileInput && VideoContainer.isVideoExtension(outputExtension)
            && VideoContainer.matches(path: inputs[0])
        if !singleClip, singleFileInput, VideoContainer.isVideoExtension(outputExtension),
           VideoContainer.isVideoExtension(FilePath.pathExtension(inputs[0])) {
            // "clip.mp4 -o graded.mp4" where clip.mp4 is no clip: the input is what is wrong.
            throw BatchError.notAClip(path: inputs[0], reason: Self.whyNotAClip(inputs[0]))
        }
        if !singleClip, singleFileInput, !outputExtension.isEmpty, !VideoContainer.isVideoExtension(outputExtension),
           VideoContainer.matches(path: inputs[0]) {
            throw BatchError.clipToNonVideoOutput(input: inputs[0], output: output)
        }
        if !singleClip, singleFileInput, outputFormat == nil, !outputExtension.isEmpty {
            // "photo.jpg -o photo.gif" names a file in a format colorcube does not write, not a folder.
            throw BatchError.unsupportedOutputFormat(path: output)
        }
        if singleClip {
            singleFile = true
            jobs = [BatchJob(input: inputs[0], output: output, relativePath: FilePath.split(output).name, isVideo: true)]
        } else if singleFileInput, outputFormat != nil {
            singleFile = true
            jobs = [BatchJob(input: inputs[0], output: output, relativePath: FilePath.split(output).name,
                             outputFormat: outputFormat)]
        } else {
            singleFile = false
            if fileManager.fileExists(atPath: output), !Folders.exists(output) {
                throw BatchError.outputNotAFolder(path: output)
            }
            var planned: [BatchJob] = []
            let folders = inputs.filter(Folders.exists)
            for input in inputs {
                if folders.contains(input) {
                    let prefix = folders.count == 1 && inputs.count == 1 ? "" : Self.folderName(input) + "/"
                    for relative in Self.walk(input) {
                        let path = Self.join(input, relative)
                        let probe = try? FileProbe(path: path)
                        let codec = probe.flatMap(ImageCodecs.sniff(probe:))
                        if codec == nil, let probe, VideoContainer.matches(probe) {
                            planned.append(BatchJob(input: path, output: Self.join(output, prefix + relative),
                                                    relativePath: prefix + relative, isVideo: true))
                            continue
                        }
                        guard let codec, codec.isReadable else {
                            let reason: PassedOver.Reason = codec.map { $0.isPictureToConvert ? .pictureToConvert($0.displayName)
                                : .notGraded($0.displayName) } ?? .notAnImage
                            passedOver.append(PassedOver(path: path, relativePath: prefix + relative, reason: reason))
                            continue
                        }
                        // A picture whose name says no format colorcube writes (a JPEG named .CR2
                        // or .dat) is written under the name of what it is; one named for another
                        // format colorcube writes (a JPEG named .png) is written in that format.
                        var outputRelative = prefix + relative
                        if ImageFormat(pathExtension: FilePath.pathExtension(relative)) == nil,
                           let fitting = codec.fileExtensions.first {
                            outputRelative = FilePath.replacingExtension(of: outputRelative, with: fitting)
                        }
                        planned.append(BatchJob(input: path, output: Self.join(output, outputRelative),
                                                relativePath: prefix + relative,
                                                outputFormat: ImageFormat(pathExtension: FilePath.pathExtension(outputRelative))))
                    }
                } else {
                    let name = FilePath.split(input).name
                    planned.append(BatchJob(input: input, output: Self.join(output, name), relativePath: name,
                                            outputFormat: ImageFormat(pathExtension: FilePath.pathExtension(name)),
                                            isVideo: VideoContainer.matches(path: input)))
                }
            }
            jobs = planned
            if planned.isEmpty {
                throw BatchError.noImages(inputs: inputs, passedOver: passedOverSummary)
            }
            try Self.refuseOutputInsideInputs(output: output, folders: folders)
        }
        try Self.refuseCollisions(jobs)
        try Self.refuseOverwritingInputs(jobs, protected: protected)
        if let shard {
            jobs = jobs.filter { shard.contains($0.relativePath) }
            passedOver = passedOver.filter { shard.contains($0.relativePath) }
        }
    }

    /// A file a folder walk left out.
    public struct PassedOver: Sendable, Equatable {
        /// Why a file was left out.
        public enum Reason: Sendable, Equatable {
            /// No codec recognises it: not an image, or one in a format colorcube does not know.
            case notAnImage
            /// A picture in a format colorcube recognises but does not read ("GIF", "BMP"):
            /// converting it to one it reads is all it takes.
            case pictureToConvert(String)
            /// A format colorcube recognises but does not grade for another reason ("camera raw").
            case notGraded(String)
        }

        public var path: String
        public var relativePath: String
        public var reason: Reason
    }

    /// What was passed over, as counted phrases for a summary line that say why and name the first
    /// few files: "2 GIF/BMP pictures (a.gif, b.bmp: formats colorcube does not read; convert them
    /// to PNG)", "3 files colorcube does not recognise as images (list.csv, notes.txt, x)",
    /// "2 camera raw files (a.cr2, b.nef: develop them to TIFF or PNG first)"; empty when nothing was.
    public var passedOverSummary: [String] {
        func named(_ files: [PassedOver]) -> String {
            files.prefix(4).map(\.relativePath).joined(separator: ", ") + (files.count > 4 ? " and \(files.count - 4) more" : "")
        }
        var phrases: [String] = []
        var pictures: [PassedOver] = [], kinds: [String] = []
        for file in passedOver {
            guard case .pictureToConvert(let kind) = file.reason else { continue }
            pictures.append(file)
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        if !pictures.isEmpty {
            let one = pictures.count == 1
            phrases.append("\(pictures.count) \(kinds.joined(separator: "/")) picture\(one ? "" : "s") (\(named(pictures)): "
                + (kinds.count == 1 ? "a format" : "formats") + " colorcube does not read; convert \(one ? "it" : "them") to PNG)")
        }
        let notImages = passedOver.filter { $0.reason == .notAnImage }
        if !notImages.isEmpty {
            phrases.append((notImages.count == 1 ? "1 file" : "\(notImages.count) files")
                + " colorcube does not recognise as images (\(named(notImages)))")
        }
        var notGraded: [String: [PassedOver]] = [:]
        for file in passedOver {
            if case .notGraded(let kind) = file.reason { notGraded[kind, default: []].append(file) }
        }
        for (kind, files) in notGraded.sorted(by: { $0.key < $1.key }) {
            let one = files.count == 1
            phrases.append((one ? "1 \(kind) file" : "\(files.count) \(kind) files")
                + " (\(named(files)): develop \(one ? "it" : "them") to TIFF or PNG first)")
        }
        return phrases
    }

    /// Relative paths of everything below `root` that is not a folder (the caller keeps what reads
    /// as an image), hidden entries skipped, sorted.
    static func walk(_ root: String) -> [String] {
        var found: [String] = []
        let fileManager = FileManager.default
        func visit(_ relative: String) {
            let folder = relative.isEmpty ? root : join(root, relative)
            guard let names = try? fileManager.contentsOfDirectory(atPath: folder) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                if Folders.exists(join(root, child)) {
                    visit(child)
                } else {
                    found.append(child)
                }
            }
        }
        visit("")
        return found
    }

    static func join(_ folder: String, _ relative: String) -> String {
        folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
    }

    static func folderName(_ path: String) -> String {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        let name = FilePath.split(trimmed).name
        return name == "." || name.isEmpty ? URL(fileURLWithPath: trimmed).standardizedFileURL.lastPathComponent : name
    }

    private static func refuseCollisions(_ jobs: [BatchJob]) throws {
        var seen: [String: String] = [:]
        for job in jobs {
            let key = OutputSafety.canonical(job.output)
            if let other = seen[key] {
                throw BatchError.outputCollision(first: other, second: job.input, output: job.output)
            }
            seen[key] = job.input
        }
    }

    private static func refuseOverwritingInputs(_ jobs: [BatchJob], protected: [String]) throws {
        let inputs = Set((jobs.map(\.input) + protected).map(OutputSafety.canonical))
        for job in jobs where inputs.contains(OutputSafety.canonical(job.output)) {
            throw SafetyError.outputIsInput(path: job.output)
        }
    }

    private static func refuseOutputInsideInputs(output: String, folders: [String]) throws {
        for folder in folders where OutputSafety.isInside(output, folder: folder) {
            throw BatchError.outputInsideInput(output: output, input: folder)
        }
    }

    /// What a file named as a clip is instead, in words: empty, an image, or unknown bytes.
    private static func whyNotAClip(_ path: String) -> String {
        guard let probe = try? FileProbe(path: path) else { return "it cannot be opened" }
        if probe.head.isEmpty { return "it is empty (0 bytes)" }
        if let codec = ImageCodecs.sniff(probe: probe) { return "it is a \(codec.displayName) image, not a video clip" }
        return "its first bytes are not those of a video container colorcube knows"
    }
}
