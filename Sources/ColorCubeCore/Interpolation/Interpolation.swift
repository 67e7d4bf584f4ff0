/// How a cube is read between its lattice nodes.
public enum Interpolation: String, CaseIterable, Sendable {
    /// Weighted mean of the 8 surrounding nodes (Core Image's `CIColorCube`).
    case trilinear
    /// Weighted mean of the 4 nodes of the tetrahedron holding the input; exact for affine maps and
    /// for the grey axis, and cheaper than trilinear.
    case tetrahedral
    /// The nearest node, with no interpolation.
    case nearest
}
