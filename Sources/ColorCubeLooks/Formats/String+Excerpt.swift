extension StringProtocol {
    /// The text as an error message quotes it: at most 40 characters, then "..." when it is
    /// longer, so that a garbage line of a million characters is not echoed whole.
    var excerpt: String {
        let limit = 40
        guard count > limit else { return String(self) }
        return String(prefix(limit)) + "..."
    }
}
