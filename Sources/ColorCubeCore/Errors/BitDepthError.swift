/// A bit depth asked of a format that does not hold it: the one refusal for a bad bit depth,
/// whichever writer or generator is asked. Modules whose errors are one enum wrap it in a case.
public struct BitDepthError: ColorCubeError, Equatable {
    /// The file that was to be written, or nil for a value given in code.
    public var path: String?
    /// The format with its article, as `LUTFileFormat.noun` says it: "a Hald PNG", "a .3dl".
    public var format: String
    /// The bits per value asked for.
    public var asked: Int
    /// The bits per value the format holds; empty when it has one fixed precision.
    public var allowed: [Int]

    public init(path: String?, format: String, asked: Int, allowed: [Int]) {
        self.path = path
        self.format = format
        self.asked = asked
        self.allowed = allowed
    }

    public var description: String {
        let refusal: String
        if allowed.isEmpty {
            refusal = "\(format) has no choice of bit depth"
        } else {
            let choices = allowed.count == 1 ? "\(allowed[0])"
                : allowed.dropLast().map(String.init).joined(separator: ", ") + " or \(allowed[allowed.count - 1])"
            refusal = "\(format) holds \(choices) bits per value, not \(asked)"
        }
        return path.map { "cannot write \($0): \(refusal)" } ?? refusal
    }
}
