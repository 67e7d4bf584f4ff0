/// A failure found by a command itself rather than a library: printed as one error line, exit 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
