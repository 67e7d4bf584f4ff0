/// Typo distances, for "did you mean" suggestions.
public enum EditDistance {
    /// The Levenshtein distance between `a` and `b` (insertions, deletions and substitutions of
    /// one character each cost 1); `a` is cut to 64 characters so a pasted paragraph costs little.
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.prefix(64)), b = Array(b.prefix(64))
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
