import ColorCubeCore

/// An 8-bit RGB drawing surface: the contact sheet's and the learner's report picture's.
package struct Canvas {
    package let width: Int
    package let height: Int
    package var samples: [UInt8]

    package init(width: Int, height: Int, fill: SIMD3<UInt8>) {
        self.width = width
        self.height = height
        samples = [UInt8](repeating: 0, count: width * height * 3)
        for pixel in 0..<(width * height) {
            samples[3 * pixel] = fill.x
            samples[3 * pixel + 1] = fill.y
            samples[3 * pixel + 2] = fill.z
        }
    }

    /// Copies an 8-bit RGB image with its top left corner at (x, y), clipped to the canvas.
    package mutating func paste(_ image: RasterImage, x: Int, y: Int) {
        guard case .eight(let source) = image.pixels, image.channels == 3 else { return }
        for row in 0..<image.height where (0..<height).contains(y + row) {
            for column in 0..<image.width where (0..<width).contains(x + column) {
                let s = 3 * (row * image.width + column)
                let d = 3 * ((y + row) * width + x + column)
                samples[d] = source[s]
                samples[d + 1] = source[s + 1]
                samples[d + 2] = source[s + 2]
            }
        }
    }

    /// Draws `text` with its top left corner at (x, y), each font pixel a `scale` x `scale` square.
    package mutating func draw(_ text: String, x: Int, y: Int, scale: Int, color: SIMD3<UInt8>) {
        for (index, character) in text.enumerated() {
            let left = x + index * BitmapFont.advance * scale
            for fy in 0..<BitmapFont.glyphHeight {
                for fx in 0..<BitmapFont.glyphWidth where BitmapFont.isSet(character, x: fx, y: fy) {
                    fill(x: left + fx * scale, y: y + fy * scale, size: scale, color: color)
                }
            }
        }
    }

    /// Fills a `size` x `size` square with its top left corner at (x, y), clipped to the canvas.
    package mutating func fill(x: Int, y: Int, size: Int, color: SIMD3<UInt8>) {
        for py in y..<(y + size) where (0..<height).contains(py) {
            for px in x..<(x + size) where (0..<width).contains(px) {
                let d = 3 * (py * width + px)
                samples[d] = color.x
                samples[d + 1] = color.y
                samples[d + 2] = color.z
            }
        }
    }
}
