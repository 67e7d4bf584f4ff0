import Foundation

/// OpenColorIO's GradingTone: a colourist's tonal grade (blacks, shadows, midtones, highlights,
/// whites and an S-contrast) in one of three spaces, forward or reverse, as OpenColorIO 2.6
/// evaluates it.
///
/// Each control is a curve made of quadratic pieces (see `GradingToneOp+Curves.swift`), applied
/// to each channel with the channel's value, then to all three with the master value. Forward:
/// midtones, highlights, whites, shadows, blacks, then the S-contrast; the reverse inverts them
/// in the opposite order, the master before the channels. The log and video styles work on the
/// values as they are, in the range 0...1 (S-contrast pivot 0.4); the linear style works in a
/// log2 encoding of them (`log2((x - 0.000157849851665374) / 0.179842150148334626)` above
/// 0.0041318374739483946, a line below reaching -5.5 there), range -5.5...7.5 (S-contrast pivot
/// 0, top 6.5), and decodes at the end.
///
/// What OpenColorIO does that surprises, and colorcube does too:
/// - Where the whites and blacks act depends on the master highlights and shadows: their start
///   and width are moved through the master highlights (shadows) curve first.
/// - A value above 1 bends the curve by the inverse of the curve a value as far below 1 gives.
/// - The whites curve continues above its top with a quadratic, not a line.
/// - The result is limited to 65504 (the largest half float); nothing limits it below, and NaN
///   passes through. A grade whose values are all 1 passes every value through, in any style.
/// - OpenColorIO's optimiser drops a grade followed by its reverse with the same values;
///   colorcube applies both as written (the two agree up to rounding).
///
/// OpenColorIO encodes the linear style with SSE approximations of log2 and 2^x; colorcube uses
/// the exact functions, and the two differ by up to about 1.5e-4 relative there (1e-6 in the
/// log and video styles, where no such function is taken).
public struct GradingToneOp: TransformOp {
    public typealias Style = GradingStyle

    public let style: Style
    /// Whether this is the reverse grade (OpenColorIO's `logRev`, `linearRev`, `videoRev`).
    public let isReverse: Bool
    public let parameters: Parameters
    /// Whether the file marks the grade dynamic (`DynamicParameter param="TONE"`): it is applied
    /// with the values the file gives, and the description says so.
    public let dynamic: Bool

    /// The largest value the grade puts out, the largest finite half float.
    public static let largestOutput = 65504.0

    /// One step of the grade: a curve for one channel (0, 1, 2) or, with `channel` nil, for all three.
    private enum Curve {
        case mids(Mids)
        /// A highlights or shadows curve, evaluated forward by `bend` unless `inverted`.
        case bend(Bend, inverted: Bool)
        case ends(Ends)

        func forward(_ t: Double, master: Bool) -> Double {
            switch self {
            case .mids(let mids): mids.value(t)
            case .bend(let bend, let inverted): inverted ? bend.unbend(t) : bend.bend(t)
            case .ends(let ends): ends.forward(t)
            }
        }

        func reverse(_ t: Double, master: Bool) -> Double {
            switch self {
            case .mids(let mids): mids.inverse(t, master: master)
            case .bend(let bend, let inverted): inverted ? bend.bend(t) : bend.unbend(t)
            case .ends(let ends): ends.reverse(t)
            }
        }
    }

    /// The controls in forward order, each its curves for the channels (0, 1, 2) and for all
    /// three (nil), in that order; the reverse runs the controls backwards, the master first.
    private let controls: [[(curve: Curve, channel: Int?)]]
    private let sContrast: SContrast?

    /// - Throws: `TransformError.invalidOperation` where OpenColorIO refuses the values (see
    ///   `Parameters.defect()`).
    public init(style: Style, isReverse: Bool = false, parameters: Parameters, dynamic: Bool = false) throws(TransformError) {
        if let defect = parameters.defect() {
            throw .invalidOperation(operation: "grading tone", reason: defect)
        }
        self.style = style
        self.isReverse = isReverse
        self.parameters = parameters
        self.dynamic = dynamic
        let range = Self.range(style)
        let p = parameters
        var controls: [[(curve: Curve, channel: Int?)]] = []
        func add(_ values: [Double], _ make: (Double) -> Curve?) {
            controls.append(values.enumerated().compactMap { index, value in make(value).map { ($0, index == 3 ? nil : index) } })
        }
        add(p.midtones.values) { value in
            let adjust = min(max(value, 0.01), 1.99)
            guard adjust != 1 else { return nil }
            return .mids(Mids(value: adjust, center: p.midtones.start, width: p.midtones.width, bottom: range.bottom, top: range.top))
        }
        // The highlights act from their start (kept 0.01 below the pivot) up to their pivot.
        let highlightsStart = min(p.highlights.start, p.highlights.width - 0.01), highlightsPivot = p.highlights.width
        add(p.highlights.values) { value in
            Self.bend(2 - value, from: highlightsStart, to: highlightsPivot, bottom: false)
        }
        let whitesStart = Self.moved(p.whites.start, 2 - p.highlights.values[3], from: highlightsStart, to: highlightsPivot, bottom: false)
        let whitesEnd = Self.moved(p.whites.start + p.whites.width, 2 - p.highlights.values[3],
                                   from: highlightsStart, to: highlightsPivot, bottom: false)
        add(p.whites.values) { value in
            Ends(value: value, start: whitesStart, end: whitesEnd, isBlack: false).map { .ends($0) }
        }
        // The shadows act from their pivot up to their start (kept 0.01 above the pivot).
        let shadowsPivot = p.shadows.width, shadowsStart = max(p.shadows.start, p.shadows.width + 0.01)
        add(p.shadows.values) { value in
            Self.bend(value, from: shadowsPivot, to: shadowsStart, bottom: true)
        }
        let blacksStart = Self.moved(p.blacks.start, p.shadows.values[3], from: shadowsPivot, to: shadowsStart, bottom: true)
        let blacksEnd = Self.moved(p.blacks.start - p.blacks.width, p.shadows.values[3], from: shadowsPivot, to: shadowsStart, bottom: true)
        add(p.blacks.values) { value in
            Ends(value: value, start: blacksEnd, end: blacksStart, isBlack: true).map { .ends($0) }
        }
        self.controls = controls
        sContrast = SContrast(contrast: Double(Float(p.sContrast)), topSC: range.topSC, bottom: range.bottom, pivot: range.pivot)
    }

    /// The range a style's curves span: the midtones' bottom and top, the S-contrast's top and pivot.
    private static func range(_ style: Style) -> (bottom: Double, top: Double, topSC: Double, pivot: Double) {
        switch style {
        case .log, .video: (0, 1, 1, 0.4)
        case .linear: (-5.5, 7.5, 6.5, 0)
        }
    }

    /// The highlights (shadows) curve for `value` between `low` and `high`: its slope at the
    /// pivot end is the value (or 2 minus it above 1, inverted), at least 0.01; nil for 1.
    private static func bend(_ value: Double, from low: Double, to high: Double, bottom: Bool) -> Curve? {
        guard value != 1 else { return nil }
        let slope = max(0.01, value < 1 ? value : 2 - value)
        let bend = Bend(from: low, to: high, m0: bottom ? slope : 1, m2: bottom ? 1 : slope)
        return .bend(bend, inverted: value > 1)
    }

    /// `t` moved by the master highlights (shadows) curve, as the whites (blacks) are placed.
    private static func moved(_ t: Double, _ value: Double, from low: Double, to high: Double, bottom: Bool) -> Double {
        guard let curve = bend(value, from: low, to: high, bottom: bottom) else { return t }
        return curve.forward(t, master: true)
    }

    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        if isIdentity { return rgb }
        var x = rgb
        if style == .linear { x = SIMD3(GradingStyle.linToLog(x.x), GradingStyle.linToLog(x.y), GradingStyle.linToLog(x.z)) }
        if isReverse {
            if let s = sContrast { x = SIMD3(s.reverse(x.x), s.reverse(x.y), s.reverse(x.z)) }
            for control in controls.reversed() {
                for step in control.suffix(1) where step.channel == nil { x = apply(step.curve, reverse: true, to: x, channel: nil) }
                for step in control where step.channel != nil { x = apply(step.curve, reverse: true, to: x, channel: step.channel) }
            }
        } else {
            for step in controls.joined() { x = apply(step.curve, reverse: false, to: x, channel: step.channel) }
            if let s = sContrast { x = SIMD3(s.forward(x.x), s.forward(x.y), s.forward(x.z)) }
        }
        if style == .linear { x = SIMD3(GradingStyle.logToLin(x.x), GradingStyle.logToLin(x.y), GradingStyle.logToLin(x.z)) }
        return SIMD3(Self.limit(x.x), Self.limit(x.y), Self.limit(x.z))
    }

    private func apply(_ curve: Curve, reverse: Bool, to x: SIMD3<Double>, channel: Int?) -> SIMD3<Double> {
        var out = x
        for i in 0..<3 where channel == nil || channel == i {
            out[i] = reverse ? curve.reverse(x[i], master: channel == nil) : curve.forward(x[i], master: channel == nil)
        }
        return out
    }

    /// At most 65504; NaN passes.
    private static func limit(_ x: Double) -> Double { x > largestOutput ? largestOutput : x }

    /// Every step (the master curves and the S-contrast too) works on each channel alone.
    public var isPerChannel: Bool { true }

    /// Every value 1.
    public var isIdentity: Bool { parameters.isNeutral }

    /// The other direction with the same controls.
    public func inverse() throws(TransformError) -> [any TransformOp] {
        [try GradingToneOp(style: style, isReverse: !isReverse, parameters: parameters, dynamic: dynamic)]
    }

    public var description: String {
        let p = parameters
        let parts = ["blacks \(p.blacks.text)", "shadows \(p.shadows.text)", "midtones \(p.midtones.text)",
                     "highlights \(p.highlights.text)", "whites \(p.whites.text)", "s-contrast \(Describe.number(p.sContrast))"]
        return "grading tone (\(style.rawValue), \(isReverse ? "reverse" : "forward")): " + parts.joined(separator: ", ")
            + (dynamic ? " (dynamic, applied as written)" : "")
    }
}
