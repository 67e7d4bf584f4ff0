/// A misspelt long option found in the command line, for the checks that run before the argument
/// parser reports unknown options (a missing `-o` is found first, and `--ouput out.jpg` would
/// otherwise only be told to give `-o`).
enum MisspeltOption {
    /// The first `--name` among `arguments` (before a lone `--`) that is not `intended` but within
    /// two edits of it (`--ouput`, `--outptu`, `--otput`).
    static func near(_ intended: String, in arguments: [String] = CommandLine.arguments) -> String? {
        for argument in arguments.prefix(while: { $0 != "--" }) where argument.hasPrefix("--") && argument != intended {
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if name != intended, editDistance(Array(name), Array(intended)) <= 2 { return name }
        }
        return nil
    }

    /// Levenshtein distance, with a transposition of neighbours counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], previous2[j - 2] + 1) }
            }
            previous2 = previous
            previous = current
        }
        return previous[b.count]
    }
}
