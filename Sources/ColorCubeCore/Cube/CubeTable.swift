/// Anything that can be read as a colour cube, entry by entry, in red-fastest order.
///
/// `ColorCube` stores Float32 values; other conformers are views on data that is already in memory
/// in another form (the code values of a decoded reference image, the identity lattice), so that a
/// 256-cube can be written to a file without a 268 MB Float32 copy.
public protocol CubeTable {
    /// Lattice points per axis.
    var size: Int { get }
    /// The RGBA entry at red-fastest index `index` (0..<size^3).
    func entry(at index: Int) -> SIMD4<Float>
}

extension CubeTable {
    /// size^3.
    @inlinable
    public var entryCount: Int { size * size * size }

    /// The smallest and largest value of each of red, green and blue over all entries.
    public func outputRange() -> (min: SIMD3<Float>, max: SIMD3<Float>) {
        var low = SIMD3<Float>(repeating: .infinity)
        var high = SIMD3<Float>(repeating: -.infinity)
        for index in 0..<entryCount {
            let e = entry(at: index)
            let rgb = SIMD3(e.x, e.y, e.z)
            low = pointwiseMin(low, rgb)
            high = pointwiseMax(high, rgb)
        }
        return (low, high)
    }
}

/// The identity lattice as a table, computed on demand: node (r, g, b) is (r, g, b) / (size - 1).
public struct IdentityTable: CubeTable, Sendable {
    public let size: Int

    /// - Throws: `CubeError.invalidSize` when `size` is outside 2...256.
    public init(size: Int) throws(CubeError) {
        guard ColorCube.sizeRange.contains(size) else { throw .invalidSize(size) }
        self.size = size
    }

    public func entry(at index: Int) -> SIMD4<Float> {
        let scale = 1 / Float(size - 1)
        let r = index % size
        let g = (index / size) % size
        let b = index / (size * size)
        return SIMD4(Float(r) * scale, Float(g) * scale, Float(b) * scale, 1)
    }
}
