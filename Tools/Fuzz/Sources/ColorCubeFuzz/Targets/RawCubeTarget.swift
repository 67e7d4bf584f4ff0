import ColorCubeConverter
import ColorCubeCore

extension FuzzTarget {
    /// Core Image cube data: the size from the length, then the values.
    static let rawCube = FuzzTarget(name: "raw") { bytes in
        _ = try? RawCubeFormat.decode(Array(bytes), path: "fuzz.bin")
    }
}
