import Foundation

/// A published transfer function per channel: a camera log curve, ACEScc, or an HDR signal (PQ,
/// HLG), from its code values to linear light (`decode`) or back (`encode`).
///
/// These are the curves that CLF's Log and Exponent nodes cannot hold exactly (a square-root toe,
/// a reflected log, two switch points, a rational function). Each is written here from its
/// vendor's or standard's formula; a CLF writer samples it at every half-float value. The simple
/// log curves of most cameras (S-Log3, LogC, V-Log, ...) are `LogOp`s and sRGB-like curves are
/// `ExponentOp`s: this type holds only what those cannot.
///
/// Linear light is scene-linear (18% grey at 0.18) for the camera curves; PQ's is display light
/// with 1.0 at 100 cd/m² (so PQ 1.0 is 100.0), HLG's is its scene light E of BT.2100 (0...1).
/// PQ and HLG are odd-symmetric about 0 (negative values mirror positive ones).
public struct TransferFunctionOp: TransformOp {
    /// The curves, each named after its published document.
    public enum Function: String, CaseIterable, Sendable {
        /// ACEScc (Academy S-2014-003): a pure log2 with a toe that reaches zero at 2^-16.
        case acescc
        /// Apple Log (Apple Log Profile white paper): a squared toe under a log2; Apple Log 2 uses the same curve.
        case appleLog
        /// Canon Log 2 and Canon Log 3 (Canon's white papers), reflection scaled by 0.9 and codes
        /// kept to 0...1 as the studio config does.
        case canonLog2, canonLog3
        /// SMPTE ST 2084 (PQ), display light in units of 100 cd/m².
        case pq
        /// ARIB STD-B67 / BT.2100 HLG OETF and its inverse, scene light 0...1.
        case hlg
        /// Fujifilm F-Log and F-Log2 (Fujifilm's data sheets).
        case fLog, fLog2
        /// Nikon N-Log (Nikon's technical paper): a cube-root toe under a natural log.
        case nLog
        /// Leica L-Log (Leica's reference document).
        case lLog
        /// ACES's film density (ADX, SMPTE ST 2065-3): channel-independent density to relative
        /// exposure, through the Academy's table of log exposures below density 0.6 and a straight
        /// line of slope 100/55 above; log exposure kept to -10...log10(65504), as the studio config does.
        case adx

        /// The curve's name as its vendor or standard writes it.
        public var title: String {
            switch self {
            case .acescc: "ACEScc"
            case .appleLog: "Apple Log"
            case .canonLog2: "Canon Log 2"
            case .canonLog3: "Canon Log 3"
            case .pq: "SMPTE ST 2084 (PQ)"
            case .hlg: "HLG (ARIB STD-B67)"
            case .fLog: "F-Log"
            case .fLog2: "F-Log2"
            case .nLog: "N-Log"
            case .lLog: "L-Log"
            case .adx: "ADX density"
            }
        }
    }

    public enum Direction: String, Sendable {
        /// Code values to linear light.
        case decode
        /// Linear light to code values.
        case encode
    }

    public let function: Function
    public let direction: Direction

    public init(_ function: Function, _ direction: Direction) {
        self.function = function
        self.direction = direction
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(value(rgb.x), value(rgb.y), value(rgb.z))
    }

    public func apply(red: UnsafeMutablePointer<Double>, green: UnsafeMutablePointer<Double>,
                      blue: UnsafeMutablePointer<Double>, count: Int) {
        for i in 0..<count {
            red[i] = value(red[i])
            green[i] = value(green[i])
            blue[i] = value(blue[i])
        }
    }

    /// One channel's value.
    public func value(_ x: Double) -> Double {
        guard !x.isNaN else { return 0 }
        return direction == .decode ? Self.decode(function, x) : Self.encode(function, x)
    }

    public var isPerChannel: Bool { true }

    public func inverse() throws(TransformError) -> [any TransformOp] {
        [TransferFunctionOp(function, direction == .decode ? .encode : .decode)]
    }

    public var description: String { "transfer function (\(function.title), \(direction.rawValue))" }

    // MARK: The formulas

    private static func decode(_ function: Function, _ x: Double) -> Double {
        switch function {
        case .acescc:
            // The studio config clamps ACEScc to -0.36...1.5 and its linear result to 0 and above.
            let c = min(max(x, -0.36), 1.5)
            let linear = c < (9.72 - 15) / 17.52 ? (exp2(c * 17.52 - 9.72) - exp2(-16)) * 2
                : c < (log2(65504) + 9.72) / 17.52 ? exp2(c * 17.52 - 9.72) : 65504
            return max(linear, 0)
        case .appleLog:
            let a = AppleLog.self
            let toeTop = a.c * (a.rt - a.r0) * (a.rt - a.r0)
            if x >= toeTop { return exp2((x - a.delta) / a.gamma) - a.beta }
            if x >= 0 { return (x / a.c).squareRoot() + a.r0 }
            return a.r0
        case .canonLog2:
            // The studio config reads Canon Log through a table over 0...1: codes outside clamp.
            let x = min(max(x, 0), 1)
            let linear = x < 0.092864125 ? -(pow(10, (0.092864125 - x) / 0.24136077) - 1) / 87.09937546
                : (pow(10, (x - 0.092864125) / 0.24136077) - 1) / 87.09937546
            return linear * 0.9
        case .canonLog3:
            let x = min(max(x, 0), 1)
            let linear: Double
            if x < 0.097465473 {
                linear = -(pow(10, (0.12783901 - x) / 0.36726845) - 1) / 14.98325
            } else if x <= 0.15277891 {
                linear = (x - 0.12512219) / 1.9754798
            } else {
                linear = (pow(10, (x - 0.12240537) / 0.36726845) - 1) / 14.98325
            }
            return linear * 0.9
        case .pq:
            return FixedFunctionFormulas.pqToLin(x)
        case .hlg:
            let h = HLG.self, e = abs(x)
            let y = e <= 0.5 ? e * e / 3 : (exp((e - h.c) / h.a) + h.b) / 12
            return x < 0 ? -y : y
        case .fLog, .fLog2:
            let f = function == .fLog ? FLog.first : FLog.second
            return x >= f.cut2 ? (pow(10, (x - f.d) / f.c) - f.b) / f.a : (x - f.f) / f.e
        case .nLog:
            let n = NLog.self
            return x < n.codeCut ? pow(x / n.a, 3) - n.b : exp((x - n.d) / n.c)
        case .lLog:
            let l = LLog.self
            return x <= l.codeCut ? (x - l.b) / l.a : (pow(10, (x - l.f) / l.c) - l.e) / l.d
        case .adx:
            return pow(10, ADX.logExposure(density: x))
        }
    }

    private static func encode(_ function: Function, _ x: Double) -> Double {
        switch function {
        case .acescc:
            // Below 0 the studio config gives its table's lower end, -0.36; at 0 the formula's -0.3584.
            if x < 0 { return -0.36 }
            if x < exp2(-15) { return (log2(exp2(-16) + x * 0.5) + 9.72) / 17.52 }
            return (log2(x) + 9.72) / 17.52
        case .appleLog:
            let a = AppleLog.self
            if x >= a.rt { return a.gamma * log2(x + a.beta) + a.delta }
            if x >= a.r0 { return a.c * (x - a.r0) * (x - a.r0) }
            return 0
        case .canonLog2:
            let r = x / 0.9
            let code = r < 0 ? -0.24136077 * log10(-r * 87.09937546 + 1) + 0.092864125
                : 0.24136077 * log10(r * 87.09937546 + 1) + 0.092864125
            return min(max(code, 0), 1)
        case .canonLog3:
            let r = x / 0.9
            let code = r < -0.014 ? -0.36726845 * log10(-r * 14.98325 + 1) + 0.12783901
                : r <= 0.014 ? 1.9754798 * r + 0.12512219 : 0.36726845 * log10(r * 14.98325 + 1) + 0.12240537
            return min(max(code, 0), 1)
        case .pq:
            return FixedFunctionFormulas.linToPQ(x)
        case .hlg:
            let h = HLG.self, e = abs(x)
            let v = e <= 1.0 / 12 ? (3 * e).squareRoot() : h.a * log(12 * e - h.b) + h.c
            return x < 0 ? -v : v
        case .fLog, .fLog2:
            let f = function == .fLog ? FLog.first : FLog.second
            return x >= f.cut1 ? f.c * log10(f.a * x + f.b) + f.d : f.e * x + f.f
        case .nLog:
            let n = NLog.self
            return x < n.cut ? n.a * cbrt(x + n.b) : n.c * log(x) + n.d
        case .lLog:
            let l = LLog.self
            return x <= l.cut ? l.a * x + l.b : l.c * log10(l.d * x + l.e) + l.f
        case .adx:
            return ADX.density(logExposure: x > 0 ? log10(x) : -.infinity)
        }
    }

    private enum AppleLog {
        static let r0 = -0.05641088, rt = 0.01, c = 47.28711236
        static let beta = 0.00964052, gamma = 0.08550479, delta = 0.69336945
    }

    enum HLG {
        static let a = 0.17883277, b = 1 - 4 * 0.17883277
        static let c = 0.5 - 0.17883277 * log(4 * 0.17883277)
    }

    /// The density-to-log-exposure curve of ACES's ADX to ACES2065-1 transform.
    private enum ADX {
        /// Log exposure at the densities of the Academy's table; below its first point the first
        /// segment goes on, above its last the line of slope 100/55 through the reference point.
        static let densities = [-0.19, 0.01, 0.028, 0.054, 0.095, 0.145, 0.22, 0.3, 0.4, 0.5, 0.6]
        static let logExposures = [-6.0, -2.721718645, -2.521718645, -2.321718645, -2.121718645, -1.921718645,
                                   -1.721718645, -1.521718645, -1.321718645, -1.121718645, -0.926545676714876]
        /// The density that log exposure 0 would have on the straight part, less log10(0.18).
        static let referencePoint = (7120.0 - 1520) / 8000 * (100.0 / 55) - log10(0.18)
        static let lowest = -10.0, highest = log10(65504.0)

        static func logExposure(density: Double) -> Double {
            let value: Double
            if density > densities[densities.count - 1] {
                value = 100.0 / 55 * density - referencePoint
            } else {
                var i = 1
                while i < densities.count - 1 && density > densities[i] { i += 1 }
                let t = (density - densities[i - 1]) / (densities[i] - densities[i - 1])
                value = logExposures[i - 1] + t * (logExposures[i] - logExposures[i - 1])
            }
            return min(max(value, lowest), highest)
        }

        static func density(logExposure: Double) -> Double {
            let e = min(max(logExposure, lowest), highest)
            if e > logExposures[logExposures.count - 1] { return (e + referencePoint) * 55 / 100 }
            var i = 1
            while i < logExposures.count - 1 && e > logExposures[i] { i += 1 }
            let t = (e - logExposures[i - 1]) / (logExposures[i] - logExposures[i - 1])
            return densities[i - 1] + t * (densities[i] - densities[i - 1])
        }
    }

    private struct FLog {
        let a, b, c, d, e, f, cut1, cut2: Double
        static let first = FLog(a: 0.555556, b: 0.009468, c: 0.344676, d: 0.790453, e: 8.735631, f: 0.092864,
                                cut1: 0.00089, cut2: 0.100537775223865)
        static let second = FLog(a: 5.555556, b: 0.064829, c: 0.245281, d: 0.384316, e: 8.799461, f: 0.092864,
                                 cut1: 0.000889, cut2: 0.100686685370811)
    }

    private enum NLog {
        static let cut = 0.328, a = 650.0 / 1023, b = 0.0075, c = 150.0 / 1023, d = 619.0 / 1023
        static let codeCut = 452.0 / 1023
    }

    private enum LLog {
        static let cut = 0.006, codeCut = 0.138, a = 8.0, b = 0.09, c = 0.27, d = 1.3, e = 0.0115, f = 0.6
    }
}
