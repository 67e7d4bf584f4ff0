/// The weights of linear sRGB in a colour's relative luminance, for `LuminanceCurvesModel`.
enum LuminanceWeights: CaseIterable, Sendable {
    /// sRGB's own (D65 white, ITU-R BT.709 primaries): ImageMagick, libvips.
    case d65
    /// Adapted to D50 (Bradford), the white of ICC profile connection: G'MIC, RawTherapee,
    /// darktable.
    case d50

    var weights: SIMD3<Double> {
        switch self {
        case .d65: SIMD3(0.2126729, 0.7151522, 0.0721750)
        case .d50: SIMD3(0.2224884, 0.7169037, 0.0606079)
        }
    }
}
