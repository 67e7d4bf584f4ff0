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
        var entry = SIMD4<Float>()
        copyEntries(index..<(index + 1), into: &entry)
        return entry
    }

    public func copyEntries(_ range: Range<Int>, into buffer: UnsafeMutablePointer<SIMD4<Float>>) {
        switch image.pixels {
        case .eight(let samples):
            samples.withUnsafeBufferPointer { copy($0, range, buffer) }
        case .sixteen(let samples):
            samples.withUnsafeBufferPointer { copy($0, range, buffer) }
        }
    }

    private func copy<Sample: BinaryInteger>(_ samples: UnsafeBufferPointer<Sample>, _ range: Range<Int>,
                                             _ buffer: UnsafeMutablePointer<SIMD4<Float>>) {
        let channels = image.channels
        let maxCode = maxCode
        for (offset, index) in range.enumerated() {
            let base = index * channels
            let alpha = channels == 4 ? Float(samples[base + 3]) : maxCode
            var rgba = SIMD4<Float>(Float(samples[base]), Float(samples[base + 1]), Float(samples[base + 2]), alpha) / maxCode
            if premultiplied {
                rgba *= SIMD4(rgba.w, rgba.w, rgba.w, 1)
            }
            buffer[offset] = rgba
        }
    }
}
