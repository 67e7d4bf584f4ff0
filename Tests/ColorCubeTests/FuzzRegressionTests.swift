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

    /// An AVIF whose AV1 sequence header (in the item's data, not the container's `ispe`) declares
    /// frames of 65533x6279: dav1d sized its buffers from it (1.6 GB). Now every sequence header
    /// of the file's `mdat` is checked against the pixel limit before libheif decodes.
    @Test func avifSequenceHeadersAreCheckedAgainstTheLimit() throws {
        let path = FuzzCorpus.path("avif", "crash-av1-sequence-header-huge.avif")
        #expect(throws: ImageError.self) { try HEIFFile.read(path: path, options: ImageReadOptions(pixelLimit: 1 << 24)) }
        do {
            _ = try HEIFFile.read(path: path, options: ImageReadOptions(pixelLimit: 1 << 24))
        } catch {
            #expect("\(error)".contains("65533x6279"), "\(error)")
        }
    }
}
