import _CLatticeKernel

/// The fixed-point form of a lattice, for `cclattice_trilinear8_fixed` (8-bit input, trilinear,
/// full strength, no channel stages): nodes of four Int16 and one 16-byte step per code and axis
/// (see cclattice.h for both layouts and the error).
///
/// A node holds round(value * 32640) (see `units`), 128 units to an 8-bit code, so the lattice
/// must fit: every value finite, and on each channel the largest minus the smallest at most 32767
/// units (a range of 1.0039, as any look inside 0...1), so that a difference of two nodes fits in
/// an Int16. A look outside that keeps the Float loops (`make` returns nil), as does a cube of
/// more than `largestSize` nodes a side.
struct FixedPointLattice {
    /// One 8-bit code is this many units of a node.
    static let unitsPerCode = 128
    static let scale = Double(unitsPerCode * 255)
    /// The largest cube given a fixed-point copy: the engine keeps its Float lattice too (16-bit
    /// and Float input read it), and for a 256-cube the copy would add 128 MB to its 256 MB.
    static let largestSize = 129

    let nodes: UnsafeMutablePointer<Int16>
    let steps: UnsafeMutablePointer<cclattice_fixed_step>

    /// The fixed-point lattice of `lattice` (`size`^3 SIMD4<Float> nodes, red fastest), or nil
    /// when the look's values do not fit.
    static func make(_ lattice: UnsafePointer<SIMD4<Float>>, size n: Int) -> FixedPointLattice? {
        guard n <= largestSize else { return nil }
        let count = n * n * n
        // The zero nodes after the lattice: a code of 255 on green or blue reads N^2 + N past it.
        let padded = count + n * n + n + 1
        let nodeBytes = UnsafeMutableRawPointer.allocate(byteCount: 8 * padded, alignment: 64)
        let nodes = nodeBytes.bindMemory(to: Int16.self, capacity: 4 * padded)
        nodes.initialize(repeating: 0, count: 4 * padded)
        for channel in 0..<3 {
            var minimum = Int.max, maximum = Int.min
            for node in 0..<count {
                guard let units = Self.units(lattice[node][channel]) else {
                    nodeBytes.deallocate()
                    return nil
                }
                minimum = min(minimum, units)
                maximum = max(maximum, units)
                nodes[4 * node + channel] = Int16(truncatingIfNeeded: units)
            }
            guard minimum >= -32767, maximum <= 32767, maximum - minimum <= 32767 else {
                nodeBytes.deallocate()
                return nil
            }
        }
        let stepBytes = UnsafeMutableRawPointer.allocate(
            byteCount: 3 * 256 * MemoryLayout<cclattice_fixed_step>.stride, alignment: 64)
        let steps = stepBytes.bindMemory(to: cclattice_fixed_step.self, capacity: 3 * 256)
        let axisStrides = [1, n, n * n]
        for axis in 0..<3 {
            for code in 0..<256 {
                // code * (N-1) / 255 as node and remainder j, exactly; code 255 is node N-1 with
                // j = 0 on green and blue, node N-2 with j = 255 on red (whose upper node is read
                // in the same load as the lower).
                let position = code * (n - 1)
                let node = axis == 0 ? min(position / 255, n - 2) : position / 255
                let j = position - node * 255
                var step = cclattice_fixed_step(offset: Int32(node * axisStrides[axis]), green: 0, blue: 0,
                                                red_low: 0, red_high: 0, unused: 0)
                switch axis {
                case 0: (step.red_low, step.red_high) = (Int16(255 - j), Int16(j))
                case 1: step.green = Self.q15(j)
                default: step.blue = Self.q15(j)
                }
                steps[axis * 256 + code] = step
            }
        }
        return FixedPointLattice(nodes: nodes, steps: steps)
    }

    /// A lattice value in units (round(value * 32640)), or nil when it is not finite or too far
    /// outside 0...1 to fit. On a node (every fraction 0) the loop returns units / 128 rounded, so
    /// a value that rounds to code c in Float32, as the Float loops round it, is held within
    /// 63 units of 128 * c: inputs on nodes give the Float loops' codes (such a value moves by at
    /// most one unit instead of half a unit).
    static func units(_ value: Float) -> Int? {
        guard value.isFinite, abs(value) <= 2 else { return nil }
        let units = Int((Double(value) * scale).rounded())
        let code = Int((value * 255).rounded(.toNearestOrEven))
        guard (0...255).contains(code) else { return units }
        return min(max(units, code * unitsPerCode - 63), code * unitsPerCode + 63)
    }

    /// j / 255 in Q15, for j in 0...254 (at most 32640).
    static func q15(_ j: Int) -> Int16 {
        Int16((Double(j) * 32768 / 255).rounded())
    }

    func deallocate() {
        UnsafeMutableRawPointer(nodes).deallocate()
        UnsafeMutableRawPointer(steps).deallocate()
    }
}
