import ColorCubeCore

/// Inverts a transform: each operation exactly where it has a closed-form inverse (1D LUTs,
/// matrices, ranges, CDLs, logs, exponents), and each 3D LUT numerically, node by node.
public enum TransformInverter {
    /// The inverse of `transform`, with 3D LUTs inverted into lattices of `size` points per axis.
    ///
    /// A 3D LUT's inverse is a 3D LUT over the forward lattice's output range (per channel, its
    /// smallest to largest value): at each of its nodes y, the input x whose interpolated output is
    /// y, found by Newton's method on the forward LUT (the forward LUT's interpolation) started from
    /// the nearest of a coarse grid of forward outputs, x kept in the forward domain. Where y is not
    /// an output of the look (a clamp, a black-and-white look) this gives the closest reachable
    /// colour; `report` measures how far off that is.
    /// - Throws: `TransformError.notInvertible` from an operation with no inverse at all (a
    ///   singular matrix, a non-monotonic 1D LUT).
    public static func invert(_ transform: Transform, size: Int) throws(TransformError) -> Transform {
        guard ColorCube.sizeRange.contains(size) else { throw .invalidBakeSize(size) }
        var result: [any TransformOp] = []
        for operation in transform.operations.reversed() {
            if let lattice = operation as? LUT3DOp {
                result.append(try invert(lattice, size: size))
            } else {
                result.append(contentsOf: try operation.inverse())
            }
        }
        return Transform(result)
    }

    /// Measures `inverse` against `transform` over `samplesPerAxis`^3 colours of 0...1.
    public static func report(inverse: Transform, of transform: Transform, samplesPerAxis: Int = 33) -> InversionReport {
        let count = max(samplesPerAxis, 2)
        let step = 1 / Double(count - 1)
        let misses = Locked([Double](repeating: 0, count: count * count * count))
        let worst = Locked((0.0, SIMD3<Double>()))
        ParallelLoop.run(iterations: count) { b in
            var plane = [Double](repeating: 0, count: count * count)
            var largest = (-1.0, SIMD3<Double>())
            for g in 0..<count {
                for r in 0..<count {
                    let y = SIMD3(Double(r), Double(g), Double(b)) * step
                    let miss = (transform.apply(inverse.apply(y)) - y).largestMagnitude * 255
                    plane[r + count * g] = miss.isNaN ? .infinity : miss
                    if plane[r + count * g] > largest.0 { largest = (plane[r + count * g], y) }
                }
            }
            misses.withLock { all in
                for index in 0..<plane.count { all[b * count * count + index] = plane[index] }
            }
            worst.withLock { if largest.0 > $0.0 { $0 = largest } }
        }
        let sorted = misses.withLock { $0 }.sorted()
        let (maxMiss, color) = worst.withLock { $0 }
        let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        return InversionReport(sampleCount: sorted.count, unrecoveredCount: sorted.filter { $0 > 0.5 }.count,
                               maxCodes: maxMiss, p99Codes: p99, worstColor: color)
    }

    /// One 3D LUT inverted numerically (see `invert(_:size:)`).
    static func invert(_ forward: LUT3DOp, size: Int) throws(TransformError) -> LUT3DOp {
        let range = forward.table.outputRange()
        var low = SIMD3<Double>(Double(range.min.x), Double(range.min.y), Double(range.min.z))
        var high = SIMD3<Double>(Double(range.max.x), Double(range.max.y), Double(range.max.z))
        for channel in 0..<3 where !(high[channel] > low[channel]) {
            // A channel the look flattens to one value: nothing to invert along it, but the lattice
            // still needs a domain; the report tells the user what is lost.
            low[channel] -= 0.5
            high[channel] += 0.5
        }
        let seeds = SeedGrid(forward: forward, pointsPerAxis: 17)
        var cube: ColorCube
        do throws(CubeError) {
            cube = try ColorCube.identity(size: size)
        } catch {
            throw .invalidBakeSize(size)
        }
        let last = Double(size - 1)
        let lowBound = low, span = high - low
        cube.withUnsafeMutableValues { values in
            guard let base = values.baseAddress else { return }
            let shared = DisjointRegions(base, itemStride: 4 * size * size)
            ParallelLoop.run(iterations: size) { b in
                var pointer = shared.start(of: b..<(b + 1))
                for g in 0..<size {
                    for r in 0..<size {
                        let target = lowBound + span * SIMD3(Double(r), Double(g), Double(b)) / last
                        let x = solve(forward, target: target, start: seeds.nearest(to: target))
                        pointer[0] = Float(x.x)
                        pointer[1] = Float(x.y)
                        pointer[2] = Float(x.z)
                        pointer += 4
                    }
                }
            }
        }
        return try LUT3DOp(table: cube, domainMin: low, domainMax: high, interpolation: forward.interpolation)
    }

    /// Damped Newton iterations on the forward LUT in its lattice coordinates (0...1 per axis),
    /// with a finite-difference Jacobian; returns the input in the forward LUT's domain.
    static func solve(_ forward: LUT3DOp, target: SIMD3<Double>, start: SIMD3<Double>) -> SIMD3<Double> {
        var t = start
        var value = forward.sample(t)
        var error = value - target
        var norm = (error * error).sum()
        let h = 1e-4
        for _ in 0..<40 where norm > 1e-14 {
            var columns: [SIMD3<Double>] = []
            for axis in 0..<3 {
                var probe = t
                // Difference towards the inside of the unit cube, so the probe stays in the domain.
                let direction: Double = probe[axis] + h <= 1 ? 1 : -1
                probe[axis] += direction * h
                columns.append((forward.sample(probe) - value) / (direction * h))
            }
            guard let step = solve3(columns, -error) else { break }
            var scale = 1.0
            var improved = false
            for _ in 0..<12 {
                var candidate = t + step * scale
                for axis in 0..<3 { candidate[axis] = min(max(candidate[axis], 0), 1) }
                let candidateValue = forward.sample(candidate)
                let candidateError = candidateValue - target
                let candidateNorm = (candidateError * candidateError).sum()
                if candidateNorm < norm {
                    t = candidate
                    value = candidateValue
                    error = candidateError
                    norm = candidateNorm
                    improved = true
                    break
                }
                scale /= 2
            }
            if !improved { break }
        }
        return forward.domainMin + t * (forward.domainMax - forward.domainMin)
    }

    /// Solves J x = rhs for the 3x3 matrix whose columns are `columns` (Cramer's rule), or nil
    /// when it is singular; a singular axis is solved as zero when the others are not.
    static func solve3(_ columns: [SIMD3<Double>], _ rhs: SIMD3<Double>) -> SIMD3<Double>? {
        func determinant(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>) -> Double {
            a.x * (b.y * c.z - b.z * c.y) - b.x * (a.y * c.z - a.z * c.y) + c.x * (a.y * b.z - a.z * b.y)
        }
        let d = determinant(columns[0], columns[1], columns[2])
        guard abs(d) > 1e-18 else {
            // Least squares along the gradient: moves toward the target where the Jacobian is flat.
            let gradient = SIMD3((columns[0] * rhs).sum(), (columns[1] * rhs).sum(), (columns[2] * rhs).sum())
            let curvature = (0..<3).reduce(0.0) { $0 + (columns[$1] * columns[$1]).sum() }
            return curvature > 0 ? gradient / curvature : nil
        }
        return SIMD3(determinant(rhs, columns[1], columns[2]), determinant(columns[0], rhs, columns[2]),
                     determinant(columns[0], columns[1], rhs)) / d
    }

    /// The forward LUT's outputs on a coarse grid of lattice coordinates: Newton's starting points.
    struct SeedGrid: Sendable {
        let coordinates: [SIMD3<Double>]
        let outputs: [SIMD3<Double>]

        init(forward: LUT3DOp, pointsPerAxis: Int) {
            var coordinates: [SIMD3<Double>] = [], outputs: [SIMD3<Double>] = []
            let last = Double(pointsPerAxis - 1)
            for b in 0..<pointsPerAxis {
                for g in 0..<pointsPerAxis {
                    for r in 0..<pointsPerAxis {
                        let t = SIMD3(Double(r), Double(g), Double(b)) / last
                        coordinates.append(t)
                        outputs.append(forward.sample(t))
                    }
                }
            }
            self.coordinates = coordinates
            self.outputs = outputs
        }

        func nearest(to target: SIMD3<Double>) -> SIMD3<Double> {
            var best = 0, bestDistance = Double.infinity
            for (index, output) in outputs.enumerated() {
                let d = output - target
                let distance = (d * d).sum()
                if distance < bestDistance {
                    bestDistance = distance
                    best = index
                }
            }
            return coordinates[best]
        }
    }
}
