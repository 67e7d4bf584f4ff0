extension Double {
    /// The shortest decimal that reads back as this value, in Float32's shortest form when the
    /// value is a Float32 (as values read from Float32 files are): 0.4, not 0.4000000059604645.
    /// Either way the text parses back to exactly this Double.
    var shortestText: String {
        if let single = Float(exactly: self) { return "\(single)" }
        return "\(self)"
    }
}
