import ColorCubeCore

extension TransformInverter {
    /// The fewest lattice points per axis of `openColorIOInverse(of:)`: the size OpenColorIO 2.6
    /// bakes an inverse 3D LUT into by default.
    public static let openColorIOInverseSize = 48

    /// A 3D LUT's inverse as OpenColorIO 2.6 applies it by default (an `InverseLUT3D`, or a 3D
    /// LUT inverted in a chain): the exact inverse of the forward lattice interpolated
    /// tetrahedrally, whatever its own interpolation, sampled over 0...1 at
    /// max(`openColorIOInverseSize`, forward size) points per axis and applied trilinearly. Inputs
    /// outside 0...1 clamp to it, as OpenColorIO clamps them.
    ///
    /// Each node holds what `invert(_:size:)` finds for it (`TetrahedralInverse`, and the padded
    /// lattice where the node is not an output of the forward LUT), without its Newton refinement
    /// for trilinear lattices, which OpenColorIO does not make.
    /// - Throws: `TransformError.invalidBakeSize` when the forward lattice is larger than a cube can be.
    public static func openColorIOInverse(of forward: LUT3DOp) throws(TransformError) -> LUT3DOp {
        let size = max(openColorIOInverseSize, forward.size)
        var tetrahedral = forward
        tetrahedral.interpolation = .tetrahedral
        let exact = TetrahedralInverse(tetrahedral)
        let seeds = SeedGrid(forward: tetrahedral, pointsPerAxis: 17)
        do throws(CubeError) {
            let cube = try ColorCube.sampledInParallel(size: size) { [tetrahedral] position in
                input(of: position, forward: tetrahedral, exact: exact, seeds: seeds)
            }
            return LUT3DOp(table: cube, interpolation: .trilinear)
        } catch {
            throw .invalidBakeSize(size)
        }
    }
}
