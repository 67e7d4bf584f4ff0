extension VideoColor {
    /// A YCbCr matrix (H.273 `MatrixCoefficients`); `rgb` is identity (GBR), not a matrix.
    public enum Matrix: Int32, Sendable, CaseIterable {
        case rgb = 0, bt709 = 1, fcc = 4, bt470bg = 5, smpte170m = 6, smpte240m = 7, ycgco = 8, bt2020nc = 9
        case bt2020c = 10, smpte2085 = 11, chromaDerivedNC = 12, chromaDerivedC = 13, ictcp = 14

        /// FFmpeg's name ("bt709", "bt2020nc").
        public var name: String {
            switch self {
            case .rgb: "gbr"
            case .bt709: "bt709"
            case .fcc: "fcc"
            case .bt470bg: "bt470bg"
            case .smpte170m: "smpte170m"
            case .smpte240m: "smpte240m"
            case .ycgco: "ycgco"
            case .bt2020nc: "bt2020nc"
            case .bt2020c: "bt2020c"
            case .smpte2085: "smpte2085"
            case .chromaDerivedNC: "chroma-derived-nc"
            case .chromaDerivedC: "chroma-derived-c"
            case .ictcp: "ictcp"
            }
        }

        /// Kr and Kb of the matrices colorcube converts (a luma of Kr R + (1 - Kr - Kb) G + Kb B);
        /// nil for YCgCo, ICtCp, the chroma-derived ones and identity. BT.2020's constant
        /// luminance form is converted as its non-constant one, as FFmpeg's scaler does.
        public var lumaCoefficients: (kr: Float, kb: Float)? {
            switch self {
            case .bt709: (0.2126, 0.0722)
            case .bt470bg, .smpte170m: (0.299, 0.114)
            case .bt2020nc, .bt2020c: (0.2627, 0.0593)
            case .fcc: (0.30, 0.11)
            case .smpte240m: (0.212, 0.087)
            default: nil
            }
        }

        /// libswscale's constant for the matrix (SWS_CS_*), where it has one.
        var scalerConstant: Int32? {
            switch self {
            case .bt709: 1
            case .fcc: 4
            case .bt470bg, .smpte170m: 5
            case .smpte240m: 7
            case .bt2020nc, .bt2020c: 9
            default: nil
            }
        }
    }

    /// The code range (H.273 `VideoFullRangeFlag`, as FFmpeg numbers it).
    public enum Range: Int32, Sendable, CaseIterable {
        /// 16-235 (luma) and 16-240 (chroma) at 8 bits: FFmpeg's "tv".
        case limited = 1
        /// Every code: FFmpeg's "pc".
        case full = 2

        public var name: String { self == .limited ? "tv" : "pc" }
    }

    /// Colour primaries (H.273 `ColourPrimaries`).
    public enum Primaries: Int32, Sendable, CaseIterable {
        case bt709 = 1, bt470m = 4, bt470bg = 5, smpte170m = 6, smpte240m = 7, film = 8, bt2020 = 9, smpte428 = 10
        case smpte431 = 11, smpte432 = 12, ebu3213 = 22

        /// FFmpeg's name ("bt2020", "smpte432" for P3-D65).
        public var name: String {
            switch self {
            case .bt709: "bt709"
            case .bt470m: "bt470m"
            case .bt470bg: "bt470bg"
            case .smpte170m: "smpte170m"
            case .smpte240m: "smpte240m"
            case .film: "film"
            case .bt2020: "bt2020"
            case .smpte428: "smpte428"
            case .smpte431: "smpte431"
            case .smpte432: "smpte432"
            case .ebu3213: "ebu3213"
            }
        }
    }

    /// Transfer characteristics (H.273 `TransferCharacteristics`).
    public enum Transfer: Int32, Sendable, CaseIterable {
        case bt709 = 1, gamma22 = 4, gamma28 = 5, smpte170m = 6, smpte240m = 7, linear = 8, log100 = 9, log316 = 10
        case iec61966_2_4 = 11, bt1361e = 12, iec61966_2_1 = 13, bt2020_10 = 14, bt2020_12 = 15, smpte2084 = 16
        case smpte428 = 17, aribStdB67 = 18

        /// FFmpeg's name ("smpte2084" for PQ, "arib-std-b67" for HLG).
        public var name: String {
            switch self {
            case .bt709: "bt709"
            case .gamma22: "gamma22"
            case .gamma28: "gamma28"
            case .smpte170m: "smpte170m"
            case .smpte240m: "smpte240m"
            case .linear: "linear"
            case .log100: "log100"
            case .log316: "log316"
            case .iec61966_2_4: "iec61966-2-4"
            case .bt1361e: "bt1361e"
            case .iec61966_2_1: "iec61966-2-1"
            case .bt2020_10: "bt2020-10"
            case .bt2020_12: "bt2020-12"
            case .smpte2084: "smpte2084"
            case .smpte428: "smpte428"
            case .aribStdB67: "arib-std-b67"
            }
        }
    }

    /// Where chroma samples sit (H.273 `Chroma420SampleLocType` + 1, as FFmpeg numbers it).
    public enum ChromaLocation: Int32, Sendable, CaseIterable {
        case left = 1, center = 2, topLeft = 3, top = 4, bottomLeft = 5, bottom = 6
    }
}
