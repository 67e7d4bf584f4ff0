import ColorCubeCore
import ColorCubeImaging

/// A decoded reference (Hald) image read as a cube, without a Float32 copy: entry p is pixel p,
/// because the Hald layout puts entry p at raster position p.
///
/// Values are code / 255 or code / 65535. With `premultiplied`, red, green and blue are multiplied
/// by alpha (what `CIColorCube` expects of data with transparency); otherwise alpha is 1.
public struct ReferenceTable: CubeTable, Sendable {
    public let size: Int
    public let image: RasterImage
    public let premultiplied: Bool
    private let maxCode: Float

    /// - Precondition: `image` is square with side size * sqrt(size).
    public init(image: RasterImage, size: Int, premultiplied: Bool = false) {
        self.size = size
        self.image = image
        self.premultiplied = premultiplied
        self.maxCode = Float(image.pixels.maxCode)
    }

    public func entry(at index: Int) -> SIMD4<Float> {
        let base = index * image.channels
        let pixels = image.pixels
        // Divided, not multiplied by 1/max: code / 255 exactly as the format promises.
        var rgba = SIMD4<Float>(Float(pixels[base]), Float(pixels[base + 1]), Float(pixels[base + 2]), maxCode) / maxCode
        if image.channels == 4 {
            let alpha = Float(pixels[base + 3]) / maxCode
            rgba.w = alpha
            if premultiplied {
                rgba.x *= alpha
                rgba.y *= alpha
                rgba.z *= alpha
            }
        }
        return rgba
    }
}
