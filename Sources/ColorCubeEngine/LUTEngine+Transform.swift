import ColorCubeCore
import ColorCubeTransform

extension LUTEngine {
    /// Prepares a whole transform for application, as `ChainPlan` decides: through one lattice
    /// with per-channel curves around it (`LatticeStages`, the curves handed to the kernel as
    /// `ChannelStages`) where that is exact, else as the chain's steps (`ChainKernel`). Nothing is
    /// baked unless the bake measures under `ChainPlan.bakingTolerance`. `interpolation` reads
    /// every lattice whatever the file asked for.
    /// - Throws: `TransformError` when a 3D LUT of the chain is larger than the baker takes.
    public convenience init(transform: Transform, interpolation: Interpolation = .trilinear, strength: Float = 1,
                            colorMemory: ColorMemory = .recent) throws(TransformError) {
        let transform = transform.interpolating(with: interpolation)
        guard let stages = try ChainPlan(transform).stages else {
            self.init(steps: ChainKernel(transform: transform, strength: strength), interpolation: interpolation,
                      strength: strength, colorMemory: colorMemory)
            return
        }
        var curves = ChannelStages()
        if stages.hasInputStage {
            curves.input = { @Sendable channel, value in stages.inputCoordinate(channel: channel, value) }
        }
        if stages.hasOutputStage {
            curves.output = { @Sendable channel, value in stages.outputValue(channel: channel, value) }
        }
        self.init(table: stages.lattice, interpolation: interpolation, strength: strength,
                  colorMemory: colorMemory, stages: curves, transform: transform)
    }
}
