/// Every fuzz target. A LUT format or an image decoder needs no change here: each entry of the
/// LUT format table and of the image codec table is a target of its own (`lutFormats`,
/// `imageCodecs`). Anything else is a file in Targets/ and a line here.
enum FuzzTargets {
    static let all: [FuzzTarget] = [
        .rawStream,
        .imageSniffing,
        .jpegCoefficients,
    ] + FuzzTarget.lutFormats + FuzzTarget.imageCodecs

    /// The target called `name`, or nil.
    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
