import ColorCubeCore

/// A step of a chain at part strength: `out = in + strength * (steps(in) - in)`, the same mix the
/// engine applies to a whole look (`LUTEngine`'s strength), here to one step of a chain
/// (`film.cube@0.6+grade.cc` on the command line).
///
/// The mix is evaluated as written, in Float64, for any steps. Where it can be folded into the
/// step's own data exactly, `optimizedForm` does so, and the engine runs the folded form: a 3D LUT
/// read with trilinear or tetrahedral interpolation (both reproduce the identity lattice exactly,
/// so mixing every node mixes every interpolated value) and a matrix (`(1 - s) I + s M`). A
/// folded 3D LUT mixes with its input as the lattice sees it, clamped to its domain: the same for
/// every value inside the domain (every 8 and 16-bit picture), different only for floats beyond it.
public struct StrengthOp: TransformOp {
    /// The steps mixed, the first applied first.
    public let steps: Transform
    /// The weight of the steps' output, 0...1 (0 keeps the input, 1 is the steps alone).
    public let strength: Double

    /// - Throws: `TransformError.invalidOperation` for a strength outside 0...1 or not a number.
    public init(_ steps: Transform, strength: Double) throws(TransformError) {
        guard strength >= 0, strength <= 1 else {
            throw .invalidOperation(operation: "strength", reason: "\(strength) is outside 0...1")
        }
        self.steps = steps
        self.strength = strength
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        rgb + strength * (steps.apply(rgb) - rgb)
    }

    public var isPerChannel: Bool { steps.operations.allSatisfy(\.isPerChannel) }

    public var isIdentity: Bool { strength == 0 || steps.isIdentity }

    public var optimizedForm: [any TransformOp] {
        if isIdentity { return [] }
        if strength == 1 { return steps.optimized().operations }
        let inner = steps.optimized().operations
        guard inner.count == 1 else { return [StrengthOp(unchecked: Transform(inner), strength: strength)] }
        if let lattice = inner[0] as? LUT3DOp, lattice.interpolation != .nearest, let folded = fold(lattice) {
            return [folded]
        }
        if let matrix = inner[0] as? MatrixOp, let folded = fold(matrix) { return [folded] }
        return [StrengthOp(unchecked: Transform(inner), strength: strength)]
    }

    public func inverse() throws(TransformError) -> [any TransformOp] {
        if strength == 1 {
            var inverse: [any TransformOp] = []
            for operation in steps.operations.reversed() { inverse += try operation.inverse() }
            return inverse
        }
        throw .notInvertible(operation: "strength", reason: "a step at part strength has no exact inverse")
    }

    public var description: String {
        "at strength \(strength): " + steps.operations.map(\.description).joined(separator: ", ")
    }

    private init(unchecked steps: Transform, strength: Double) {
        self.steps = steps
        self.strength = strength
    }

    /// The lattice whose every node is mixed with the input it stands for.
    private func fold(_ lattice: LUT3DOp) -> LUT3DOp? {
        let n = lattice.size, s = Float(strength), keep = Float(1 - strength)
        let low = SIMD3<Float>(lattice.domainMin), span = SIMD3<Float>(lattice.domainMax - lattice.domainMin)
        var values = [Float](repeating: 1, count: n * n * n * 4)
        let last = Float(n - 1)
        for b in 0..<n {
            for g in 0..<n {
                for r in 0..<n {
                    let index = r + n * (g + n * b)
                    let node = low + SIMD3(Float(r), Float(g), Float(b)) / last * span
                    let entry = lattice.table.entry(at: index)
                    let mixed = keep * node + s * SIMD3(entry.x, entry.y, entry.z)
                    values[4 * index] = mixed.x
                    values[4 * index + 1] = mixed.y
                    values[4 * index + 2] = mixed.z
                }
            }
        }
        guard let table = try? ColorCube(size: n, values: values) else { return nil }
        return try? LUT3DOp(table: table, domainMin: lattice.domainMin, domainMax: lattice.domainMax,
                            interpolation: lattice.interpolation)
    }

    /// `(1 - s) I + s M`, offset `s * offset`.
    private func fold(_ matrix: MatrixOp) -> MatrixOp? {
        let identity = [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
        let rows = zip(identity, matrix.rows).map { (1 - strength) * $0 + strength * $1 }
        return try? MatrixOp(rows: rows, offset: strength * matrix.offset)
    }
}
