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

    /// - Throws: `SafetyError.outputIsInput` when `output` is one of `inputs`.
    public static func refuseOverwritingInput(output: String, inputs: [String]) throws(SafetyError) {
        for input in inputs where input == output || sameFile(input, output) {
            throw .outputIsInput(path: output)
        }
    }
}

/// Refusals that protect the user's files.
public enum SafetyError: Error, Equatable, Sendable, CustomStringConvertible {
    case outputIsInput(path: String)

    public var description: String {
        switch self {
        case .outputIsInput(let path):
            "refusing to write \(path): it is an input; choose another output name"
        }
    }
}
