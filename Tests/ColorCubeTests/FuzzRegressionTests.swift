import ColorCubeCore
import ColorCubeImaging
import Testing

/// Inputs that crashed a reader under Tools/fuzz, read again: each must give its error (or, where
/// the damage is in an optional part, the image), never a crash or a huge allocation.
@Suite struct FuzzRegressionTests {
    /// PNGs whose ancillary chunk declares about 2 GB (gAMA, cHRM after a mutated length): libpng
    /// allocated the declared length before reading it. Now a chunk past 64 MiB is skipped, and
    /// these files, whose data stops long before, end as damaged.
    @Test(arguments: ["crash-chunk-length-1.png", "crash-chunk-length-2.png", "crash-chunk-length-3.png"])
    func pngChunkLengthsAreCapped(name: String) throws {
        let path = FuzzCorpus.path("png", name)
        #expect(throws: ImageError.self) { try PNGFile.read(path: path) }
    }

    /// OpenEXR files from the fuzzer: a channel other than R, G, B and A, which the C library's fast
    /// paths wrote through a null pointer when it was left out; chunk tables pointing far past the
    /// end, with chunk planes sized from the header's tile size and lines per chunk (over 1 GB).
    /// Now every channel has a destination and chunk planes are never larger than the picture.
    @Test(arguments: ["crash-unknown-channel.exr", "crash-scanline-chunk-table.exr", "crash-tile-chunk-table.exr"])
    func openEXRChannelsAndChunkTables(name: String) throws {
        let path = FuzzCorpus.path("exr", name)
        #expect(throws: ImageError.self) { try EXRFile.read(path: path, options: ImageReadOptions(pixelLimit: 1 << 24)) }
    }

    /// AVIFs whose AV1 sequence header (in the item's data, not the container's `ispe`) declares
    /// frames of 65533x6279: dav1d sized its buffers from it (1.6 GB). In the second the data is
    /// outside any `mdat` box, where a walk of the file's boxes missed it. Now the decoder libheif
    /// uses checks the sequence headers it is given, wherever they came from.
    @Test(arguments: ["crash-av1-sequence-header-huge.avif", "oom-av1-sequence-header-no-mdat.avif"])
    func avifSequenceHeadersAreCheckedAgainstTheLimit(name: String) throws {
        let path = FuzzCorpus.path("avif", name)
        #expect(throws: ImageError.pixelLimit(.tooManyPixels(path: path, width: 65533, height: 6279, limit: 1 << 24))) {
            try HEIFFile.read(path: path, options: ImageReadOptions(pixelLimit: 1 << 24))
        }
    }

    /// A HEIC whose 16x12 grid has for its tile an overlay declaring a 28776x25961 canvas: libheif
    /// checks the primary image's size only, and allocated that canvas in every tile's thread
    /// (3 x 747 MB). Now every grid and overlay the `meta` box describes is checked first.
    @Test func heifDerivedCanvasesAreCheckedAgainstTheLimit() throws {
        let path = FuzzCorpus.path("heic", "oom-overlay-canvas-huge.heic")
        #expect(throws: ImageError.pixelLimit(.tooManyPixels(path: path, width: 28776, height: 25961, limit: 1 << 24))) {
            try HEIFFile.read(path: path, options: ImageReadOptions(pixelLimit: 1 << 24))
        }
    }
}
