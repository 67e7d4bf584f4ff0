/// The matrix a lossy after turned its coded RGB into luma and chroma with: luma
/// Y = Kr R + Kg G + Kb B (Kg = 1 - Kr - Kb), chroma Cb = (B - Y) / (2 (1 - Kb)) and
/// Cr = (R - Y) / (2 (1 - Kr)), on the 0...1 scale without the 0.5 offset.
///
/// JPEG (JFIF) and lossy WebP use BT.601's Kr, Kb; HEIC and AVIF declare theirs in the nclx box.
/// The range (full or limited) only scales chroma by a constant (224/255 in limited range) and
/// offsets it, which the decoder undoes: the decoded chroma of a block is still the block mean of
/// the pixels' chroma in these units, so the range plays no part in the block fit.
public struct ChromaMatrix: Sendable, Hashable {
    /// Red's and blue's share of luma.
    public let kr: Double
    public let kb: Double

    /// nil unless both are positive and leave green a positive share.
    public init?(kr: Double, kb: Double) {
        guard kr > 0, kb > 0, kr + kb < 1 else { return nil }
        self.kr = kr
        self.kb = kb
    }

    private init(uncheckedKr kr: Double, kb: Double) {
        self.kr = kr
        self.kb = kb
    }

    /// BT.601 (JFIF, VP8, H.273 matrix 5 and 6).
    public static let bt601 = ChromaMatrix(uncheckedKr: 0.299, kb: 0.114)
    /// BT.709 (H.273 matrix 1).
    public static let bt709 = ChromaMatrix(uncheckedKr: 0.2126, kb: 0.0722)
    /// BT.2020 non-constant luminance (H.273 matrix 9).
    public static let bt2020 = ChromaMatrix(uncheckedKr: 0.2627, kb: 0.0593)

    /// The matrix of an H.273 matrix-coefficients code; nil for identity (0: the planes are RGB),
    /// unspecified (2) and the codes whose chroma is not a fixed linear function of RGB
    /// (constant luminance, YCgCo, ICtCp...), where the after's colours are fitted per pixel.
    public init?(h273 code: Int) {
        switch code {
        case 1: self = .bt709
        case 5, 6: self = .bt601
        case 9: self = .bt2020
        default: return nil
        }
    }

    /// Chroma (Cb, Cr) of an RGB colour.
    @inline(__always)
    public func chroma(_ c: SIMD3<Double>) -> SIMD2<Double> {
        let y = kr * c.x + (1 - kr - kb) * c.y + kb * c.z
        return SIMD2((c.z - y) / (2 * (1 - kb)), (c.x - y) / (2 * (1 - kr)))
    }

    /// The RGB change that moves chroma by `d` and leaves luma as it is.
    @inline(__always)
    public func rgb(chromaChange d: SIMD2<Double>) -> SIMD3<Double> {
        let red = 2 * (1 - kr) * d.y, blue = 2 * (1 - kb) * d.x
        return SIMD3(red, -(kr * red + kb * blue) / (1 - kr - kb), blue)
    }
}
