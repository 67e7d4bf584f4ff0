import ColorCubeConverter
import ColorCubeCore

extension FuzzTarget {
    /// The .cube parser, then the bake (shaper, domain, 1D tables) of whatever it accepted.
    static let cubeText = FuzzTarget(name: "cube") { bytes in
        _ = try? CubeTextFormat.parseContents(bytes, path: "fuzz.cube").baked()
    }
}
