import Foundation
import ColorCubeTransform

/// A look over 0...1 continued beyond it along its own slope: inside, the look; outside, the look
/// at the nearest colour of 0...1 plus its one-sided differences (steps of 1/32) times the
/// distance. Used only to write profiles in spaces wider than the photo's: the table's nodes
/// outside the photo's gamut then carry the look's trend instead of the flat copy a clamp would
/// make, so the table's interpolation between nodes either side of the gamut's edge follows the
/// look.
struct ExtendedLookOp: TransformOp {
    let look: Transform

    /// The one-sided step of the differences.
    private static let step = 1.0 / 32

    func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        var nearest = rgb
        for channel in 0..<3 { nearest[channel] = rgb[channel] > 0 ? min(rgb[channel], 1) : 0 }
        let inside = look.apply(nearest)
        guard nearest != rgb, rgb.x.isFinite, rgb.y.isFinite, rgb.z.isFinite else { return inside }
        var result = inside
        for channel in 0..<3 where nearest[channel] != rgb[channel] {
            var neighbour = nearest
            // Step inwards from the edge: down from 1, up from 0.
            let inward = nearest[channel] >= 1 ? -Self.step : Self.step
            neighbour[channel] += inward
            let slope = (inside - look.apply(neighbour)) / -inward
            result += slope * (rgb[channel] - nearest[channel])
        }
        return result
    }

    var isPerChannel: Bool { false }

    func inverse() throws(TransformError) -> [any TransformOp] { throw .needsNumericalInverse }

    var description: String { "the look, continued beyond 0...1 along its slope at the edge" }
}
