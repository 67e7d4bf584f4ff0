/// Puts one decoded DPX line into the picture: components reordered to RGB or RGBA (ABGR turned
/// round, luma repeated into red, green and blue), and the line and its pixels placed where the
/// element's orientation says, so that the picture reads left to right, top to bottom.
struct DPXLinePlacer {
    let layout: DPXRowLayout
    let element: DPXImageElement
    let width: Int
    let height: Int
    /// 3 or 4: samples per pixel in the picture.
    let channels: Int

    /// Places the codes of file line `line` in `samples`, each converted by `sample`.
    func place<Sample>(_ codes: UnsafeBufferPointer<UInt16>, line: Int, in samples: inout [Sample],
                       sample: (UInt16) -> Sample) {
        let row = element.flipsLines ? height - 1 - line : line
        let components = element.components
        samples.withUnsafeMutableBufferPointer { output in
            let rowStart = row * width * channels
            for pixel in 0..<width {
                let target = rowStart + (element.mirrorsPixels ? width - 1 - pixel : pixel) * channels
                let source = pixel * components
                switch element.descriptor {
                case 6:
                    let luma = sample(codes[source])
                    output[target] = luma
                    output[target + 1] = luma
                    output[target + 2] = luma
                case 52:
                    output[target] = sample(codes[source + 3])
                    output[target + 1] = sample(codes[source + 2])
                    output[target + 2] = sample(codes[source + 1])
                    output[target + 3] = sample(codes[source])
                default:
                    for channel in 0..<channels { output[target + channel] = sample(codes[source + channel]) }
                }
            }
        }
    }
}
