import ColorCubeCore

/// Why a look named in words (`LookSpec`) cannot be read; each case carries the text at fault.
public enum LookSpecError: ColorCubeError, Equatable {
    /// A chain with nothing on one side of a `+`.
    case emptyStep(spec: String)
    /// A step whose text after `@` is not a strength.
    case badStrength(step: String, text: String)
    /// A `space:` step without two colour space names.
    case badConversion(step: String)

    public var path: String? { nil }

    public var description: String {
        switch self {
        case .emptyStep(let spec):
            return "\(spec): a chain of looks needs a file name on each side of every +"
        case .badStrength(let step, let text):
            return "\(step.prefix(80)): \"\(text.prefix(20))\" after @ is not a strength; a step's strength is a number "
                + "from 0 to 1 or a percentage, e.g. film.cube@0.6 or film.cube@60%"
        case .badConversion(let step):
            return "\(step.prefix(80)): a conversion in a chain is space:FROM,TO, two colour spaces "
                + "separated by a comma (colorcube spaces lists them)"
        }
    }
}
