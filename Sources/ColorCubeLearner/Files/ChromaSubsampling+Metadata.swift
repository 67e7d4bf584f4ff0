import ColorCubeImaging

extension ChromaSubsampling {
    /// The chroma blocks of an after as its reader describes them: a JPEG's subsampling (JFIF's
    /// BT.601), or a lossy WebP's, HEIC's or AVIF's layout with its matrix. nil for 4:4:4, for
    /// lossless files, and where the matrix is unknown or not a fixed linear one (identity,
    /// unspecified, constant luminance): such afters are fitted pixel by pixel.
    public init?(metadata: ImageMetadata) {
        if let jpeg = metadata.jpegSubsampling {
            self.init(horizontal: jpeg.horizontal, vertical: jpeg.vertical)
        } else if let layout = metadata.ycbcrLayout, let matrix = ChromaMatrix(h273: layout.matrix) {
            self.init(horizontal: layout.horizontal, vertical: layout.vertical, matrix: matrix)
        } else {
            return nil
        }
    }
}
