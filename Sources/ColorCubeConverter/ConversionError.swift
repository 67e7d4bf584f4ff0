import ColorCubeCore

/// Errors in turning a reference image into a cube; each names the file and says what to do.
public enum ConversionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The image is not W x W for any reference size or Hald level.
    case wrongDimensions(path: String, width: Int, height: Int, expectedSide: Int?)
    /// The image is a valid reference, but not of the size the user asked for.
    case sizeMismatch(path: String, width: Int, height: Int, foundSize: Int, expectedSize: Int, expectedSide: Int?)
    /// Some pixels are not opaque and premultiplying was not asked for.
    case transparentPixels(path: String, count: Int)
    /// A format that cannot be written for this cube.
    case unsupportedOutput(path: String, reason: String)

    public var description: String {
        switch self {
        case .wrongDimensions(let path, let width, let height, let expectedSide):
            let expected = expectedSide.map { "\($0)x\($0)" }
                ?? "8x8, 64x64, 512x512 or 4096x4096 (cube size 4, 16, 64 or 256), or a Hald CLUT of level 2...16"
            return "\(path) is \(width)x\(height) pixels, expected \(expected); was it cropped, resized, "
                + "or saved at another size? Export the edited reference at its original pixel size."
        case .sizeMismatch(let path, let width, let height, let found, let expected, let expectedSide):
            let side = expectedSide.map { " (\($0)x\($0) pixels)" } ?? ""
            return "\(path) is \(width)x\(height) pixels, a \(found)-cube reference, but --size \(expected)\(side) "
                + "was asked for; was it resized or generated at another size? Drop --size or pass --size \(found)."
        case .transparentPixels(let path, let count):
            return "\(path) has \(count) pixel\(count == 1 ? "" : "s") that are not fully opaque; flatten the "
                + "image before saving, or pass --alpha premultiply to keep the transparency premultiplied"
        case .unsupportedOutput(let path, let reason):
            return "cannot write \(path): \(reason)"
        }
    }
}
