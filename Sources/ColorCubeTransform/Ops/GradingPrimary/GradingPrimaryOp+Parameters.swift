extension GradingPrimaryOp {
    /// The grading space: what the controls mean (see `Parameters`).
    public typealias Style = GradingStyle

    /// One control for the red, green and blue channels and for all three (`master`): a
    /// channel's value combines its own with the master (added for offsets, multiplied for gains).
    public struct RGBM: Equatable, Sendable {
        public var red: Double
        public var green: Double
        public var blue: Double
        public var master: Double

        public init(_ red: Double, _ green: Double, _ blue: Double, master: Double) {
            self.red = red
            self.green = green
            self.blue = blue
            self.master = master
        }

        /// All four controls at `value`.
        public init(all value: Double) {
            self.init(value, value, value, master: value)
        }

        /// The channels with the master added to each.
        var sums: SIMD3<Double> { SIMD3(red, green, blue) + master }

        /// The channels each multiplied by the master.
        var products: SIMD3<Double> { SIMD3(red, green, blue) * master }

        /// The four values as a file writes them: "r g b, master m".
        var text: String {
            "\(Describe.triple(SIMD3(red, green, blue))) master \(Describe.number(master))"
        }
    }

    /// Every control OpenColorIO's CTF carries, with its defaults. Each style reads some of them
    /// and ignores the others (a file may give them all): `log` brightness, contrast, gamma,
    /// pivot and the black and white pivots; `linear` offset, exposure, contrast and pivot;
    /// `video` lift, gain, gamma, offset and the black and white pivots. All styles read the
    /// saturation and the clamps.
    public struct Parameters: Equatable, Sendable {
        /// Added in log (in units of 6.25 ten-bit codes).
        public var brightness = RGBM(all: 0)
        /// A slope about the pivot (log) or a power about it (linear).
        public var contrast = RGBM(all: 1)
        /// A power between the black and white pivots (log, video); the power is 1 / gamma.
        public var gamma = RGBM(all: 1)
        /// Added first (linear, video).
        public var offset = RGBM(all: 0)
        /// Stops of exposure (linear).
        public var exposure = RGBM(all: 0)
        /// Added with the offset, then scaled back about the black pivot so the white pivot stays
        /// (video): with a black pivot of 0, black comes out at `lift * pw / (pw + lift)`, not at `lift`.
        public var lift = RGBM(all: 0)
        /// Scales about the black pivot, keeping it (video).
        public var gain = RGBM(all: 1)
        /// Scales the distance from Rec. 709 luma; 1 leaves colours alone.
        public var saturation = 1.0
        /// The contrast pivot: a log offset in `log` (pivot 0.5 + 0.5 p) and stops from 0.18 in
        /// `linear` (0.18 * 2^p). The defaults are OpenColorIO's: -0.2 in log, 0.18 otherwise.
        public var pivot: Double
        /// The ends of the range gamma works in (log, video), and the pivot of the video slope.
        public var pivotBlack = 0.0
        public var pivotWhite = 1.0
        /// The output range; the defaults, the largest finite Double of each sign, clamp nothing.
        public var clampBlack = GradingPrimaryOp.noClampBlack
        public var clampWhite = GradingPrimaryOp.noClampWhite

        /// The defaults of `style`, which change nothing.
        public init(style: Style) {
            pivot = style == .log ? -0.2 : 0.18
        }

        /// Whether the controls `style` reads are at their defaults, so the grade changes
        /// nothing (the pivots other than the black and white ones of `log` then do not matter).
        func isDefault(for style: Style) -> Bool {
            let defaults = Parameters(style: style)
            guard saturation == defaults.saturation, clampBlack == defaults.clampBlack, clampWhite == defaults.clampWhite else {
                return false
            }
            switch style {
            case .log:
                return pivotBlack == defaults.pivotBlack && pivotWhite == defaults.pivotWhite && brightness == defaults.brightness
                    && contrast == defaults.contrast && gamma == defaults.gamma
            case .linear:
                return contrast == defaults.contrast && offset == defaults.offset && exposure == defaults.exposure
            case .video:
                return gamma == defaults.gamma && offset == defaults.offset && lift == defaults.lift && gain == defaults.gain
            }
        }

        /// The first rule of OpenColorIO's that the controls break, or nil: gamma (log, video) or
        /// contrast (linear) below 0.01, a white pivot not above the black one by 0.01, a black
        /// clamp above the white one.
        func defect(for style: Style) -> String? {
            let floor = GradingPrimaryOp.smallestPower - 1e-6
            let (name, values) = style == .linear ? ("contrast", contrast) : ("gamma", gamma)
            if let value = [values.red, values.green, values.blue, values.master].first(where: { !($0 >= floor) }) {
                return "its \(name) \(Describe.number(value)) is below \(Describe.number(GradingPrimaryOp.smallestPower)), "
                    + "the smallest a \(style.rawValue) grade takes"
            }
            if !(pivotWhite - pivotBlack >= floor) {
                return "its black pivot \(Describe.number(pivotBlack)) is not below its white pivot \(Describe.number(pivotWhite)) "
                    + "by at least \(Describe.number(GradingPrimaryOp.smallestPower))"
            }
            if clampBlack > clampWhite {
                return "its black clamp \(Describe.number(clampBlack)) is above its white clamp \(Describe.number(clampWhite))"
            }
            if let value = allValues.first(where: { !$0.isFinite }) {
                return "a control is \(value); every control must be a finite number"
            }
            return nil
        }

        private var allValues: [Double] {
            [brightness, contrast, gamma, offset, exposure, lift, gain].flatMap { [$0.red, $0.green, $0.blue, $0.master] }
                + [saturation, pivot, pivotBlack, pivotWhite]
        }
    }
}
