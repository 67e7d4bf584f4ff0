import ColorCubeImaging

/// Resizes images with a box filter: each output pixel is the area-weighted mean of the input
/// pixels it covers, computed separably (rows, then columns) in Float.
///
/// Exact for flat areas and for whole-number reduction factors (each output pixel is then the plain
/// mean of a block); enlarging repeats pixels, weighted at the seams. Alpha, if any, is composited
/// over `background` first, so the result is always 8-bit RGB.
public enum ImageScaler {
    /// `image` scaled to `width` x `height` pixels as 8-bit RGB.
    /// - Parameter background: the colour transparent pixels are composited over, 0...255 per channel.
    /// - Precondition: `width` and `height` are at least 1.
    public static func scaled(_ image: RasterImage, width: Int, height: Int,
                              background: SIMD3<Float> = SIMD3(repeating: 0)) -> RasterImage {
        let sourceWidth = image.width, sourceHeight = image.height
        let maxCode = Float(image.pixels.maxCode)
        // Source as Float RGB in 0...255, alpha composited.
        var source = [Float](repeating: 0, count: sourceWidth * sourceHeight * 3)
        for pixel in 0..<image.pixelCount {
            let base = pixel * image.channels
            var rgb = SIMD3(Float(image.pixels[base]), Float(image.pixels[base + 1]), Float(image.pixels[base + 2])) / maxCode * 255
            if image.channels == 4 {
                let alpha = Float(image.pixels[base + 3]) / maxCode
                rgb = rgb * alpha + background * (1 - alpha)
            }
            source[3 * pixel] = rgb.x
            source[3 * pixel + 1] = rgb.y
            source[3 * pixel + 2] = rgb.z
        }
        let columns = weights(from: sourceWidth, to: width)
        let rows = weights(from: sourceHeight, to: height)
        // Horizontal pass: sourceHeight rows of `width` pixels.
        var horizontal = [Float](repeating: 0, count: width * sourceHeight * 3)
        for y in 0..<sourceHeight {
            for x in 0..<width {
                var sum = SIMD3<Float>(repeating: 0)
                for (index, weight) in columns[x] {
                    let s = 3 * (y * sourceWidth + index)
                    sum += SIMD3(source[s], source[s + 1], source[s + 2]) * weight
                }
                let d = 3 * (y * width + x)
                horizontal[d] = sum.x; horizontal[d + 1] = sum.y; horizontal[d + 2] = sum.z
            }
        }
        var output = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                var sum = SIMD3<Float>(repeating: 0)
                for (index, weight) in rows[y] {
                    let s = 3 * (index * width + x)
                    sum += SIMD3(horizontal[s], horizontal[s + 1], horizontal[s + 2]) * weight
                }
                let clamped = pointwiseMin(pointwiseMax(sum, .zero), SIMD3(repeating: 255)).rounded(.toNearestOrAwayFromZero)
                let d = 3 * (y * width + x)
                output[d] = UInt8(clamped.x); output[d + 1] = UInt8(clamped.y); output[d + 2] = UInt8(clamped.z)
            }
        }
        return RasterImage(width: width, height: height, channels: 3, pixels: .eight(output), colorSpace: image.colorSpace)
    }

    /// For each of `outputCount` pixels, the input pixels it covers and their weights (summing to 1).
    static func weights(from inputCount: Int, to outputCount: Int) -> [[(Int, Float)]] {
        let scale = Double(inputCount) / Double(outputCount)
        return (0..<outputCount).map { out in
            let start = Double(out) * scale, end = Double(out + 1) * scale
            var list: [(Int, Float)] = []
            var index = Int(start)
            while Double(index) < end, index < inputCount {
                let covered = min(end, Double(index + 1)) - max(start, Double(index))
                if covered > 1e-9 { list.append((index, Float(covered / scale))) }
                index += 1
            }
            return list
        }
    }
}
