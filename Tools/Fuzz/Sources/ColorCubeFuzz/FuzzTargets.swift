/// Every fuzz target. Adding one is a file in Targets/ and a line here.
enum FuzzTargets {
    static let all: [FuzzTarget] = [
        .cubeText,
        .threeDL,
        .rawCube,
        .deviceLink,
        .png,
        .jpeg,
        .rawStream,
    ]

    /// The target called `name`, or nil.
    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
