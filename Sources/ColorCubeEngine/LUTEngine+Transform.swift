import ColorCubeCore
import ColorCubeTransform

extension LUTEngine {
    /// Prepares a whole transform for application, as `ChainPlan` decides: through one lattice
    /// with per-channel curves around it (`LatticeStages`, the curves handed to the kernel as
    /// `ChannelStages`) where that is exact, else as the chain's steps (`ChainKernel`). Nothing is
    /// baked unless the bake measures under `ChainPlan.bakingTolerance`. `interpolation`, when
    /// given, reads every lattice whatever the file asked for; nil keeps each 3D LUT's own (a CLF
    /// states one, other formats are trilinear).
    /// - Throws: `TransformError` when a 3D LUT of the chain is larger than the baker takes.
    public convenience init(transform: Transform, interpolation: Interpolation? = nil, strength: Float = 1,
                            colorMemory: ColorMemory = .recent) throws(TransformError) {
        let transform = interpolation.map { transform.interpolating(with: $0) } ?? transform
        // The lattice the kernel reads: the chain's only 3D LUT as its file asks, else a bake or an
        // identity, read trilinearly.
        let lattices = transform.lattices
        let interpolation = interpolation ?? (lattices.count == 1 ? lattices[0].interpolation : .trilinear)
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
