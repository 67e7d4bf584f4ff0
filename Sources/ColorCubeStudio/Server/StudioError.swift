import ColorCubeCore

/// Why the studio refused or failed a request; each case carries what was at fault and maps to
/// one HTTP status.
public enum StudioError: ColorCubeError, Equatable {
    /// No secret, or the wrong one: the page was not opened from the address the command printed.
    case notAuthorized
    /// A Host header other than the address the server listens on (a DNS rebinding attempt).
    case foreignHost(String?)
    /// A write from another site (Origin or Sec-Fetch-Site says so).
    case crossOrigin(String)
    /// A body larger than `limit` bytes, or of no declared length.
    case tooLarge(declared: Int?, limit: Int)
    /// A request that does not say what the route needs (a missing or malformed parameter).
    case badRequest(String)
    /// A look by a name the server does not list.
    case unknownLook(String)
    /// A photo by a number the server does not list.
    case unknownPhoto(String)
    /// A path no route serves.
    case notFound(String)
    /// A method the route does not take.
    case methodNotAllowed(method: String, path: String)
    /// A folder outside what the server may write, or one it refuses (an input folder).
    case refusedFolder(path: String, reason: String)
    /// The library failed on a look or a photo: its message.
    case failed(String)

    public var path: String? { nil }

    /// The HTTP status of the case.
    public var status: Int {
        switch self {
        case .notAuthorized: return 401
        case .foreignHost, .crossOrigin, .refusedFolder: return 403
        case .tooLarge: return 413
        case .badRequest: return 400
        case .unknownLook, .unknownPhoto, .notFound: return 404
        case .methodNotAllowed: return 405
        case .failed: return 422
        }
    }

    public var description: String {
        switch self {
        case .notAuthorized:
            return "not authorised: open the address colorcube studio printed (it carries this run's secret)"
        case .foreignHost(let host):
            return "refused the Host \"\((host ?? "none").prefix(80))\": the studio answers only at the address it printed"
        case .crossOrigin(let origin):
            return "refused a request from another site (\(origin.prefix(80))): the studio takes changes only from its own page"
        case .tooLarge(let declared, let limit):
            return (declared.map { "a request body of \($0) bytes" } ?? "a request body of no declared length")
                + " is refused: the studio takes at most \(limit) bytes"
        case .badRequest(let what):
            return what
        case .unknownLook(let name):
            return "no look named \"\(name.prefix(120))\": the studio lists the looks of the folders it was given"
        case .unknownPhoto(let name):
            return "no photo \"\(name.prefix(40))\": the studio lists the photos it was given"
        case .notFound(let path):
            return "nothing at \(path.prefix(120))"
        case .methodNotAllowed(let method, let path):
            return "\(path.prefix(120)) does not take \(method.prefix(10))"
        case .refusedFolder(let path, let reason):
            return "\(path.prefix(200)): \(reason)"
        case .failed(let message):
            return message
        }
    }
}
