import Foundation

/// CLF's Log node: logarithms and their inverses per channel, in eight styles.
///
/// With `m` = linSideSlope, `b` = linSideOffset, `k` = logSideSlope, `kb` = logSideOffset and
/// the op's `base`:
/// - `log10`, `log2`: `out = log(max(x, m_min))` in base 10 or 2; `antiLog10`, `antiLog2`: `10^x`, `2^x`.
/// - `linToLog`: `out = k * log_base(max(m * x + b, m_min)) + kb`;
///   `logToLin`: `out = (base^((x - kb) / k) - b) / m`.
/// - `cameraLinToLog`: below `linSideBreak` a straight line `linearSlope * x + linearOffset`, at
///   and above it `linToLog`; `linearSlope`, when the file gives none, is the log curve's slope at
///   the break, and `linearOffset` makes the two meet there. `cameraLogToLin` is its inverse,
///   switching at the log side's value of the break. A `linearSlope` of 0, which OpenColorIO
///   accepts, makes the line flat: `cameraLinToLog` gives the break's log value below the break
///   and `cameraLogToLin` gives -infinity below the log side's break, as OpenColorIO does.
///
/// `m_min` is Float's smallest normal number (1.17549435e-38), where OpenColorIO clamps the
/// logarithm's argument: zero, negative and NaN inputs give `log(m_min)` rather than -inf or NaN.
public struct LogOp: TransformOp {
    public enum Style: String, CaseIterable, Sendable {
        case log10, log2, antiLog10, antiLog2, linToLog, logToLin, cameraLinToLog, cameraLogToLin

        /// A CLF style name, any case, or nil.
        public init?(clfName: String) {
            guard let style = Style.allCases.first(where: { $0.rawValue.lowercased() == clfName.lowercased() }) else { return nil }
            self = style
        }

        /// True for the styles that take `LogParams`.
        public var takesParameters: Bool { !(self == .log10 || self == .log2 || self == .antiLog10 || self == .antiLog2) }
        /// True for the camera styles, which need `linSideBreak`.
        public var isCamera: Bool { self == .cameraLinToLog || self == .cameraLogToLin }

        public var inverse: Style {
            switch self {
            case .log10: .antiLog10
            case .antiLog10: .log10
            case .log2: .antiLog2
            case .antiLog2: .log2
            case .linToLog: .logToLin
            case .logToLin: .linToLog
            case .cameraLinToLog: .cameraLogToLin
            case .cameraLogToLin: .cameraLinToLog
            }
        }
    }

    /// One channel's LogParams.
    public struct Parameters: Sendable, Equatable {
        public var logSideSlope: Double
        public var logSideOffset: Double
        public var linSideSlope: Double
        public var linSideOffset: Double
        /// Where a camera style switches from the line to the log curve (linear side); nil otherwise.
        public var linSideBreak: Double?
        /// The camera styles' line slope; nil: the log curve's slope at the break.
        public var linearSlope: Double?

        public init(logSideSlope: Double = 1, logSideOffset: Double = 0, linSideSlope: Double = 1, linSideOffset: Double = 0,
                    linSideBreak: Double? = nil, linearSlope: Double? = nil) {
            self.logSideSlope = logSideSlope
            self.logSideOffset = logSideOffset
            self.linSideSlope = linSideSlope
            self.linSideOffset = linSideOffset
            self.linSideBreak = linSideBreak
            self.linearSlope = linearSlope
        }
    }

    /// Where OpenColorIO clamps a logarithm's argument: Float's smallest normal number.
    public static let smallestArgument = Double(Float.leastNormalMagnitude)

    public let style: Style
    /// The logarithm's base for the parametric styles (10 and 2 are implied by the basic styles).
    public let base: Double
    /// Red, green and blue.
    public let parameters: [Parameters]

    /// Per channel, for the camera styles: (linear slope, linear offset, log side break).
    let camera: [(slope: Double, offset: Double, logBreak: Double)]
    /// The natural logarithm of `base`, worked out once.
    let lnBase: Double

    /// - Throws: `TransformError.invalidOperation` unless there are three channels of finite
    ///   parameters, `base` is positive and not 1, both sides' slopes are not 0, and a camera style
    ///   has a `linSideBreak` where `linSideSlope * linSideBreak + linSideOffset` is above 0.
    public init(style: Style, base: Double = 10, parameters: [Parameters] = Array(repeating: Parameters(), count: 3)) throws(TransformError) {
        guard parameters.count == 3 else {
            throw .invalidOperation(operation: "log", reason: "needs parameters for 3 channels, found \(parameters.count)")
        }
        guard base.isFinite, base > 0, base != 1 else {
            throw .invalidOperation(operation: "log", reason: "base \(Describe.number(base)) must be a positive number other than 1")
        }
        var camera: [(slope: Double, offset: Double, logBreak: Double)] = []
        // OpenColorIO refuses channels that differ in which optional parameters they give.
        guard Set(parameters.map { $0.linearSlope == nil }).count == 1, Set(parameters.map { $0.linSideBreak == nil }).count == 1 else {
            throw .invalidOperation(operation: "log", reason: "linSideBreak and linearSlope must be given for all three channels or none")
        }
        for (channel, p) in parameters.enumerated() {
            let values = [p.logSideSlope, p.logSideOffset, p.linSideSlope, p.linSideOffset, p.linSideBreak ?? 0, p.linearSlope ?? 0]
            guard values.allSatisfy(\.isFinite) else {
                throw .invalidOperation(operation: "log", reason: "channel \(channel + 1) has a parameter that is not a finite number")
            }
            guard p.logSideSlope != 0, p.linSideSlope != 0 else {
                throw .invalidOperation(operation: "log", reason: "logSideSlope and linSideSlope must not be 0")
            }
            guard style.isCamera else { continue }
            guard let linBreak = p.linSideBreak else {
                throw .invalidOperation(operation: "log", reason: "the \(style.rawValue) style needs linSideBreak")
            }
            let argument = p.linSideSlope * linBreak + p.linSideOffset
            guard argument > 0 else {
                throw .invalidOperation(operation: "log", reason: "linSideSlope * linSideBreak + linSideOffset is "
                    + "\(Describe.number(argument)); the logarithm needs it above 0")
            }
            let slope = p.linearSlope ?? p.logSideSlope * p.linSideSlope / (argument * Foundation.log(base))
            let logBreak = p.logSideSlope * Foundation.log(argument) / Foundation.log(base) + p.logSideOffset
            camera.append((slope, logBreak - slope * linBreak, logBreak))
        }
        self.style = style
        self.base = style == .log2 || style == .antiLog2 ? 2 : style == .log10 || style == .antiLog10 ? 10 : base
        self.parameters = parameters
        self.camera = camera
        lnBase = Foundation.log(self.base)
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(channel(rgb.x, 0), channel(rgb.y, 1), channel(rgb.z, 2))
    }

    /// The same values as `apply(_:)`, a channel at a time with its parameters read once (the
    /// camera styles, every camera log curve, are the common ones in chains).
    public func apply(red: UnsafeMutablePointer<Double>, green: UnsafeMutablePointer<Double>,
                      blue: UnsafeMutablePointer<Double>, count: Int) {
        for (index, plane) in [red, green, blue].enumerated() {
            let p = parameters[index]
            switch style {
            case .cameraLinToLog:
                let line = camera[index]
                for i in 0..<count { plane[i] = cameraLinToLog(plane[i], p, line) }
            case .cameraLogToLin:
                let line = camera[index]
                for i in 0..<count { plane[i] = cameraLogToLin(plane[i], p, line) }
            default:
                for i in 0..<count { plane[i] = channel(plane[i], index) }
            }
        }
    }

    private func channel(_ x: Double, _ index: Int) -> Double {
        let p = parameters[index]
        switch style {
        case .log10: return Foundation.log10(Self.logArgument(x))
        case .log2: return Foundation.log2(Self.logArgument(x))
        case .antiLog10: return Foundation.pow(10, x)
        case .antiLog2: return Foundation.exp2(x)
        case .linToLog: return linToLog(x, p)
        case .logToLin: return logToLin(x, p)
        case .cameraLinToLog:
            return cameraLinToLog(x, p, camera[index])
        case .cameraLogToLin:
            return cameraLogToLin(x, p, camera[index])
        }
    }

    /// `x`, raised to `smallestArgument` when below it or NaN.
    private static func logArgument(_ x: Double) -> Double {
        x > smallestArgument ? x : smallestArgument
    }

    /// The camera styles: the straight line below the break, the log curve at and above it.
    @inline(__always)
    private func cameraLinToLog(_ x: Double, _ p: Parameters, _ line: (slope: Double, offset: Double, logBreak: Double)) -> Double {
        x < (p.linSideBreak ?? 0) ? line.slope * x + line.offset : linToLog(x, p)
    }

    @inline(__always)
    private func cameraLogToLin(_ x: Double, _ p: Parameters, _ line: (slope: Double, offset: Double, logBreak: Double)) -> Double {
        x < line.logBreak ? (x - line.offset) / line.slope : logToLin(x, p)
    }

    private func linToLog(_ x: Double, _ p: Parameters) -> Double {
        p.logSideSlope * Foundation.log(Self.logArgument(p.linSideSlope * x + p.linSideOffset)) / lnBase + p.logSideOffset
    }

    private func logToLin(_ x: Double, _ p: Parameters) -> Double {
        (Foundation.exp((x - p.logSideOffset) / p.logSideSlope * lnBase) - p.linSideOffset) / p.linSideSlope
    }

    public var isPerChannel: Bool { true }

    /// The opposite style with the same parameters: exact, except that the inputs a logarithm
    /// clamped (where `m * x + b` is 0 or below) come back as the smallest argument's preimage.
    /// - Throws: `TransformError.invalidOperation` for a `cameraLinToLog` whose straight part is
    ///   flat (`linearSlope` 0): every input below the break gives one value, so none comes back.
    public func inverse() throws(TransformError) -> [any TransformOp] {
        if style == .cameraLinToLog, camera.contains(where: { $0.slope == 0 }) {
            throw .invalidOperation(operation: "log", reason: "its straight part is flat (linearSlope 0), so it has no inverse")
        }
        return [try LogOp(style: style.inverse, base: base, parameters: parameters)]
    }

    public var description: String {
        guard style.takesParameters else { return "log (\(style.rawValue))" }
        let distinct = parameters.allSatisfy { $0 == parameters[0] } ? [parameters[0]] : parameters
        let text = distinct.map { p in
            var items = ["logSideSlope \(Describe.number(p.logSideSlope))", "logSideOffset \(Describe.number(p.logSideOffset))",
                         "linSideSlope \(Describe.number(p.linSideSlope))", "linSideOffset \(Describe.number(p.linSideOffset))"]
            if let linBreak = p.linSideBreak { items.append("linSideBreak \(Describe.number(linBreak))") }
            if let slope = p.linearSlope { items.append("linearSlope \(Describe.number(slope))") }
            return items.joined(separator: ", ")
        }.joined(separator: "; ")
        return "log (\(style.rawValue), base \(Describe.number(base))): \(text)"
    }
}
