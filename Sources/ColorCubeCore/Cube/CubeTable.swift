/// Anything that can be read as a colour cube, entry by entry, in red-fastest order.
///
/// `ColorCube` stores Float32 values; other conformers are views on data that is already in memory
/// in another form (the code values of a decoded reference image, the identity lattice), so that a
/// 256-cube can be written to a file without a 268 MB Float32 copy.
///
/// Tables are `Sendable`: analyses read one from all cores at once, so a conformer must allow
/// concurrent reads (every conformer is an immutable value or view).
public protocol CubeTable: Sendable {
    /// Lattice points per axis.
    var size: Int { get }
    /// The RGBA entry at red-fastest index `index` (0..<size^3).
    func entry(at index: Int) -> SIMD4<Float>

    /// Copies the entries at red-fastest indices `range` into `buffer` (at least `range.count` long).
    /// Writers and analyses read tables in chunks through this, so a conformer can serve a chunk
    /// with one tight loop instead of one call per entry.
    func copyEntries(_ range: Range<Int>, into buffer: UnsafeMutablePointer<SIMD4<Float>>)
}

extension CubeTable {
    /// size^3.
    @inlinable
    public var entryCount: Int { size * size * size }

    /// Entry by entry, for conformers with nothing faster.
    public func copyEntries(_ range: Range<Int>, into buffer: UnsafeMutablePointer<SIMD4<Float>>) {
        for (offset, index) in range.enumerated() {
            buffer[offset] = entry(at: index)
        }
    }

    /// Calls `body` with consecutive chunks of entries (start index and buffer), in order.
    public func forEachChunk(of chunkSize: Int = 1 << 14, _ body: (Int, UnsafeBufferPointer<SIMD4<Float>>) throws -> Void) rethrows {
        let buffer = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: chunkSize)
        defer { buffer.deallocate() }
        var start = 0
        while start < entryCount {
            let count = min(chunkSize, entryCount - start)
            copyEntries(start..<(start + count), into: buffer)
            try body(start, UnsafeBufferPointer(start: buffer, count: count))
            start += count
        }
    }

    /// The smallest and largest value of each of red, green and blue over all entries.
    public func outputRange() -> (min: SIMD3<Float>, max: SIMD3<Float>) {
        var low = SIMD4<Float>(repeating: .infinity)
        var high = SIMD4<Float>(repeating: -.infinity)
        forEachChunk { _, entries in
            for e in entries {
                low = pointwiseMin(low, e)
                high = pointwiseMax(high, e)
            }
        }
        return (SIMD3(low.x, low.y, low.z), SIMD3(high.x, high.y, high.z))
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

    /// The 2-cube: corners only, which trilinear and tetrahedral interpolation read as the
    /// identity exactly.
    public static let unitCube = IdentityTable(unchecked: 2)

    private init(unchecked size: Int) {
        self.size = size
    }

    public func entry(at index: Int) -> SIMD4<Float> {
        let r = index % size
        let g = (index / size) % size
        let b = index / (size * size)
        // Divided rather than multiplied by 1/(size-1): exactly the nearest Float to i/(size-1).
        return SIMD4(Float(r), Float(g), Float(b), Float(size - 1)) / Float(size - 1)
    }
}
