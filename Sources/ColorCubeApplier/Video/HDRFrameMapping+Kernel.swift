import ColorCubeTransform
import _CYCbCrKernel

extension HDRFrameMapping {
    /// For SDR output: the rendition as the lattice kernel computes it, from the formulas this
    /// mapping's tables sample (the signal's decoding, HLG's OOTF, gamma 2.4) and its constants.
    var kernelRendition: ccycbcr_rendition? {
        guard let rollOff else { return nil }
        let rows = toRendition, luminance = SIMD3<Float>(HDRRendition.luminance)
        return ccycbcr_rendition(
            hlg: isHLG ? 1 : 0, hlg_scene_scale: Float(Self.hlgSceneScale),
            hlg_weights: (Self.hlgWeights.x, Self.hlgWeights.y, Self.hlgWeights.z),
            hlg_gain_exponent: Float(Self.hlgGamma - 1), hlg_gain_scale: Float(Self.hlgDisplayScale), hlg_gain_floor: Float(Self.hlgFloor),
            to_rendition: (rows.0.x, rows.0.y, rows.0.z, rows.1.x, rows.1.y, rows.1.z, rows.2.x, rows.2.y, rows.2.z),
            luminance: (luminance.x, luminance.y, luminance.z), knee: Float(HighlightRollOff.knee), peak: Float(rollOff.peak),
            sdr_exponent: Float(1 / HDRRendition.sdrGamma))
    }
}
