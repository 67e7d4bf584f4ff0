import ColorCubeCore

/// Inverts a transform: each operation exactly where it has a closed-form inverse (1D LUTs,
/// matrices, ranges, CDLs, logs, exponents), and each 3D LUT numerically, node by node.
public enum TransformInverter {
    /// The inverse of `transform`, with 3D LUTs inverted into lattices of `size` points per axis.
    ///
    /// A 3D LUT's inverse is a 3D LUT over 0...1 per channel, widened to the forward lattice's
    /// output range where that reaches beyond. At each of its nodes y it holds the input x whose
    /// interpolated output is y, found as OpenColorIO's exact inverse finds it
    /// (`TetrahedralInverse`): the tetrahedron of the forward lattice holding y, cells taken in
    /// Morton order. A trilinear forward LUT's solution is then refined by Newton's method on its
    /// own interpolation, so the inverse undoes the look as colorcube applies it.
    ///
    /// Where y is not an output of the look (a clamp, a gamut the look narrows), it is found in the
    /// lattice padded one node beyond each face (`PaddedLattice`, OpenColorIO's extrapolation) and
    /// the solution clamped onto the forward domain's faces, as `ociobakelut --invlut` does; where
    /// not even the padded lattice holds it (a look that flattens a channel), the inverse gives the
    /// input whose output is nearest y. `report` measures how far off such colours come back.
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

    /// The inverse of a `transform` whose every operation is per channel (1D LUTs, CDLs without
    /// saturation, logs, exponents, diagonal matrices) as one 1D LUT of `length` entries with
    /// evenly spaced inputs shared by the three channels: what a .cube or .spi1d can hold, where
    /// the exact inverse of a 1D LUT lists its inputs (the forward table's outputs) one by one.
    ///
    /// The entries sample the exact inverse (`invert(_:size:)`, operation by operation) over 0...1
    /// widened to the range of values the forward transform gives over 0...1, so every output of
    /// the look maps back; the exact inverse clamps beyond its ends as a 1D LUT does.
    /// - Returns: nil when some operation mixes channels (a 3D LUT, a saturation, a full matrix).
    /// - Throws: `TransformError.notInvertible` from an operation with no inverse; `.invalidOperation`
    ///   when the inverse is not finite somewhere over the range.
    public static func invertedCurves(of transform: Transform, length: Int = 4096) throws(TransformError) -> LUT1DOp? {
        guard transform.operations.allSatisfy(\.isPerChannel) else { return nil }
        let length = max(length, 2)
        let exact = try invert(transform, size: ColorCube.sizeRange.lowerBound)
        var low = 0.0, high = 1.0
        let step = 1 / Double(length - 1)
        for index in 0..<length {
            let output = transform.apply(SIMD3(repeating: Double(index) * step))
            for channel in 0..<3 where output[channel].isFinite {
                low = min(low, output[channel])
                high = max(high, output[channel])
            }
        }
        var outputs: [[Double]] = [[], [], []]
        for index in 0..<length {
            let input = exact.apply(SIMD3(repeating: low + (high - low) * Double(index) * step))
            for channel in 0..<3 { outputs[channel].append(input[channel]) }
        }
        var curves: [Curve] = []
        for channel in 0..<3 { curves.append(try Curve(inputs: .uniform(low...high), outputs: outputs[channel])) }
        return try LUT1DOp(curves: curves)
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
        // OpenColorIO's inverse takes 0...1 (it clamps its input there); a lattice over at least
        // that range puts the nodes of a cube of any size where OCIO's baked inverse has them.
        let low = pointwiseMin(SIMD3(Double(range.min.x), Double(range.min.y), Double(range.min.z)), SIMD3(repeating: 0))
        let high = pointwiseMax(SIMD3(Double(range.max.x), Double(range.max.y), Double(range.max.z)), SIMD3(repeating: 1))
        let exact = TetrahedralInverse(forward)
        let seeds = SeedGrid(forward: forward, pointsPerAxis: 17)
        let span = high - low
        let cube: ColorCube
        do throws(CubeError) {
            cube = try ColorCube.sampledInParallel(size: size) { position in
                input(of: low + span * position, forward: forward, exact: exact, seeds: seeds)
            }
        } catch {
            throw .invalidBakeSize(size)
        }
        return try LUT3DOp(table: cube, domainMin: low, domainMax: high, interpolation: forward.interpolation)
    }

    /// The forward input (in the forward LUT's domain) that `invert(_:size:)` gives for `target`.
    static func input(of target: SIMD3<Double>, forward: LUT3DOp, exact: TetrahedralInverse, seeds: SeedGrid) -> SIMD3<Double> {
        guard let found = exact.latticeCoordinate(of: target) else {
            return solve(forward, target: target, start: seeds.nearest(to: target))
        }
        if found.isReachable && forward.interpolation == .trilinear {
            return solve(forward, target: target, start: found.coordinate)
        }
        return forward.domainMin + found.coordinate * (forward.domainMax - forward.domainMin)
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

    /// Solves J x = rhs for the 3x3 matrix whose columns are `columns` (Cramer's rule); where J is
    /// singular, a step along the gradient of the squared error instead, nil where J is zero.
    static func solve3(_ columns: [SIMD3<Double>], _ rhs: SIMD3<Double>) -> SIMD3<Double>? {
        if let exact = TetrahedralInverse.solveLinear(columns[0], columns[1], columns[2], rhs) { return exact }
        // Least squares along the gradient: moves toward the target where the Jacobian is flat.
        let gradient = SIMD3((columns[0] * rhs).sum(), (columns[1] * rhs).sum(), (columns[2] * rhs).sum())
        let curvature = (0..<3).reduce(0.0) { $0 + (columns[$1] * columns[$1]).sum() }
        return curvature > 0 ? gradient / curvature : nil
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
