/// A fixed grid of pixels from one pair, kept to measure the fit per pixel once it is known.
///
/// At most 256 x 256 pixels per pair, spread evenly over the picture, each with its before and
/// after colour (0...1), which of 4 x 4 regions of the picture it lies in, and two high-pass
/// values of the before image's luma around it (0...100 scale): at 1 pixel (what sharpening
/// boosts) and at 8 pixels (what clarity and local contrast boost).
struct PairSamples {
    struct Sample {
        var before: SIMD3<Float>
        var after: SIMD3<Float>
        var region: UInt8
        var fineDetail: Float
        var broadDetail: Float
    }

    static let grid = 256
    static let regions = 4

    let name: String
    var samples: [Sample]

    init(name: String, before: PixelBuffer, after: PixelBuffer) {
        self.name = name
        let width = before.width, height = before.height
        let columns = min(width, Self.grid), rows = min(height, Self.grid)
        let beforeValues = SampleReader(before), afterValues = SampleReader(after)
        var samples: [Sample] = []
        samples.reserveCapacity(columns * rows)
        for j in 0..<rows {
            let y = (2 * j + 1) * height / (2 * rows)
            for i in 0..<columns {
                let x = (2 * i + 1) * width / (2 * columns)
                let pixel = y * width + x
                if beforeValues.isTransparent(pixel) || afterValues.isTransparent(pixel) { continue }
                let region = UInt8(i * Self.regions / columns + Self.regions * (j * Self.regions / rows))
                samples.append(Sample(
                    before: beforeValues.color(pixel), after: afterValues.color(pixel), region: region,
                    fineDetail: Self.highPass(beforeValues, x: x, y: y, radius: 1, width: width, height: height),
                    broadDetail: Self.highPass(beforeValues, x: x, y: y, radius: 8, width: width, height: height)))
            }
        }
        self.samples = samples
    }

    /// Luma at (x, y) minus the mean luma of the 8 pixels `radius` away (clamped to the picture).
    private static func highPass(_ image: SampleReader, x: Int, y: Int, radius: Int, width: Int, height: Int) -> Float {
        var sum: Float = 0
        for dy in -1...1 {
            for dx in -1...1 where dx != 0 || dy != 0 {
                let px = min(max(x + dx * radius, 0), width - 1), py = min(max(y + dy * radius, 0), height - 1)
                sum += image.luma(py * width + px)
            }
        }
        return image.luma(y * width + x) - sum / 8
    }

    /// Keeps every other sample (when the learner's budget for samples is spent).
    mutating func thin() {
        samples = samples.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    }
}

/// Reads one pixel's colour, luma and transparency from a `PixelBuffer`.
struct SampleReader {
    let buffer: PixelBuffer

    init(_ buffer: PixelBuffer) { self.buffer = buffer }

    func color(_ pixel: Int) -> SIMD3<Float> {
        let index = pixel * buffer.channels
        switch buffer.samples {
        case .eight(let s): return SIMD3(Float(s[index]), Float(s[index + 1]), Float(s[index + 2])) / 255
        case .sixteen(let s): return SIMD3(Float(s[index]), Float(s[index + 1]), Float(s[index + 2])) / 65535
        }
    }

    /// Rec. 709 luma of the code values, 0...100.
    func luma(_ pixel: Int) -> Float {
        let c = color(pixel)
        return 100 * (0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z)
    }

    func isTransparent(_ pixel: Int) -> Bool {
        guard buffer.channels == 4 else { return false }
        let index = pixel * 4 + 3
        switch buffer.samples {
        case .eight(let s): return s[index] == 0
        case .sixteen(let s): return s[index] == 0
        }
    }
}
