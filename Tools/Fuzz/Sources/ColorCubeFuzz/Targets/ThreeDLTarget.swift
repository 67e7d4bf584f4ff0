import ColorCubeConverter
import ColorCubeCore

extension FuzzTarget {
    /// The .3dl parser, then the bake (shaper) of whatever it accepted.
    static let threeDL = FuzzTarget(name: "3dl") { bytes in
        _ = try? ThreeDLFormat.parseContents(bytes, path: "fuzz.3dl").baked()
    }
}
