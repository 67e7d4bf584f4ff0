import ColorCubeCore
import ColorCubeLooks

extension LUTFormats {
    /// Every format colorcube reads and writes, each once: the portable ones, then those that need
    /// the image codecs (Hald, tile and strip PNGs) or Little CMS (ICC device links). A format is
    /// one conforming type and one line here or in `portable`.
    public static let all: [any LUTFileFormat] = portable + [
        HaldFormat(),
        ImageLUTFormat(.tile),
        ImageLUTFormat(.strip),
        ImageLUTFormat(.unityStrip),
        DeviceLinkFormat(),
        CameraRawProfileFormat(),
    ]
}

extension LUTReader {
    /// Reads `path` into a `Look`, finding its format in `LUTFormats.all` (see
    /// `read(path:format:options:formats:)`).
    public static func read(path: String, format: (any LUTFileFormat)? = nil,
                            options: LUTReadOptions = LUTReadOptions()) throws -> Look {
        try read(path: path, format: format, options: options, formats: LUTFormats.all)
    }
}
