/// A set of RGB primaries and a white point (CIE 1931 xy), and how a camera vendor adapts its
/// white to another: what a colour space's linear form is, before any curve.
public struct Gamut: Sendable, Equatable {
    /// Red, green and blue, then the white point, as xy chromaticities.
    public let red, green, blue, white: SIMD2<Double>
    /// The chromatic adaptation the space's vendor uses to reach another white (the studio config
    /// follows the vendors: Bradford for the ITU, Apple, Panasonic and RED gamuts, CAT02 for ARRI,
    /// Blackmagic, Canon, DJI, Sony and Fujifilm).
    public let adaptation: ChromaticAdaptation
    /// Set for CIE XYZ itself, whose "primaries" are the XYZ axes.
    let isXYZ: Bool

    public init(red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>, white: SIMD2<Double>,
                adaptation: ChromaticAdaptation = .bradford) {
        self.red = red
        self.green = green
        self.blue = blue
        self.white = white
        self.adaptation = adaptation
        self.isXYZ = false
    }

    private init(xyzWithWhite white: SIMD2<Double>) {
        (red, green, blue) = (SIMD2(1, 0), SIMD2(0, 1), SIMD2(0, 0))
        self.white = white
        adaptation = .bradford
        isXYZ = true
    }

    /// CIE XYZ with D65 as its white (for adaptation to other whites).
    public static let xyzD65 = Gamut(xyzWithWhite: Whites.d65)

    /// The rows of the matrix from linear RGB to XYZ (white's Y = 1).
    public var toXYZ: [SIMD3<Double>] {
        if isXYZ { return Matrix3.identity }
        let columns = [red, green, blue].map(Self.xyz)
        let primaries = Matrix3.fromColumns(columns)
        let scale = Matrix3.multiply(Matrix3.inverse(primaries), Self.xyz(white))
        return primaries.map { $0 * scale }
    }

    /// XYZ with Y = 1 of chromaticity `xy`.
    static func xyz(_ xy: SIMD2<Double>) -> SIMD3<Double> {
        SIMD3(xy.x / xy.y, 1, (1 - xy.x - xy.y) / xy.y)
    }

    /// The rows of the matrix taking linear RGB of this gamut to linear RGB of `other`, adapting
    /// the white with this gamut's vendor's transform when the whites differ.
    public func matrix(to other: Gamut) -> [SIMD3<Double>] {
        var rows = toXYZ
        if white != other.white {
            rows = Matrix3.product(adaptation.matrix(from: white, to: other.white), rows)
        }
        return Matrix3.product(Matrix3.inverse(other.toXYZ), rows)
    }
}

/// The standard white points.
public enum Whites {
    public static let d65 = SIMD2<Double>(0.3127, 0.3290)
    /// The ACES white (about D60).
    public static let aces = SIMD2<Double>(0.32168, 0.33767)
}

/// Von Kries adaptations in a cone space.
public enum ChromaticAdaptation: String, Sendable {
    case bradford
    case cat02

    private var cone: [SIMD3<Double>] {
        switch self {
        case .bradford: [SIMD3(0.8951, 0.2664, -0.1614), SIMD3(-0.7502, 1.7135, 0.0367), SIMD3(0.0389, -0.0685, 1.0296)]
        case .cat02: [SIMD3(0.7328, 0.4296, -0.1624), SIMD3(-0.7036, 1.6975, 0.0061), SIMD3(0.0030, 0.0136, 0.9834)]
        }
    }

    /// XYZ under white `source` to XYZ under white `target`.
    public func matrix(from source: SIMD2<Double>, to target: SIMD2<Double>) -> [SIMD3<Double>] {
        let s = Matrix3.multiply(cone, Gamut.xyz(source)), t = Matrix3.multiply(cone, Gamut.xyz(target))
        let gain = t / s
        return Matrix3.product(Matrix3.inverse(cone), [cone[0] * gain.x, cone[1] * gain.y, cone[2] * gain.z])
    }
}

/// 3x3 matrices as three rows.
enum Matrix3 {
    static let identity: [SIMD3<Double>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]

    static func fromColumns(_ columns: [SIMD3<Double>]) -> [SIMD3<Double>] {
        (0..<3).map { row in SIMD3(columns[0][row], columns[1][row], columns[2][row]) }
    }

    static func multiply(_ rows: [SIMD3<Double>], _ vector: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((rows[0] * vector).sum(), (rows[1] * vector).sum(), (rows[2] * vector).sum())
    }

    /// `a * b`.
    static func product(_ a: [SIMD3<Double>], _ b: [SIMD3<Double>]) -> [SIMD3<Double>] {
        let columns = fromColumns(b)
        return a.map { row in SIMD3((row * columns[0]).sum(), (row * columns[1]).sum(), (row * columns[2]).sum()) }
    }

    /// The inverse of a non-singular matrix (every matrix built from real primaries is).
    static func inverse(_ m: [SIMD3<Double>]) -> [SIMD3<Double>] {
        let (a, b, c) = (m[0], m[1], m[2])
        let r0 = SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y)
        let r1 = SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z)
        let r2 = SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x)
        let determinant = a.x * r0.x + a.y * r1.x + a.z * r2.x
        return [r0 / determinant, r1 / determinant, r2 / determinant]
    }
}
