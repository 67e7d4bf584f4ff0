#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Ctrl-C and SIGTERM while a clip is being encoded: `colorcube apply` exits with 128 + the
/// signal and leaves neither the output nor its temporary; it has started no other program that
/// could outlive it. Skipped without ffmpeg and ffprobe (which make and read the clips).
@Suite(.enabled(if: ExternalTool.path("ffmpeg") != nil && ExternalTool.path("ffprobe") != nil,
                "ffmpeg and ffprobe are not installed"))
struct VideoInterruptTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalMidEncodeLeavesNoOutputNoTemporaryAndNoChild(signal: Int32) throws {
        let scratch = try Scratch()
        let source = scratch.file("long.mp4")
        // 30 s of small frames: long enough that the encode is still running when the signal comes.
        try VideoCommandTests.makeClip(source, size: "320x240", frames: 750, matrix: "bt709", fast: true)
        try FileManager.default.createDirectory(atPath: scratch.file("out"), withIntermediateDirectories: true)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.binary)
        process.arguments = ["apply", VideoCommandTests.realLook, source, "-o", scratch.file("out/graded.mp4")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier

        // Mid-encode: the temporary has grown.
        var children: [pid_t] = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning {
            children += Self.children(of: pid)
            let written = scratch.listing("out").map { Self.size(scratch.file("out/" + $0)) }.reduce(0, +)
            if written > 0 { break }
            usleep(20_000)
        }
        try #require(process.isRunning, "colorcube finished before the signal could be sent")
        #expect(children.isEmpty, "colorcube started other programs: \(children)")
        #expect(kill(pid, signal) == 0)
        process.waitUntilExit()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + signal)
        #expect(scratch.listing("out") == [], "left behind: \(scratch.listing("out"))")
    }

    /// The processes whose parent is `pid`, from /proc/PID/stat.
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let child = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After "pid (comm)": state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
