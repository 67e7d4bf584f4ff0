import ColorCubeImaging

extension FuzzTarget {
    /// The largest image the image targets decode: 16 Mpx (128 MB at 16-bit RGBA). A header that
    /// declares more is refused by the codec before any allocation, as it is at the default limit;
    /// the small limit keeps the fuzzer decoding instead of filling gigabytes of valid-looking rows.
    static let imagePixelLimit = 1 << 24

    /// One target per readable codec in `ImageCodecs.all`, named after its format ("png", "jpeg",
    /// ...), each reading the input from an in-memory file. A decoder added to the table is fuzzed
    /// with no change here; give it a seed folder, Tests/FuzzCorpus/NAME.
    static var imageCodecs: [FuzzTarget] {
        ImageCodecs.all.filter(\.isReadable).map { codec in
            FuzzTarget(name: codec.format.identifier) { bytes in
                ScratchFile.withPath(holding: bytes) { path in
                    _ = try? codec.read(path: path, options: ImageReadOptions(pixelLimit: imagePixelLimit))
                }
            }
        }
    }

    /// Any image file through the table: every codec's content sniffing (TIFF directories for
    /// camera raw included), then the decoder that claims the file.
    static let imageSniffing = FuzzTarget(name: "image") { bytes in
        ScratchFile.withPath(holding: bytes) { path in
            _ = try? ImageCodecs.read(path: path, options: ImageReadOptions(pixelLimit: imagePixelLimit))
        }
    }
}

extension FuzzTarget {
    /// A JPEG's stored DCT coefficients, as `learn` reads a JPEG after (`JPEGCoefficients`): its
    /// own libjpeg path (jpeg_read_coefficients), apart from the pixel decoder's.
    static let jpegCoefficients = FuzzTarget(name: "jpeg-coefficients") { bytes in
        ScratchFile.withPath(holding: bytes) { path in
            _ = try? JPEGCoefficients.read(path: path, options: ImageReadOptions(pixelLimit: imagePixelLimit))
        }
    }
}
