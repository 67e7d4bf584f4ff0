import ColorCubeCore

/// Refusals to write a look in a format, found before any file is created; each names the file.
public enum ConversionError: ColorCubeError, Equatable {
    /// A bit depth the output format does not hold.
    case bitDepth(BitDepthError)
    /// A lattice size the output format cannot hold; `format` is the format's noun ("a Hald
    /// PNG"), `sizes` the sizes it holds in words, `largestSize` as `LUTFileFormat.largestSize`.
    case unsupportedSize(path: String, size: Int, format: String, sizes: String, largestSize: Int?)
    /// A format that holds no cube at all (`holds`: "a 1D table", "a matrix"): colorcube reads it
    /// but cannot write a cube as it.
    case readOnly(path: String, format: String, holds: String)
    /// A size asked of a format that writes looks but no cube (`holds`: "a 1D table"): the look is
    /// written as it is, without a size.
    case notACube(path: String, format: String, holds: String)
    /// The C library that encodes the format (`library`: "Little CMS") failed at `step`
    /// ("create the profile").
    case libraryFailed(path: String, library: String, step: String)

    public var path: String? {
        switch self {
        case .bitDepth(let error): error.path
        case .unsupportedSize(let path, _, _, _, _), .readOnly(let path, _, _), .notACube(let path, _, _),
             .libraryFailed(let path, _, _): path
        }
    }

    public var remedy: ErrorRemedy? {
        switch self {
        case .unsupportedSize(_, _, _, _, let largest): .resample(largestSize: largest)
        case .bitDepth, .readOnly, .notACube, .libraryFailed: nil
        }
    }

    public var description: String {
        switch self {
        case .bitDepth(let error):
            error.description
        case .unsupportedSize(let path, let size, let format, let sizes, _):
            "cannot write \(path): a \(size)-cube cannot be stored as \(format) (sizes \(sizes))"
        case .readOnly(let path, let format, let holds):
            "cannot write \(path): \(format) holds \(holds), not a cube; colorcube reads it but does not write it"
        case .notACube(let path, let format, let holds):
            "cannot write \(path): \(format) holds \(holds), not a cube; write it without a size"
        case .libraryFailed(let path, let library, let step):
            "cannot write \(path): \(library) could not \(step)"
        }
    }
}
