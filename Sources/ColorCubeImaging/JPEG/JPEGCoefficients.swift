import _CJPEG

/// A YCbCr or greyscale JPEG as its file stores it: each component's quantised DCT coefficients and
/// quantisation table, before any decoding. What a reader that models the encoder's losses needs
/// (`learn` fits JPEG afters to them): every coefficient the decoder saw is `stored x step`, and
/// the encoder's own coefficient lay within half a step of it.
public struct JPEGCoefficients: Sendable {
    /// One component (0: Y, 1: Cb, 2: Cr; a greyscale file has Y alone).
    public struct Component: Sendable {
        /// Blocks per row and per column covering the image (the MCU's padding blocks left out).
        public var widthInBlocks: Int
        public var heightInBlocks: Int
        /// Pixels of the image per sample of this component, across and down (2 and 2 for 4:2:0
        /// chroma, 1 and 1 for luma).
        public var horizontalStep: Int
        public var verticalStep: Int
        /// The quantisation step of each coefficient, natural (row-major) order.
        public var quantization: [UInt16]
        /// `heightInBlocks * widthInBlocks` blocks of 64 stored coefficients, row-major, each
        /// block in natural order; multiply by `quantization` for the decoder's values.
        public var coefficients: [Int16]
    }

    public var width: Int
    public var height: Int
    public var components: [Component]

    /// Reads the coefficients of the JPEG at `path`; nil when it is not an 8-bit YCbCr or
    /// greyscale JPEG (RGB or CMYK files), which a reader then treats by its pixels.
    /// - Throws: `ImageError` naming `path` when the file cannot be read or is damaged, or is
    ///   over `options.pixelLimit` (checked before anything is allocated).
    public static func read(path: String, options: ImageReadOptions = ImageReadOptions()) throws(ImageError)
        -> JPEGCoefficients? {
        var stored = ccjpeg_coefficients()
        var message = MessageBuffer()
        defer { ccjpeg_coefficients_free(&stored) }
        let status = message.withPointer {
            ccjpeg_read_coefficients(path, UInt64(max(options.pixelLimit, 0)), &stored, $0)
        }
        switch status {
        case CCJPEG_OK: break
        case CCJPEG_UNSUPPORTED:
            return nil
        case CCJPEG_TOO_LARGE:
            try options.check(width: Int(stored.width), height: Int(stored.height), path: path)
            throw .corrupt(path: path, reason: message.text)  // unreachable: the check throws
        case CCJPEG_CANNOT_OPEN: throw .cannotOpen(path: path, reason: message.text)
        default: throw .corrupt(path: path, reason: message.text)
        }
        let width = Int(stored.width), height = Int(stored.height)
        try options.check(width: width, height: height, path: path)
        let parts = withUnsafeBytes(of: stored.components) {
            Array($0.bindMemory(to: ccjpeg_component.self).prefix(Int(stored.component_count)))
        }
        let maxH = parts.map { Int($0.h_samp_factor) }.max() ?? 1
        let maxV = parts.map { Int($0.v_samp_factor) }.max() ?? 1
        var components: [Component] = []
        for part in parts {
            let h = max(Int(part.h_samp_factor), 1), v = max(Int(part.v_samp_factor), 1)
            // Sampling factors that do not divide the largest (3 against 2) have no block layout a
            // reader can use; such files are rare enough to be read by their pixels.
            guard maxH % h == 0, maxV % v == 0 else { return nil }
            let blocks = Int(part.width_in_blocks) * Int(part.height_in_blocks)
            let quantization = withUnsafeBytes(of: part.quantization) { Array($0.bindMemory(to: UInt16.self)) }
            let coefficients = Array(UnsafeBufferPointer(start: part.coefficients, count: blocks * 64))
            components.append(Component(widthInBlocks: Int(part.width_in_blocks), heightInBlocks: Int(part.height_in_blocks),
                                        horizontalStep: maxH / h, verticalStep: maxV / v,
                                        quantization: quantization, coefficients: coefficients))
        }
        return JPEGCoefficients(width: width, height: height, components: components)
    }
}
