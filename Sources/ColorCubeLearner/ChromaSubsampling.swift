/// How an after image stores its colour: chroma once per block of `horizontal` x `vertical`
/// pixels (2x2 for 4:2:0, 2x1 for 4:2:2) and luma at every pixel, under `matrix`, decoded with
/// each block's chroma repeated over its pixels (`ImageReadOptions.replicatesChroma`).
///
/// Told this, `LookLearner` fits such an after's chroma per block, as the block mean of the
/// looked-up colours' chroma, and its luma per pixel (see `ChromaBlocks`).
public struct ChromaSubsampling: Sendable, Equatable {
    public let horizontal: Int
    public let vertical: Int
    /// The luma/chroma matrix of the after's coding (BT.601 for JPEG and lossy WebP).
    public let matrix: ChromaMatrix

    /// nil for 1x1 (no subsampling) or factors outside 1...4, which no codec here has.
    public init?(horizontal: Int, vertical: Int, matrix: ChromaMatrix = .bt601) {
        guard (1...4).contains(horizontal), (1...4).contains(vertical), horizontal * vertical > 1 else { return nil }
        self.horizontal = horizontal
        self.vertical = vertical
        self.matrix = matrix
    }
}
