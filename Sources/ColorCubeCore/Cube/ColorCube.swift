/// A colour cube: a 3D lookup table of RGBA entries on an `size`^3 lattice.
///
/// Storage is exactly what Core Image's `CIColorCube` takes as `inputCubeData`: `size`^3 entries of
/// four `Float`s (red, green, blue, alpha), red varying fastest, then green, then blue, so entry
/// (r, g, b) starts at `4 * (r + size * g + size * size * b)`. Lattice node i on an axis stands for
/// the input value i / (size - 1); values may lie outside 0...1 (a look may push colours out of
/// gamut), and appliers clamp inputs, never the table.
public struct ColorCube: Sendable, Equatable, CubeTable {
    /// Lattice points per axis, 2...256.
    public let size: Int
    /// `size`^3 * 4 values, RGBA, red fastest.
    public private(set) var values: [Float]

    /// The smallest and largest lattice sizes any reader or writer accepts.
    public static let sizeRange = 2...256

    /// The lattice size in `sizeRange` whose cube has `entryCount` entries, or nil when there is none.
    public static func size(entryCount: Int) -> Int? {
        sizeRange.first { $0 * $0 * $0 == entryCount }
    }

    /// Wraps existing RGBA values.
    /// - Throws: `CubeError.invalidSize` when `size` is outside 2...256,
    ///   `CubeError.wrongValueCount` when `values.count` is not `size`^3 * 4.
    public init(size: Int, values: [Float]) throws(CubeError) {
        guard Self.sizeRange.contains(size) else { throw .invalidSize(size) }
        guard values.count == size * size * size * 4 else {
            throw .wrongValueCount(expected: size * size * size * 4, actual: values.count)
        }
        self.size = size
        self.values = values
    }

    /// Samples `transform` at every lattice node; alpha is 1.
    /// - Parameter transform: maps an input colour in 0...1 to an output colour.
    /// - Throws: `CubeError.invalidSize` when `size` is outside 2...256.
    public init(size: Int, sampling transform: (SIMD3<Float>) -> SIMD3<Float>) throws(CubeError) {
        guard Self.sizeRange.contains(size) else { throw .invalidSize(size) }
        // Divided rather than multiplied by 1/(size-1): node i is exactly the nearest Float to i/(size-1).
        let last = Float(size - 1)
        self.size = size
        self.values = [Float](repeating: 1, count: size * size * size * 4)
        setColors { r, g, b in transform(SIMD3(Float(r), Float(g), Float(b)) / last) }
    }

    /// Samples `transform` in Float64 at every lattice node, blue planes spread across all cores;
    /// alpha is 1. For transforms that cost enough per node to be worth the threads (baking a
    /// chain, inverting a 3D LUT).
    /// - Parameter transform: maps node (r, g, b) / (size - 1) to an output colour.
    /// - Throws: `CubeError.invalidSize` when `size` is outside 2...256.
    public static func sampledInParallel(size: Int, _ transform: @Sendable (SIMD3<Double>) -> SIMD3<Double>)
        throws(CubeError) -> ColorCube {
        guard sizeRange.contains(size) else { throw .invalidSize(size) }
        let last = Double(size - 1)
        let planeSize = size * size
        var values = [Float](repeating: 1, count: size * planeSize * 4)
        values.withUnsafeMutableBufferPointer { values in
            guard let base = values.baseAddress else { return }
            let shared = DisjointRegions(base, itemStride: 4 * planeSize)
            ParallelLoop.run(iterations: size) { b in
                var pointer = shared.start(of: b..<(b + 1))
                for g in 0..<size {
                    for r in 0..<size {
                        let output = transform(SIMD3(Double(r), Double(g), Double(b)) / last)
                        pointer[0] = Float(output.x)
                        pointer[1] = Float(output.y)
                        pointer[2] = Float(output.z)
                        pointer += 4
                    }
                }
            }
        }
        return try ColorCube(size: size, values: values)
    }

    /// Copies any table into Float32 storage (a `ColorCube` is taken as it is: its storage is
    /// shared, not copied).
    public init(_ table: some CubeTable) {
        if let cube = table as? ColorCube {
            self = cube
            return
        }
        var values = [Float](repeating: 0, count: table.entryCount * 4)
        values.withUnsafeMutableBytes { raw in
            let entries = raw.bindMemory(to: SIMD4<Float>.self)
            if let base = entries.baseAddress {
                table.copyEntries(0..<table.entryCount, into: base)
            }
        }
        self.size = table.size
        self.values = values
    }

    /// The identity cube: node (r, g, b) holds (r, g, b) / (size - 1).
    /// - Throws: `CubeError.invalidSize` when `size` is outside 2...256.
    public static func identity(size: Int) throws(CubeError) -> ColorCube {
        try ColorCube(size: size) { $0 }
    }

    /// The entry at a red-fastest index (see `redFastestIndex`).
    @inlinable
    public func entry(at index: Int) -> SIMD4<Float> {
        SIMD4(values[4 * index], values[4 * index + 1], values[4 * index + 2], values[4 * index + 3])
    }

    public func copyEntries(_ range: Range<Int>, into buffer: UnsafeMutablePointer<SIMD4<Float>>) {
        values.withUnsafeBytes { raw in
            let entries = raw.bindMemory(to: SIMD4<Float>.self)
            for (offset, index) in range.enumerated() { buffer[offset] = entries[index] }
        }
    }

    /// The entry at lattice node (r, g, b).
    @inlinable
    public func entry(r: Int, g: Int, b: Int) -> SIMD4<Float> {
        entry(at: Self.redFastestIndex(r: r, g: g, b: b, size: size))
    }

    /// Index of lattice node (r, g, b) when red varies fastest: r + size * g + size^2 * b.
    @inlinable
    public static func redFastestIndex(r: Int, g: Int, b: Int, size: Int) -> Int {
        r + size * (g + size * b)
    }

    /// Sets the colour of every lattice node (r, g, b) to `color(r, g, b)`, keeping alpha; nodes
    /// are visited in storage order, red fastest.
    public mutating func setColors(_ color: (_ r: Int, _ g: Int, _ b: Int) -> SIMD3<Float>) {
        let size = self.size
        values.withUnsafeMutableBufferPointer { values in
            var offset = 0
            for b in 0..<size {
                for g in 0..<size {
                    for r in 0..<size {
                        let output = color(r, g, b)
                        values[offset] = output.x
                        values[offset + 1] = output.y
                        values[offset + 2] = output.z
                        offset += 4
                    }
                }
            }
        }
    }

    /// Calls `body` with mutable access to the RGBA values.
    public mutating func withUnsafeMutableValues<R>(_ body: (inout UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        try values.withUnsafeMutableBufferPointer { try body(&$0) }
    }
}
