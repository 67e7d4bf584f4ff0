import ColorCubeTransform

/// The last step of a look written as a profile: linear values in the table's primaries encoded
/// with the table's curve, where values beyond 0...1 keep their excess (encoded 1 plus what was
/// above 1, 0 minus what was below 0). The table holds only 0...1, so the writer clamps them, and
/// says so, as for every format that holds 0...1: a scene-linear look's highlights are not cut
/// without a word.
struct TableEncodingOp: TransformOp {
    let gamma: RGBTableGamma

    func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        var result = rgb
        for channel in 0..<3 {
            let value = rgb[channel]
            guard value.isFinite else { result[channel] = value > 0 ? value : 0; continue }
            let clamped = min(max(value, 0), 1)
            result[channel] = gamma.encode(clamped) + (value - clamped)
        }
        return result
    }

    var isPerChannel: Bool { true }

    func inverse() throws(TransformError) -> [any TransformOp] { [RGBTableGammaOp(gamma, encodes: false)] }

    var description: String { "Camera Raw \(gamma.name) curve, linear to encoded, values beyond 0...1 kept" }
}
