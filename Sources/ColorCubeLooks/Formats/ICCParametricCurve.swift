import Foundation
import ColorCubeCore

/// One channel's ICC parametricCurveType, checked and evaluated by OpenColorIO 2.x's rules, in
/// Float32 as OpenColorIO computes it.
///
/// The function types and their parameters (g, a, b, c, d, e, f, each s15Fixed16 / 65536):
/// - 0: `y = x^g`
/// - 1: `y = (ax + b)^g` for `x >= -b/a`, else 0
/// - 2: `y = (ax + b)^g + c` for `x >= -b/a`, else c
/// - 3: `y = (ax + b)^g` for `x >= d`, else `cx`
/// - 4: `y = (ax + b)^g + e` for `x >= d`, else `cx + f`
///
/// A curve is refused unless it has its type's number of parameters and cannot fall: g > 0,
/// a > 0 (types 1 to 4), c >= 0 (types 3 and 4), no downward jump where the straight segment meets
/// the power law (both sides rounded to 10 bits), and no negative number raised to the power g
/// at that meeting point. Types 1 to 4 clamp their input and output to 0...1, as ICC says a tone
/// curve does; type 0 is read as an exponent instead (`ICCDisplayProfile`).
struct ICCParametricCurve {
    /// The function type, 0 to 4.
    let function: Int
    /// g, a, b, c, d, e, f: as many as the type has, each rounded to Float.
    let parameters: [Float]

    /// Parameters per function type 0, 1, 2, 3, 4.
    static let parameterCounts = [1, 3, 4, 5, 7]

    /// - Parameters:
    ///   - raw: the parameters as stored, s15Fixed16.
    ///   - channel: "red", "green" or "blue", for messages.
    /// - Throws: `LUTFileError.undecodable` naming `path`, the channel, the parameters and the rule
    ///   the curve breaks.
    init(function: UInt16, raw: [Int32], channel: String, path: String) throws(LUTFileError) {
        let values = raw.map { Float(Double($0) / 65536) }
        func refuse(_ rule: String) -> LUTFileError {
            let listed = values.map { Double($0).shortestText }.joined(separator: " ")
            return .undecodable(path: path, reason: "the \(channel) tone curve (parametric type \(function), parameters \(listed)) "
                + "\(rule); OpenColorIO refuses it too")
        }
        guard Int(function) < Self.parameterCounts.count else {
            throw refuse("has an unknown function type (ICC defines 0 to 4)")
        }
        let expected = Self.parameterCounts[Int(function)]
        guard values.count == expected else {
            throw refuse("has \(values.count) parameters where its type has \(expected)")
        }
        let g = values[0]
        guard g > 0 else { throw refuse("has a power g that is not above 0, so it falls") }
        guard function == 0 || values[1] > 0 else {
            throw refuse("has a slope a that is not above 0, so it falls")
        }
        if function >= 3 {
            let (a, b, c, d) = (values[1], values[2], values[3], values[4])
            let (e, f): (Float, Float) = function == 4 ? (values[5], values[6]) : (0, 0)
            guard c >= 0 else { throw refuse("has a straight segment c that falls") }
            // powf of a negative number is NaN: that counts as a downward jump, as in OpenColorIO.
            let straight = Self.quantized(c * d + f), power = Self.quantized(powf(a * d + b, g) + e)
            guard !(straight > power), !power.isNaN else {
                throw refuse("jumps down where the straight segment meets the power law (at d)")
            }
            guard a * d + b >= 0 else {
                throw refuse("raises a negative number to the power g at d")
            }
        }
        self.function = Int(function)
        parameters = values
    }

    /// `value` rounded to the nearest of 1024 levels over 0...1 (10 bits).
    private static func quantized(_ value: Float) -> Float {
        (value * 1023).rounded(.toNearestOrAwayFromZero) / 1023
    }

    /// The curve at `x`, input and output clamped to 0...1 (types 1 to 4; type 0 gives `x^g`).
    func callAsFunction(_ x: Float) -> Float {
        // NaN clamps to 0 on both sides, as in OpenColorIO.
        let v = x > 0 ? min(x, 1) : 0
        let g = parameters[0]
        let y: Float
        switch function {
        case 1:
            let (a, b) = (parameters[1], parameters[2])
            y = v >= -b / a ? powf(a * v + b, g) : 0
        case 2:
            let (a, b, c) = (parameters[1], parameters[2], parameters[3])
            y = v >= -b / a ? powf(a * v + b, g) + c : c
        case 3:
            let (a, b, c, d) = (parameters[1], parameters[2], parameters[3], parameters[4])
            y = v >= d ? powf(a * v + b, g) : c * v
        case 4:
            let (a, b, c, d, e, f) = (parameters[1], parameters[2], parameters[3], parameters[4], parameters[5], parameters[6])
            y = v >= d ? powf(a * v + b, g) + e : c * v + f
        default:
            y = powf(v, g)
        }
        return y > 0 ? min(y, 1) : 0
    }
}
