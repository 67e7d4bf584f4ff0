/// Every fuzz target. Adding one is a file in Targets/ and a line here; an image decoder needs
/// neither, as each codec in the image codec table is a target of its own (`imageCodecs`).
enum FuzzTargets {
    static let all: [FuzzTarget] = [
        .cubeText,
        .threeDL,
        .rawCube,
        .deviceLink,
        .rawStream,
        .imageSniffing,
    ] + FuzzTarget.imageCodecs

    /// The target called `name`, or nil.
    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
