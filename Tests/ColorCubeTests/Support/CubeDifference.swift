import ColorCubeCore

/// The largest |a - b| over red, green and blue of all entries of two cubes; infinity when their
/// sizes differ.
func largestDifference(_ a: some CubeTable, _ b: some CubeTable) -> Float {
    guard a.size == b.size else { return .infinity }
    var largest: Float = 0
    for index in 0..<a.entryCount {
        let d = a.entry(at: index) - b.entry(at: index)
        largest = max(largest, abs(d.x), abs(d.y), abs(d.z))
    }
    return largest
}
