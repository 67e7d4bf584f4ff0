import Foundation
import Testing

/// Every example a command's `--help` ends with, run as a user would type it (through a shell, so
/// globs and `~` expand) in a folder holding files of the names the examples use: each must exit
/// 0. The files are the sample looks and photos under those names, so an example that stops
/// working shows here, not in a user's first hour.
@Suite struct HelpExamplesRunTests {
    static let root = FirstHourCommandTests.root

    /// The examples of `command`'s help, without their comments.
    static func examples(of command: String) throws -> [String] {
        let help = try CommandRunner.run([command, "--help"]).stdoutText
        // The examples end at the first blank line (USAGE follows).
        let block = (help.components(separatedBy: "EXAMPLES:").dropFirst().first ?? "")
            .trimmingCharacters(in: .newlines).components(separatedBy: "\n\n").first ?? ""
        // The help wraps long examples: a line that does not start a command continues the one before.
        var lines: [String] = []
        for line in block.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("colorcube ") || lines.isEmpty { lines.append(line) } else { lines[lines.count - 1] += " " + line }
        }
        return lines.map { line in
            String(line.split(separator: "#", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces)
        }.filter { $0.hasPrefix("colorcube \(command)") }
    }

    /// A folder with every file the examples name: looks, photos, folders of photos, a clip and raw frames.
    static func workspace() throws -> Scratch {
        let scratch = try Scratch()
        let files = FileManager.default, luts = root + "/LUTs", samples = luts + "/samples"
        func copy(_ source: String, _ names: [String]) throws {
            for name in names { try files.copyItem(atPath: source, toPath: scratch.file(name)) }
        }
        for folder in ["LUTs", "before", "after", "home/Pictures", "refs-unused"] {
            try files.createDirectory(atPath: scratch.file(folder), withIntermediateDirectories: true)
        }
        try copy(luts + "/teal-orange.png", ["edited.png", "look.png", "LUTs/teal-orange.png"])
        try copy(luts + "/warm-fade.png", ["film.png", "LUTs/warm-fade.png"])
        try copy(luts + "/teal-orange.cube", ["look.cube", "sony-look.cube", "slog3-to-709.cube", "camera-log.cube",
                                              "rec709-to-log.cube", "grade.cube", "a.cube", "b.cube", "log-to-709.cube",
                                              "LUTs/teal-orange.cube"])
        try copy(luts + "/cyanotype.cube", ["LUTs/cyanotype.cube"])
        try copy(samples + "/rocket.jpg", ["photo.jpg", "home/Pictures/rocket.jpg"])
        try copy(samples + "/coffee.png", ["before.png", "before/coffee.png"])
        for name in ["after.png", "after/coffee.png"] {
            let graded = try CommandRunner.run(["apply", luts + "/warm-fade.cube", samples + "/coffee.png", "-o", scratch.file(name)])
            #expect(graded.status == 0, "\(graded.stderr)")
        }
        let grade = "<ColorCorrection id=\"cool\"><SOPNode><Slope>0.9 1 1.1</Slope><Offset>0 0 0.01</Offset>"
            + "<Power>1 1 1</Power></SOPNode><SatNode><Saturation>0.9</Saturation></SatNode></ColorCorrection>"
        try ("<ColorCorrectionCollection xmlns=\"urn:ASC:CDL:v1.01\">" + grade + "</ColorCorrectionCollection>\n")
            .write(toFile: scratch.file("shot.ccc"), atomically: true, encoding: .utf8)
        for name in ["grade.cc", "look.cc"] {
            try (grade + "\n").write(toFile: scratch.file(name), atomically: true, encoding: .utf8)
        }
        for (name, arguments) in [("show-lut.clf", [luts + "/teal-orange.cube"]), ("display.clf", ["--from", "lin_rec709_scene", "--to", "srgb_tx"]),
                                  ("shaper.spi1d", ["--from", "acescct", "--to", "lin_ap1_scene"])] {
            let made = try CommandRunner.run(["convert"] + arguments + ["-o", scratch.file(name)])
            #expect(made.status == 0, "\(name): \(made.stderr)")
        }
        try Data(count: 1920 * 1080 * 3).write(to: URL(fileURLWithPath: scratch.file("in.rgb")))
        if let ffmpeg = ExternalTool.path("ffmpeg") {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ffmpeg)
            process.arguments = ["-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10", "-t", "0.5",
                                 "-pix_fmt", "yuv420p", "-c:v", "libx264", scratch.file("clip.mp4")]
            try process.run()
            process.waitUntilExit()
        }
        return scratch
    }

    @Test(arguments: ["generate", "convert", "apply", "combine", "invert", "info", "preview", "learn", "spaces"])
    func everyExampleRuns(command: String) throws {
        let examples = try Self.examples(of: command)
        #expect(examples.count >= 2, "\(command) --help shows \(examples.count) examples")
        let scratch = try Self.workspace()
        let bin = URL(fileURLWithPath: CommandRunner.binary).deletingLastPathComponent().path
        for example in examples {
            if example.contains("clip.mp4"), !FileManager.default.fileExists(atPath: scratch.file("clip.mp4")) {
                print("\(example): skipped, no ffmpeg to make clip.mp4")
                continue
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", example]
            process.currentDirectoryURL = URL(fileURLWithPath: scratch.path)
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["HOME"] = scratch.file("home")
            process.environment = environment
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(example): \(text)")
        }
    }
}
