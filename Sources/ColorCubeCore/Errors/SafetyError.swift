/// Refusals that protect the user's files.
public enum SafetyError: ColorCubeError, Equatable {
    case outputIsInput(path: String)

    public var path: String? {
        switch self {
        case .outputIsInput(let path): path
        }
    }

    public var description: String {
        switch self {
        case .outputIsInput(let path):
            "refusing to write \(path): it is an input; choose another output name"
        }
    }
}
