import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform

extension FuzzTarget {
    /// One target per LUT format in `LUTFormats.all`, named after the format ("cube", "3dl", ...):
    /// the reader on an in-memory file, then the look evaluated by baking it into a small cube, so
    /// every operation a reader can produce is run on whatever it accepted. A format added to the
    /// table is fuzzed with no change here; give it a seed folder, Tests/FuzzCorpus/NAME. Image
    /// LUTs (Hald, tile and strip PNGs) decode through the image codecs, fuzzed by their own
    /// targets, so they are left out.
    static var lutFormats: [FuzzTarget] {
        LUTFormats.all.filter { !$0.readsImages }.map { format in
            FuzzTarget(name: format.name) { bytes in
                ScratchFile.withPath(holding: bytes) { path in
                    guard let look = try? format.read(path: path, options: LUTReadOptions(pixelLimit: PixelLimit(maxPixels: imagePixelLimit))) else { return }
                    _ = try? TransformBaker.bake(look.transform, size: 5)
                }
            }
        }
    }
}
