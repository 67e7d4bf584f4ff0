import ColorCubeCore

/// A look as colorists exchange it: an ordered list of operations, the first applied first.
///
/// A Hald PNG or a plain 3D .cube is the one-operation case; a Resolve .cube is a 1D shaper then a
/// 3D LUT; a CLF file is any chain. `apply` evaluates the chain exactly in Float64 and is the
/// reference for the engine and for baking (`TransformBaker`).
public struct Transform: Sendable, CustomStringConvertible {
    /// The operations, the first applied first. Empty is the identity.
    public var operations: [any TransformOp]

    public init(_ operations: [any TransformOp] = []) {
        self.operations = operations
    }

    /// The one-operation transform of a plain cube over 0...1.
    public init(cube table: some CubeTable & Sendable) {
        self.operations = [LUT3DOp(table: table)]
    }

    /// The chain's output at one colour: each operation in turn, in Float64.
    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        var value = rgb
        for operation in operations { value = operation.apply(value) }
        return value
    }

    /// `self` then `other`: the result applies this transform first.
    public func then(_ other: Transform) -> Transform {
        Transform(operations + other.operations)
    }

    /// True when every operation leaves colours unchanged (an empty chain is the identity).
    public var isIdentity: Bool { operations.allSatisfy(\.isIdentity) }

    /// The chain without operations that change nothing (a table that returns its inputs kept as
    /// the clamp to its domain, see `TransformOp.optimizedForm`), and with neighbouring matrices
    /// folded into one (exact up to Float64 rounding).
    public func optimized() -> Transform {
        var result: [any TransformOp] = []
        for operation in operations.flatMap(\.optimizedForm) {
            if let matrix = operation as? MatrixOp, let previous = result.last as? MatrixOp {
                result[result.count - 1] = previous.then(matrix)
                if result[result.count - 1].isIdentity { result.removeLast() }
                continue
            }
            result.append(operation)
        }
        return Transform(result)
    }

    /// The same chain with every 3D LUT read with `interpolation` (the engine's and the baker's
    /// choice overrides the file's).
    public func interpolating(with interpolation: Interpolation) -> Transform {
        Transform(operations.map { operation in
            if let mixed = operation as? StrengthOp {
                // A step at part strength holds its own lattices.
                return (try? StrengthOp(mixed.steps.interpolating(with: interpolation), strength: mixed.strength)) ?? mixed
            }
            guard var lattice = operation as? LUT3DOp else { return operation }
            lattice.interpolation = interpolation
            return lattice
        })
    }

    /// The 3D LUTs of the chain.
    public var lattices: [LUT3DOp] { operations.compactMap { $0 as? LUT3DOp } }

    /// The chain's only operation when it is a 3D LUT over 0...1: such a look needs no baking.
    public var plainLattice: LUT3DOp? {
        guard operations.count == 1, let lattice = operations[0] as? LUT3DOp, lattice.hasUnitDomain else { return nil }
        return lattice
    }

    /// One line per operation, numbered from 1.
    public var description: String {
        guard !operations.isEmpty else { return "identity (no operations)" }
        return operations.enumerated().map { "\($0.offset + 1). \($0.element.description)" }.joined(separator: "\n")
    }
}
