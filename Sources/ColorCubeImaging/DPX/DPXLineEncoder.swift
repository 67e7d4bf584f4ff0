/// Turns one line of a picture into the codes a DPX image element stores and packs them: each
/// sample brought to the element's bit depth (8-bit samples widened by 257 first, then every
/// sample reduced with `SampleDepth.reduce`), RGBA turned to ABGR for that descriptor.
struct DPXLineEncoder {
    let layout: DPXRowLayout
    let image: RasterImage
    /// The picture's samples as codes (floats as 16-bit codes).
    private let samples: IntegerSamples
    /// 50 RGB, 51 RGBA or 52 ABGR.
    let descriptor: UInt8
    /// Every sample value of the picture's depth (256 or 65536 of them) as a code of the
    /// element's depth, worked out once.
    private let codeOf: [UInt16]

    init(layout: DPXRowLayout, image: RasterImage, descriptor: UInt8) {
        self.layout = layout
        self.image = image
        self.descriptor = descriptor
        samples = image.integerSamples
        let top = layout.maxCode
        if samples.bitDepth == 8 {
            codeOf = (0...255).map { UInt16(SampleDepth.reduce(UInt16($0 * 257), toMaximum: top)) }
        } else {
            codeOf = (0...65535).map { UInt16(SampleDepth.reduce(UInt16($0), toMaximum: top)) }
        }
    }

    /// Packs picture line `line` into `row` (`layout.rowBytes` bytes).
    func encode(line: Int, into row: UnsafeMutableRawBufferPointer) {
        var codes = [UInt16](repeating: 0, count: layout.samplesPerRow)
        let start = line * image.width * image.channels
        codeOf.withUnsafeBufferPointer { table in
            switch samples {
            case .eight(let samples):
                for index in 0..<layout.samplesPerRow { codes[index] = table[Int(samples[start + index])] }
            case .sixteen(let samples):
                for index in 0..<layout.samplesPerRow { codes[index] = table[Int(samples[start + index])] }
            }
        }
        if descriptor == 52 {
            for pixel in stride(from: 0, to: layout.samplesPerRow, by: 4) {
                codes.swapAt(pixel, pixel + 3)
                codes.swapAt(pixel + 1, pixel + 2)
            }
        }
        codes.withUnsafeBufferPointer { layout.encode($0, into: row) }
    }
}
