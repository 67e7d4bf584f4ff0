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
}
