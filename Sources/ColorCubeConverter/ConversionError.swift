import ColorCubeCore

/// Errors in turning a reference image into a cube or a cube into a file; each names the file.
public enum ConversionError: ColorCubeError, Equatable {
    /// The image is not W x W for any reference size or Hald level.
    case wrongDimensions(path: String, width: Int, height: Int, expectedSide: Int?)
    /// The image is a valid reference, but not of the size the caller expected.
    case sizeMismatch(path: String, width: Int, height: Int, foundSize: Int, expectedSize: Int, expectedSide: Int?)
    /// Some pixels are not opaque and premultiplying was not asked for.
    case transparentPixels(path: String, count: Int)
    /// A format that cannot be written for this cube (a bit depth it lacks, a library failure).
    case unsupportedOutput(path: String, reason: String)
    /// A lattice size the output format cannot hold; `format` is the format's noun ("a Hald
    /// PNG"), `sizes` the sizes it holds in words, `largestSize` as `LUTFileFormat.largestSize`.
    case unsupportedSize(path: String, size: Int, format: String, sizes: String, largestSize: Int?)

    public var path: String? {
        switch self {
        case .wrongDimensions(let path, _, _, _), .sizeMismatch(let path, _, _, _, _, _),
             .transparentPixels(let path, _), .unsupportedOutput(let path, _), .unsupportedSize(let path, _, _, _, _):
            path
        }
    }

    public var remedy: ErrorRemedy? {
        switch self {
        case .sizeMismatch(_, _, _, let found, _, _): .chooseSize(foundSize: found)
        case .transparentPixels: .premultiplyAlpha
        case .unsupportedSize(_, _, _, _, let largest): .resample(largestSize: largest)
        case .wrongDimensions, .unsupportedOutput: nil
        }
    }

    public var description: String {
        switch self {
        case .wrongDimensions(let path, let width, let height, let expectedSide):
            let expected = expectedSide.map { "\($0)x\($0)" }
                ?? "8x8, 64x64, 512x512 or 4096x4096 (cube size 4, 16, 64 or 256), or a Hald CLUT of level 2...16"
            return "\(path) is \(width)x\(height) pixels, expected \(expected); was it cropped, resized, "
                + "or saved at another size? Export the edited reference at its original pixel size."
        case .sizeMismatch(let path, let width, let height, let found, let expected, let expectedSide):
            let side = expectedSide.map { " (\($0)x\($0) pixels)" } ?? ""
            return "\(path) is \(width)x\(height) pixels, a \(found)-cube reference, but a \(expected)-cube\(side) "
                + "was expected; was it resized or generated at another size?"
        case .transparentPixels(let path, let count):
            return "\(path) has \(count) pixel\(count == 1 ? "" : "s") that are not fully opaque; flatten the "
                + "image before saving"
        case .unsupportedOutput(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .unsupportedSize(let path, let size, let format, let sizes, _):
            return "cannot write \(path): a \(size)-cube cannot be stored as \(format) (sizes \(sizes))"
        }
    }
}
