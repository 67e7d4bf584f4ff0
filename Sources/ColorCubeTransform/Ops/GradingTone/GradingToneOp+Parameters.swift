extension GradingToneOp {
    /// One tonal control: a value for red, green, blue and all three (`master`), each 1 for
    /// no change, and where in the range it acts (`start` and `width`, whose meaning depends on
    /// the control; see `Parameters`).
    public struct RGBMSW: Equatable, Sendable {
        public var red: Double
        public var green: Double
        public var blue: Double
        public var master: Double
        public var start: Double
        public var width: Double

        public init(_ red: Double, _ green: Double, _ blue: Double, master: Double, start: Double, width: Double) {
            self.red = red
            self.green = green
            self.blue = blue
            self.master = master
            self.start = start
            self.width = width
        }

        /// No change, acting from `start` over `width`.
        public init(start: Double, width: Double) {
            self.init(1, 1, 1, master: 1, start: start, width: width)
        }

        /// The four values, red, green, blue and master, in OpenColorIO's Float32.
        var values: [Double] { [red, green, blue, master].map { Double(Float($0)) } }

        var isNeutral: Bool { red == 1 && green == 1 && blue == 1 && master == 1 }

        var text: String {
            "\(Describe.triple(SIMD3(red, green, blue))) master \(Describe.number(master)) start \(Describe.number(start)) "
                + "width \(Describe.number(width))"
        }
    }

    /// The controls, with OpenColorIO's defaults for each style (which change nothing: every
    /// value is 1; the starts and widths place the controls in the style's range).
    /// - `blacks`: the slope at the bottom, below `start` over `width`;
    /// - `shadows`: the curve between `width` (its pivot, the lower end) and `start`;
    /// - `midtones`: raises or lowers the middle, centred at `start` over `width`;
    /// - `highlights`: the curve between `start` and `width` (its pivot, the upper end);
    /// - `whites`: the slope at the top, from `start` over `width`;
    /// - `sContrast`: an S-shaped contrast about the style's pivot, 1 for none.
    public struct Parameters: Equatable, Sendable {
        public var blacks: RGBMSW
        public var shadows: RGBMSW
        public var midtones: RGBMSW
        public var highlights: RGBMSW
        public var whites: RGBMSW
        public var sContrast = 1.0

        public init(style: GradingStyle) {
            switch style {
            case .linear:
                (blacks, shadows, midtones) = (RGBMSW(start: 0, width: 4), RGBMSW(start: 2, width: -7), RGBMSW(start: 0, width: 8))
                (highlights, whites) = (RGBMSW(start: -2, width: 9), RGBMSW(start: 0, width: 8))
            case .log:
                (blacks, shadows, midtones) = (RGBMSW(start: 0.4, width: 0.4), RGBMSW(start: 0.5, width: 0), RGBMSW(start: 0.4, width: 0.6))
                (highlights, whites) = (RGBMSW(start: 0.3, width: 1), RGBMSW(start: 0.4, width: 0.5))
            case .video:
                (blacks, shadows, midtones) = (RGBMSW(start: 0.4, width: 0.4), RGBMSW(start: 0.6, width: 0), RGBMSW(start: 0.4, width: 0.7))
                (highlights, whites) = (RGBMSW(start: 0.2, width: 1), RGBMSW(start: 0.5, width: 0.5))
            }
        }

        /// Every value 1: the grade changes nothing, wherever the controls are placed.
        var isNeutral: Bool {
            blacks.isNeutral && shadows.isNeutral && midtones.isNeutral && highlights.isNeutral && whites.isNeutral && sContrast == 1
        }

        /// The first of OpenColorIO's rules the controls break, or nil: blacks, midtones and
        /// whites values in 0.1...1.9 with widths of at least 0.01; shadows and highlights values
        /// in 0.2...1.8, the shadows' start at least 0.01 above their pivot and the highlights'
        /// at least 0.01 below theirs; the S-contrast in 0.01...1.99.
        func defect() -> String? {
            let slack = 1e-6
            let ranges: [(String, RGBMSW, ClosedRange<Double>)] = [
                ("blacks", blacks, 0.1...1.9), ("midtones", midtones, 0.1...1.9), ("whites", whites, 0.1...1.9),
                ("shadows", shadows, 0.2...1.8), ("highlights", highlights, 0.2...1.8),
            ]
            for (name, control, range) in ranges {
                let all = [control.red, control.green, control.blue, control.master, control.start, control.width]
                if let value = all.first(where: { !$0.isFinite }) {
                    return "its \(name) hold \(value); every control must be a finite number"
                }
                if let value = [control.red, control.green, control.blue, control.master].first(where: {
                    !($0 >= range.lowerBound - slack && $0 <= range.upperBound + slack)
                }) {
                    return "its \(name) value \(Describe.number(value)) is outside \(Describe.number(range.lowerBound))..."
                        + "\(Describe.number(range.upperBound))"
                }
            }
            for (name, control) in [("blacks", blacks), ("midtones", midtones), ("whites", whites)] where !(control.width >= 0.01 - slack) {
                return "its \(name) width \(Describe.number(control.width)) is below 0.01"
            }
            if !(shadows.start >= shadows.width + 0.01 - slack) {
                return "its shadows start \(Describe.number(shadows.start)) is not above their pivot \(Describe.number(shadows.width)) "
                    + "by at least 0.01"
            }
            if !(highlights.start <= highlights.width - 0.01 + slack) {
                return "its highlights start \(Describe.number(highlights.start)) is not below their pivot "
                    + "\(Describe.number(highlights.width)) by at least 0.01"
            }
            if !(sContrast >= 0.01 - slack && sContrast <= 1.99 + slack) {
                return "its s-contrast \(Describe.number(sContrast)) is outside 0.01...1.99"
            }
            return nil
        }
    }
}
