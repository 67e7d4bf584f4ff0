import _CVideoCodec

/// FFmpeg's libraries in colorcube's own process (`_CVideoCodec`, opened at run time): every clip
/// is opened, decoded, encoded and written through them (see the Video article in
/// ColorCubeApplier.docc). Without them colorcube still starts and grades photos.
enum FFmpegLibraries {
    /// True when libavutil, libavcodec and libavformat (the versions colorcube was built with)
    /// could be opened.
    static let available: Bool = ccvideo_available(nil, 0) != 0

    /// Why the libraries could not be opened ("libavformat.so.59 is not installed").
    static var unavailableReason: String {
        var text = [CChar](repeating: 0, count: Int(CCVIDEO_MESSAGE_SIZE))
        _ = ccvideo_available(&text, text.count)
        return message(text)
    }

    /// The pixel formats the encoder `name` accepts, or nil when there is no such video encoder.
    static func encoderFormats(_ name: String) -> [String]? {
        var text = [CChar](repeating: 0, count: 4096)
        guard ccvideo_encoder_formats(name, &text, text.count) != 0 else { return nil }
        return message(text).split(separator: " ").map(String.init)
    }

    static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A C string in a fixed-size field of an imported struct.
    static func string<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
