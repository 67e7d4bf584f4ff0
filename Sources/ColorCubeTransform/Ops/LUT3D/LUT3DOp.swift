import ColorCubeCore

/// A 3D LUT: a lattice of colours (any `CubeTable`, red fastest) over an input domain.
///
/// Node i on an axis stands for the input `domainMin + i / (size - 1) * (domainMax - domainMin)`.
/// Inputs are clamped to the domain (NaN reads as its minimum), then interpolated; `interpolation`
/// is the file's own choice (CLF states one; every other format is trilinear) and callers may
/// override it (`Transform.interpolating(with:)`).
public struct LUT3DOp: TransformOp {
    /// The lattice, kept as the reader made it: a reference PNG stays a view on its pixels.
    public let table: any CubeTable & Sendable
    /// Per channel, the input at the first node.
    public let domainMin: SIMD3<Double>
    /// Per channel, the input at the last node; above `domainMin`.
    public let domainMax: SIMD3<Double>
    public var interpolation: Interpolation

    /// - Throws: `TransformError.invalidOperation` when the domain is empty or not finite in a channel.
    public init(table: any CubeTable & Sendable, domainMin: SIMD3<Double> = SIMD3(repeating: 0),
                domainMax: SIMD3<Double> = SIMD3(repeating: 1), interpolation: Interpolation = .trilinear) throws(TransformError) {
        for channel in 0..<3 where !(domainMax[channel] > domainMin[channel]) || !domainMin[channel].isFinite || !domainMax[channel].isFinite {
            throw .invalidOperation(operation: "3D LUT", reason: "domain \(Describe.triple(domainMin))...\(Describe.triple(domainMax)) is empty")
        }
        self.table = table
        self.domainMin = domainMin
        self.domainMax = domainMax
        self.interpolation = interpolation
    }

    /// A lattice over 0...1 (which cannot fail).
    public init(table: any CubeTable & Sendable, interpolation: Interpolation = .trilinear) {
        self.table = table
        self.domainMin = SIMD3(repeating: 0)
        self.domainMax = SIMD3(repeating: 1)
        self.interpolation = interpolation
    }

    public var size: Int { table.size }

    /// True when the domain is 0...1 in every channel.
    public var hasUnitDomain: Bool {
        domainMin == SIMD3(repeating: 0) && domainMax == SIMD3(repeating: 1)
    }

    /// The lattice coordinate (0...1 per channel) of an input: the domain mapped to 0...1, clamped.
    public func latticeCoordinate(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        var t = (rgb - domainMin) / (domainMax - domainMin)
        for channel in 0..<3 {
            if !(t[channel] > 0) { t[channel] = 0 }
            if t[channel] > 1 { t[channel] = 1 }
        }
        return t
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        sample(latticeCoordinate(rgb))
    }

    /// The lattice read at a coordinate in 0...1 per channel (already clamped).
    public func sample(_ t: SIMD3<Double>) -> SIMD3<Double> {
        let n = table.size
        let last = n - 1
        var node = SIMD3<Int>(), fraction = SIMD3<Double>()
        for axis in 0..<3 {
            let position = t[axis] * Double(last)
            let lower = min(Int(position), last - 1)
            node[axis] = lower
            fraction[axis] = position - Double(lower)
        }
        func value(_ dr: Int, _ dg: Int, _ db: Int) -> SIMD3<Double> {
            let e = table.entry(at: (node.x + dr) + n * ((node.y + dg) + n * (node.z + db)))
            return SIMD3(Double(e.x), Double(e.y), Double(e.z))
        }
        let (x, y, z) = (fraction.x, fraction.y, fraction.z)
        switch interpolation {
        case .nearest:
            return value(x >= 0.5 ? 1 : 0, y >= 0.5 ? 1 : 0, z >= 0.5 ? 1 : 0)
        case .trilinear:
            let c00 = value(0, 0, 0) + (value(1, 0, 0) - value(0, 0, 0)) * x
            let c10 = value(0, 1, 0) + (value(1, 1, 0) - value(0, 1, 0)) * x
            let c01 = value(0, 0, 1) + (value(1, 0, 1) - value(0, 0, 1)) * x
            let c11 = value(0, 1, 1) + (value(1, 1, 1) - value(0, 1, 1)) * x
            let c0 = c00 + (c10 - c00) * y
            let c1 = c01 + (c11 - c01) * y
            return c0 + (c1 - c0) * z
        case .tetrahedral:
            // The cell splits into six tetrahedra by the order of the fractions; each walks from
            // the lower corner to the upper one along the axes in decreasing order of fraction.
            let c000 = value(0, 0, 0), c111 = value(1, 1, 1)
            if x > y {
                if y > z { return c000 + (value(1, 0, 0) - c000) * x + (value(1, 1, 0) - value(1, 0, 0)) * y + (c111 - value(1, 1, 0)) * z }
                if x > z { return c000 + (value(1, 0, 0) - c000) * x + (value(1, 0, 1) - value(1, 0, 0)) * z + (c111 - value(1, 0, 1)) * y }
                return c000 + (value(0, 0, 1) - c000) * z + (value(1, 0, 1) - value(0, 0, 1)) * x + (c111 - value(1, 0, 1)) * y
            }
            if z > y { return c000 + (value(0, 0, 1) - c000) * z + (value(0, 1, 1) - value(0, 0, 1)) * y + (c111 - value(0, 1, 1)) * x }
            if z > x { return c000 + (value(0, 1, 0) - c000) * y + (value(0, 1, 1) - value(0, 1, 0)) * z + (c111 - value(0, 1, 1)) * x }
            return c000 + (value(0, 1, 0) - c000) * y + (value(1, 1, 0) - value(0, 1, 0)) * x + (c111 - value(1, 1, 0)) * z
        }
    }

    public var isPerChannel: Bool { false }

    /// False: a lattice clamps its inputs to its domain (see `optimizedForm`).
    public var isIdentity: Bool { false }

    /// A lattice over 0...1 that returns every node's own position is the clamp to 0...1.
    public var optimizedForm: [any TransformOp] {
        guard returnsItsInputs, let clamp = try? RangeOp(lower: 0, upper: 1) else { return [self] }
        return [clamp]
    }

    /// True when the lattice covers 0...1 and each node holds its own position (within 1e-6).
    public var returnsItsInputs: Bool {
        guard hasUnitDomain else { return false }
        let last = Float(size - 1)
        var identity = true
        table.forEachChunk { start, entries in
            guard identity else { return }
            for (offset, entry) in entries.enumerated() {
                let index = start + offset
                let expected = SIMD3<Float>(Float(index % size), Float((index / size) % size), Float(index / (size * size))) / last
                if abs(entry.x - expected.x) > 1e-6 || abs(entry.y - expected.y) > 1e-6 || abs(entry.z - expected.z) > 1e-6 {
                    identity = false
                    return
                }
            }
        }
        return identity
    }

    public func inverse() throws(TransformError) -> [any TransformOp] {
        throw .needsNumericalInverse
    }

    public var description: String {
        let n = size
        let domain = hasUnitDomain ? "domain 0...1" : "domain \(Describe.triple(domainMin))...\(Describe.triple(domainMax))"
        return "3D LUT \(n)x\(n)x\(n), \(domain), \(interpolation.rawValue)"
    }
}
