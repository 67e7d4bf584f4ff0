import ColorCubeCore
import ColorCubeTransform

extension LUTEngine {
    /// Prepares a whole transform for application: the chain split into per-channel curves, one
    /// lattice and per-channel curves (`LatticeStages`), so a shaper or a 1D-only look is applied
    /// without baking error. `interpolation` reads the lattice whatever the file asked for.
    /// - Throws: `TransformError` when the chain's middle cannot be baked.
    public convenience init(transform: Transform, interpolation: Interpolation = .trilinear, strength: Float = 1,
                            remembersColors: Bool = true) throws(TransformError) {
        let stages = try LatticeStages(transform)
        guard stages.hasInputStage || stages.hasOutputStage else {
            self.init(table: stages.lattice, interpolation: interpolation, strength: strength, remembersColors: remembersColors)
            return
        }
        // Until the kernel takes per-channel stages, the chain is baked whole at a fine size.
        let size = max(LatticeStages.bakeSize, TransformBaker.naturalSize(of: transform))
        let baked = try TransformBaker.bake(transform.interpolating(with: interpolation), size: size)
        self.init(table: baked, interpolation: interpolation, strength: strength, remembersColors: remembersColors)
    }
}
