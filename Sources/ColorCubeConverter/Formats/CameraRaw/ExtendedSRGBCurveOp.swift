import ColorCubeTransform
import Foundation

/// The sRGB curve over every real number: odd about 0, its power part continued above 1. Photos'
/// values between a profile's table and a look, where a clamp would bend the table's trend.
struct ExtendedSRGBCurveOp: TransformOp {
    /// True for linear to encoded.
    let encodes: Bool

    func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(curve(rgb.x), curve(rgb.y), curve(rgb.z))
    }

    private func curve(_ value: Double) -> Double {
        let magnitude = abs(value)
        let result: Double
        if encodes {
            result = magnitude <= 0.0031308 ? 12.92 * magnitude : 1.055 * pow(magnitude, 1 / 2.4) - 0.055
        } else {
            result = magnitude <= 0.04045 ? magnitude / 12.92 : pow((magnitude + 0.055) / 1.055, 2.4)
        }
        return value < 0 ? -result : result
    }

    var isPerChannel: Bool { true }

    func inverse() throws(TransformError) -> [any TransformOp] { [ExtendedSRGBCurveOp(encodes: !encodes)] }

    var description: String { "sRGB curve over all values, \(encodes ? "linear to encoded" : "encoded to linear")" }
}
