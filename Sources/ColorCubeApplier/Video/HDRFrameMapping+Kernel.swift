import ColorCubeTransform
import _CYCbCrKernel

extension HDRFrameMapping {
    /// For SDR output: the rendition as the lattice kernel computes it (the same tables and
    /// constants; the gamut mapping and roll-off in Float), valid while this mapping lives. The
    /// kernel reads the decoding table linearly and the others by the fourth root, as made here.
    var kernelRendition: ccycbcr_rendition? {
        guard let rollOff else { return nil }
        precondition(decode.index == .linear && sdrEncode.index == .fourthRoot && Self.hlgGain.index == .fourthRoot)
        let rows = toRendition, luminance = SIMD3<Float>(HDRRendition.luminance)
        return ccycbcr_rendition(
            decode: decode.kernelCurve, encode: sdrEncode.kernelCurve, hlg: isHLG ? 1 : 0, hlg_gain: Self.hlgGain.kernelCurve,
            hlg_weights: (Self.hlgWeights.x, Self.hlgWeights.y, Self.hlgWeights.z),
            to_rendition: (rows.0.x, rows.0.y, rows.0.z, rows.1.x, rows.1.y, rows.1.z, rows.2.x, rows.2.y, rows.2.z),
            luminance: (luminance.x, luminance.y, luminance.z), knee: Float(HighlightRollOff.knee), peak: Float(rollOff.peak))
    }
}

extension CurveTable {
    /// The table for the C kernels, valid while the table lives.
    var kernelCurve: ccycbcr_curve {
        let kind: Int32 = switch index {
        case .linear: 0
        case .squareRoot: 1
        case .fourthRoot: 2
        }
        return ccycbcr_curve(values: values, segments: Int32(segments), index: kind, inverse_domain: inverseDomain)
    }
}
