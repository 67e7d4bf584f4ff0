import ColorCubeCore

/// Why a colour space cannot be named or converted.
public enum ColorSpaceError: ColorCubeError, Equatable {
    /// No space has this ID, name or alias; `nearest` holds up to three close IDs.
    case unknown(name: String, nearest: [String])
    /// A scene-referred space and a display-referred one: they meet only through a view transform.
    case crossesKinds(source: String, target: String)

    public var path: String? { nil }

    public var description: String {
        switch self {
        case .unknown(let name, let nearest):
            "unknown colour space '\(name.prefix(60))'" + (nearest.isEmpty ? "" : "; did you mean \(nearest.joined(separator: ", "))?")
        case .crossesKinds(let source, let target):
            "\(source) is \(ColorSpaces.named(source)?.kind.rawValue ?? "")-referred and \(target) is "
                + "\(ColorSpaces.named(target)?.kind.rawValue ?? "")-referred: going between them needs a view transform "
                + "(a tone mapping), which is a creative choice rather than a conversion"
        }
    }
}
