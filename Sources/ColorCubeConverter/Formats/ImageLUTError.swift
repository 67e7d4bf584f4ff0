import ColorCubeCore

/// Errors in reading an image LUT (a Hald, tile or strip PNG) into a cube; each names the file.
public enum ImageLUTError: ColorCubeError, Equatable {
    /// The image has the size of no image LUT: of the `layout` asked for, or (nil) of any layout.
    /// `expected` is the layout of the cube size the caller expected, when one was.
    case wrongDimensions(path: String, width: Int, height: Int, layout: ImageLUTLayout.Kind?, expected: ImageLUTLayout?)
    /// The image is a valid image LUT, but not of the size the caller expected; `expected` is
    /// where that size would be laid out.
    case sizeMismatch(path: String, width: Int, height: Int, foundSize: Int, expectedSize: Int, expected: ImageLUTLayout?)
    /// Some pixels are not opaque and premultiplying was not asked for.
    case transparentPixels(path: String, count: Int)
    /// The image has an image LUT's size, but its colours do not follow the reference grid: read
    /// as a `size`-cube, neighbouring nodes differ by `incoherence` of the colours' whole spread
    /// (a look's nodes differ by under 1%, a photo's by 50% or more). A photo given as the look.
    case notALUTImage(path: String, size: Int, incoherence: Double)

    public var path: String? {
        switch self {
        case .wrongDimensions(let path, _, _, _, _), .sizeMismatch(let path, _, _, _, _, _), .transparentPixels(let path, _),
             .notALUTImage(let path, _, _):
            path
        }
    }

    public var remedy: ErrorRemedy? {
        switch self {
        case .sizeMismatch(_, _, _, let found, _, _): .chooseSize(foundSize: found)
        case .transparentPixels: .premultiplyAlpha
        case .wrongDimensions: nil
        case .notALUTImage: .lookComesFirst
        }
    }

    public var description: String {
        switch self {
        case .wrongDimensions(let path, let width, let height, let layout, let expected):
            let expectedText: String
            if let expected {
                expectedText = "\(expected.width)x\(expected.height)"
            } else if let layout, layout.isSquare {
                expectedText = "a square of side L^3 for L in 2...16 (8x8, 64x64, 512x512 or 4096x4096 for "
                    + "cube size 4, 16, 64 or 256) for a \(layout)"
            } else if let layout {
                expectedText = "N tiles of NxN side by side, N^2 x N (256x16 for a 16-cube, 1024x32 for a "
                    + "32-cube) for a \(layout)"
            } else {
                expectedText = "8x8, 64x64, 512x512 or 4096x4096 (cube size 4, 16, 64 or 256), or another "
                    + "Hald CLUT or square of tiles of side L^3, or a strip of N tiles of NxN (256x16, 1024x32)"
            }
            return "\(path) is \(width)x\(height) pixels, expected \(expectedText); was it cropped, resized, "
                + "or saved at another size? Export the edited reference at its original pixel size."
        case .sizeMismatch(let path, let width, let height, let found, let expected, let expectedLayout):
            let dimensions = expectedLayout.map { " (\($0.width)x\($0.height) pixels)" } ?? ""
            return "\(path) is \(width)x\(height) pixels, a \(found)-cube reference, but a \(expected)-cube\(dimensions) "
                + "was expected; was it resized or generated at another size?"
        case .notALUTImage(let path, let size, let incoherence):
            let percent = Int((incoherence * 100).rounded())
            return "\(path) is not a LUT image: read as a \(size)-cube, neighbouring nodes differ by \(percent)% of "
                + "its colours' spread (an edited reference differs by under 1%); is it a photo?"
        case .transparentPixels(let path, let count):
            return "\(path) has \(count) pixel\(count == 1 ? "" : "s") that are not fully opaque; flatten the "
                + "image before saving"
        }
    }
}
