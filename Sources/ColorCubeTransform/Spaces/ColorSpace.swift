/// A colour space as a transform: how its code values become linear light in its gamut, and that
/// gamut's matrix to the connection space of its kind.
///
/// Scene-referred spaces (camera logs, ACES, linear and encoded working spaces) connect through
/// ACES2065-1; display-referred spaces (sRGB, Rec.1886, P3, PQ, HLG displays) through CIE XYZ
/// with a D65 white, 1.0 being 100 cd/m². These are the studio config's two references, so a
/// conversion here is the one OpenColorIO makes between the same two names.
public struct ColorSpace: Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Light as the camera saw it: converts to other scene spaces.
        case scene
        /// Light as a display emits it: converts to other display spaces.
        case display
    }

    /// The Color Interop Forum's ID where it has one (`ocio:slog3_sgamut3cine_scene`,
    /// `srgb_rec709_scene`), else an ID in the same style.
    public let id: String
    /// The studio config's name ("S-Log3 S-Gamut3.Cine").
    public let name: String
    public let aliases: [String]
    /// The maker or body, as the studio config groups the spaces ("Sony", "ACES", "Utility", "Display").
    public let family: String
    public let kind: Kind
    /// What its values are: "log", "scene-linear", "sdr-video", "hdr-video", "display-linear".
    public let encoding: String
    public let gamut: Gamut
    /// Code values to linear light in `gamut`, in order (empty for a linear space).
    public let decoding: [any TransformOp]
    /// Where the space comes from when OpenColorIO's studio config lacks it (a vendor's document).
    public let origin: String?
    /// True when the connection space's values are clamped at 0 on the way in and out (ACEScc,
    /// whose curve has no value for linear light at or below 0, as the studio config does).
    let clampsReference: Bool

    init(id: String, name: String, aliases: [String] = [], family: String, kind: Kind = .scene, encoding: String,
         gamut: Gamut, decoding: [any TransformOp] = [], origin: String? = nil, clampsReference: Bool = false) {
        self.id = id
        self.name = name
        self.aliases = aliases
        self.family = family
        self.kind = kind
        self.encoding = encoding
        self.gamut = gamut
        self.decoding = decoding
        self.origin = origin
        self.clampsReference = clampsReference
    }

    private static let clampAtZero: [any TransformOp] = (try? RangeOp(lower: 0)).map { [$0] } ?? []

    /// The connection space's gamut: ACES2065-1's AP0 for scene spaces, XYZ (D65) for displays.
    public var referenceGamut: Gamut { kind == .scene ? Gamuts.ap0 : Gamut.xyzD65 }

    /// This space's values to the connection space's.
    public var toReference: [any TransformOp] {
        var operations = decoding
        let rows = gamut.matrix(to: referenceGamut)
        if let matrix = try? MatrixOp(rows: rows), !matrix.isIdentity { operations.append(matrix) }
        return operations + (clampsReference ? Self.clampAtZero : [])
    }

    /// The connection space's values to this space's: `toReference` undone, step by step.
    public var fromReference: [any TransformOp] {
        let undone = toReference.dropLast(clampsReference ? 1 : 0).reversed().flatMap { operation in (try? operation.inverse()) ?? [] }
        return (clampsReference ? Self.clampAtZero : []) + undone
    }

    /// "ocio:slog3_sgamut3cine_scene  S-Log3 S-Gamut3.Cine  (Sony, log, scene)".
    public var description: String { "\(id)  \(name)  (\(family), \(encoding), \(kind.rawValue))" }

    /// Every name the space answers to, in order: its ID (with and without the `ocio:` prefix),
    /// its name, its aliases.
    public var names: [String] {
        var names = [id]
        if id.hasPrefix("ocio:") { names.append(String(id.dropFirst(5))) }
        return names + [name] + aliases
    }
}
