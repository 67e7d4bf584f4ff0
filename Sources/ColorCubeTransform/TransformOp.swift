/// One operation of a `Transform`: its data, its exact evaluation, its inverse and what it is.
///
/// Each kind of operation is one conforming type in its own folder under `Ops/`: every operation
/// OpenColorIO has (the `Ops/` folders name them; ColorCubeTransform's DocC landing page lists the
/// types). File formats parse into operations and never bake;
/// evaluation is the reference every fast path (the engine, a baked cube) is measured against.
///
/// Conformers are immutable values, so any number of threads may evaluate one at once.
public protocol TransformOp: Sendable, CustomStringConvertible {
    /// Evaluates the operation at one colour, in Float64. Never traps: NaN and infinities in
    /// produce defined (possibly non-finite) results, each operation documents its clamping.
    func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double>

    /// Evaluates the operation at `count` colours held as three planes, in place, with the same
    /// results as `apply(_:)` colour by colour. The default does exactly that; operations whose
    /// data can be hoisted out of the loop (1D tables, matrices) run it faster.
    func apply(red: UnsafeMutablePointer<Double>, green: UnsafeMutablePointer<Double>,
               blue: UnsafeMutablePointer<Double>, count: Int)

    /// Evaluates the operation at `count` colours held as three Float32 planes, in place: the form
    /// pictures of floats run through, kept apart from the Float64 forms that 8 and 16-bit
    /// results rest on. Logs, exponents, matrices, CDLs and ranges have forms of their own in
    /// Float32 arithmetic (`Float32Math` for logarithms and powers), within a few units in the
    /// last place of the Float64 values rounded to Float (each documents its bound); the default,
    /// which the other operations keep, runs the Float64 planar form and rounds its results.
    func apply(red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
               blue: UnsafeMutablePointer<Float>, count: Int)

    /// True when each output channel depends only on the same input channel, so the operation can
    /// be folded into a per-channel curve before or after a lattice.
    var isPerChannel: Bool { get }

    /// True when the operation leaves every colour unchanged (an optimiser drops it).
    var isIdentity: Bool { get }

    /// What an optimiser keeps of the operation: nothing for an identity; for a table that
    /// returns every input of its domain unchanged, the clamp to that domain (which values
    /// beyond it still meet, as OpenColorIO's optimiser keeps it); else the operation itself.
    var optimizedForm: [any TransformOp] { get }

    /// The operation that undoes this one exactly, as a list (usually one operation).
    /// - Throws: `TransformError.notInvertible` with the reason (a clamp, a singular matrix, a
    ///   1D LUT that is not monotonic) when no exact inverse exists. 3D LUTs are inverted
    ///   numerically by `TransformInverter`, not here: they throw `.needsNumericalInverse`.
    func inverse() throws(TransformError) -> [any TransformOp]

    /// Lattice sizes and other dimensions, for `info`: "3D LUT 33x33x33, domain 0...1".
    var description: String { get }
}

extension TransformOp {
    public var optimizedForm: [any TransformOp] { isIdentity ? [] : [self] }

    public func apply(red: UnsafeMutablePointer<Double>, green: UnsafeMutablePointer<Double>,
                      blue: UnsafeMutablePointer<Double>, count: Int) {
        for i in 0..<count {
            let value = apply(SIMD3(red[i], green[i], blue[i]))
            red[i] = value.x
            green[i] = value.y
            blue[i] = value.z
        }
    }

    public func apply(red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
                      blue: UnsafeMutablePointer<Float>, count: Int) {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * count) { planes in
            guard let r = planes.baseAddress else { return }
            let g = r + count, b = g + count
            for i in 0..<count {
                r[i] = Double(red[i])
                g[i] = Double(green[i])
                b[i] = Double(blue[i])
            }
            apply(red: r, green: g, blue: b, count: count)
            for i in 0..<count {
                red[i] = Float(r[i])
                green[i] = Float(g[i])
                blue[i] = Float(b[i])
            }
        }
    }

    public var isIdentity: Bool { false }
}
