#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Guards against writing over a user's input.
public enum OutputSafety {
    /// True when both paths name the same existing file (same device and inode), whatever the
    /// spelling (relative, absolute, through links).
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// `path` made absolute with every link in its existing part resolved (realpath of the longest
    /// existing ancestor, then the rest as written), so two spellings of one place compare equal
    /// even when the place does not exist yet.
    public static func canonical(_ path: String) -> String {
        var absolute = path
        if !absolute.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd = getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "."
            absolute = cwd + "/" + path
        }
        var parts = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while true {
            let candidate = "/" + parts.joined(separator: "/")
            if let resolved = realpath(candidate, nil) {
                defer { free(resolved) }
                var base = String(cString: resolved)
                for part in rest.reversed() {
                    switch part {
                    case ".": continue
                    case "..": base = FilePath.split(base).folder
                    default: base = base == "/" ? "/" + part : base + "/" + part
                    }
                }
                return base
            }
            guard let last = parts.popLast() else { return absolute }
            rest.append(last)
        }
    }

    /// True when `path` is `folder` or lies below it, links resolved.
    public static func isInside(_ path: String, folder: String) -> Bool {
        let target = canonical(path), root = canonical(folder)
        return target == root || target.hasPrefix(root == "/" ? "/" : root + "/")
    }

    /// - Throws: `SafetyError.outputIsInput` when `output` is one of `inputs`.
    public static func refuseOverwritingInput(output: String, inputs: [String]) throws(SafetyError) {
        for input in inputs where input == output || sameFile(input, output) || canonical(input) == canonical(output) {
            throw .outputIsInput(path: output)
        }
    }
}
