#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ColorCubeCore
import Foundation

/// Where the ffmpeg program is, for the clips FFmpeg's libraries in process do not take yet
/// (`VideoApplier+Programs`), and ending the ones colorcube started.
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

    /// The ffmpeg program, or the error for `path` (the clip that needs it).
    static func programs(for path: String) throws(VideoError) -> String {
        guard let ffmpeg = locate("ffmpeg") else { throw .ffmpegMissing(path: path, program: "ffmpeg") }
        return ffmpeg
    }

    /// Ends every ffmpeg and ffprobe colorcube started, at once: for a process about to exit on an
    /// interrupt, before it removes its temporary files.
    public static func terminateChildren() {
        ChildProcess.terminateAll()
    }
}
