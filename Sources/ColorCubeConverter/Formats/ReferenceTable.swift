import ColorCubeCore
import ColorCubeLooks
import ColorCubeImaging

/// A decoded image LUT (Hald, tile or strip) read as a cube, without a Float32 copy: each entry is
/// read from its pixel when asked for. In the Hald layout entry p is pixel p; in the others each
/// red line of N entries is N neighbouring pixels (see `ImageLUTLayout`), so entries are copied a
/// run of pixels at a time.
///
/// Values are code / 255 or code / 65535. With `premultiplied`, red, green and blue are multiplied
/// by alpha (what `CIColorCube` expects of data with transparency); otherwise alpha is 1.
public struct ReferenceTable: CubeTable, Sendable {
    public let size: Int
    public let image: RasterImage
    /// Where each entry sits in `image`.
    public let layout: ImageLUTLayout
    public let premultiplied: Bool
    private let maxCode: Float

    /// - Precondition: `image` is `layout.width` x `layout.height` pixels.
    public init(image: RasterImage, layout: ImageLUTLayout, premultiplied: Bool = false) {
        precondition(image.width == layout.width && image.height == layout.height,
                     "a \(image.width)x\(image.height) image does not have the \(layout)")
        self.size = layout.cubeSize
        self.image = image
        self.layout = layout
        self.premultiplied = premultiplied
        self.maxCode = image.pixels.isFloat ? 1 : Float(image.pixels.maxCode)
    }

    public func entry(at index: Int) -> SIMD4<Float> {
        var entry = SIMD4<Float>()
        copyEntries(index..<(index + 1), into: &entry)
        return entry
    }

    public func copyEntries(_ range: Range<Int>, into buffer: UnsafeMutablePointer<SIMD4<Float>>) {
        switch image.pixels {
        case .eight(let samples):
            samples.withUnsafeBufferPointer { copy($0, range, buffer) { Float($0) } }
        case .sixteen(let samples):
            samples.withUnsafeBufferPointer { copy($0, range, buffer) { Float($0) } }
        case .float(let samples):
            samples.withUnsafeBufferPointer { copy($0, range, buffer) { $0 } }
        }
    }

    private func copy<Sample>(_ samples: UnsafeBufferPointer<Sample>, _ range: Range<Int>,
                              _ buffer: UnsafeMutablePointer<SIMD4<Float>>, _ float: (Sample) -> Float) {
        let channels = image.channels
        let maxCode = maxCode
        var index = range.lowerBound, offset = 0
        while index < range.upperBound {
            let run = layout.run(startingAt: index)
            let count = min(run.count, range.upperBound - index)
            for i in 0..<count {
                let base = (run.pixel + i) * channels
                let alpha = channels == 4 ? float(samples[base + 3]) : maxCode
                var rgba = SIMD4<Float>(float(samples[base]), float(samples[base + 1]), float(samples[base + 2]), alpha) / maxCode
                if premultiplied {
                    rgba *= SIMD4(rgba.w, rgba.w, rgba.w, 1)
                }
                buffer[offset + i] = rgba
            }
            index += count
            offset += count
        }
    }
}
