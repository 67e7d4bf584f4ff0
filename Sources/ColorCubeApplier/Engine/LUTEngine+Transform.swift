import ColorCubeCore
import ColorCubeTransform

extension LUTEngine {
    /// Prepares a whole transform for application: the chain split into per-channel curves, one
    /// lattice and per-channel curves (`LatticeStages`), the curves handed to the kernel as
    /// `ChannelStages`, so a shaper, a domain or a 1D-only look is applied without baking error
    /// (exact for 8- and 16-bit input). Only a middle that is more than one 3D LUT (a matrix before
    /// the lattice, a CDL's saturation) is baked, into a 65-cube, with its error measured
    /// (`LatticeStages.bakingError`). `interpolation` reads the lattice whatever the file asked for.
    /// - Throws: `TransformError` when the chain's middle cannot be baked.
    public convenience init(transform: Transform, interpolation: Interpolation = .trilinear, strength: Float = 1,
                            colorMemory: ColorMemory = .recent) throws(TransformError) {
        let stages = try LatticeStages(transform.interpolating(with: interpolation))
        var curves = ChannelStages()
        if stages.hasInputStage {
            curves.input = { @Sendable channel, value in stages.inputCoordinate(channel: channel, value) }
        }
        if stages.hasOutputStage {
            curves.output = { @Sendable channel, value in stages.outputValue(channel: channel, value) }
        }
        self.init(table: stages.lattice, interpolation: interpolation, strength: strength,
                  colorMemory: colorMemory, stages: curves)
    }
}
