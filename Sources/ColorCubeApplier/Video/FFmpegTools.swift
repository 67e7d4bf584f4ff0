#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ColorCubeCore
import Foundation

/// Where the FFmpeg programs are, and what the installed ffmpeg offers.
///
/// `ffprobe` reads every clip and an `ffmpeg` program writes every output (it copies streams into
/// any container by its command line's rules). The frames themselves are decoded and encoded in
/// colorcube's process through FFmpeg's libraries where they are installed (`FFmpegLibraries`),
/// else by a second and third ffmpeg with the frames on pipes, which costs a few per cent of the
/// encoder's time (see the Video article in ColorCubeApplier.docc).
public enum FFmpegTools {
    /// The full path of `program` found on the PATH, or nil.
    public static func locate(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = folder.hasSuffix("/") ? "\(folder)\(program)" : "\(folder)/\(program)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// ffmpeg and ffprobe, or the error for `path` (the clip that needs them).
    static func programs(for path: String) throws(VideoError) -> (ffmpeg: String, ffprobe: String) {
        guard let ffprobe = locate("ffprobe") else { throw .ffmpegMissing(path: path, program: "ffprobe") }
        guard let ffmpeg = locate("ffmpeg") else { throw .ffmpegMissing(path: path, program: "ffmpeg") }
        return (ffmpeg, ffprobe)
    }

    /// Ends every ffmpeg and ffprobe colorcube started, at once: for a process about to exit on an
    /// interrupt, before it removes its temporary files.
    public static func terminateChildren() {
        ChildProcess.terminateAll()
    }

    /// What `ffmpeg -h encoder=NAME` says about an encoder.
    struct EncoderInfo: Sendable {
        var name: String
        /// The pixel formats it accepts, in its order of preference; empty when it does not say.
        var pixelFormats: [String]
    }

    private static let encoderCache = Locked<[String: EncoderInfo?]>([:])

    /// The encoder `name`, or nil when this ffmpeg has none of that name.
    static func encoder(_ name: String, ffmpeg: String) throws(VideoError) -> EncoderInfo? {
        if let cached = encoderCache.withLock({ $0[name] }) { return cached }
        if FFmpegLibraries.available {
            // The same list `ffmpeg -h encoder=NAME` prints, without starting ffmpeg.
            let info = FFmpegLibraries.encoderFormats(name).map { EncoderInfo(name: name, pixelFormats: $0) }
            encoderCache.withLock { $0[name] = info }
            return info
        }
        let result = try ChildProcess.capture(executable: ffmpeg, arguments: ["-hide_banner", "-h", "encoder=\(name)"])
        let text = String(decoding: result.output, as: UTF8.self)
        var info: EncoderInfo?
        if text.contains("Encoder \(name) [") {
            var formats: [String] = []
            for line in text.split(separator: "\n") where line.contains("Supported pixel formats:") {
                formats = line.split(separator: ":", maxSplits: 1).last.map {
                    $0.split(separator: " ").map(String.init)
                } ?? []
            }
            info = EncoderInfo(name: name, pixelFormats: formats)
        }
        encoderCache.withLock { $0[name] = info }
        return info
    }
}
