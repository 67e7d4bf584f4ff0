import ColorCubeCore

/// Why a clip could not be graded. Every case names the clip (or the output) it concerns; the
/// FFmpeg cases carry FFmpeg's own last words as evidence.
public enum VideoError: ColorCubeError, Equatable {
    /// FFmpeg's libraries could not be opened (`reason`: which one is missing).
    case librariesMissing(path: String, reason: String)
    /// FFmpeg could not read the file as a media file (truncated, corrupt).
    case unreadable(path: String, reason: String)
    /// The file holds no video stream (audio only, or a still image container).
    case noVideoStream(path: String)
    /// The video's frames are `width` x `height`, more than FFmpeg decodes (it refuses frames of
    /// about 268 million pixels and more, padding included).
    case frameTooLarge(path: String, width: Int, height: Int)
    /// The first frame, `width` x `height` (as its own header says, else the container), does not
    /// decode (`reason`: FFmpeg's); `containerWidth` and `containerHeight` are the container's
    /// size where the frame says another. `limit` is the pixel limit it was within.
    case firstFrameUndecodable(path: String, width: Int, height: Int, limit: Int, reason: String,
                               containerWidth: Int?, containerHeight: Int?)
    /// FFmpeg ran out of memory reading the container's headers: an index (an MP4's sample
    /// tables) that is damaged or declares more entries than fit in memory.
    case indexTooLarge(path: String)
    /// The video stream's pixel format is one colorcube cannot grade (alpha, palette, Bayer, ...).
    case unsupportedPixelFormat(path: String, pixelFormat: String)
    /// The stream's matrix is one FFmpeg's scaler cannot convert (YCgCo, ICtCp).
    case unsupportedMatrix(path: String, matrix: String)
    /// `--video-codec NAME` names no FFmpeg encoder.
    case unknownEncoder(name: String)
    /// The clip's codec has no default encoder; `--video-codec` must name one.
    case noDefaultEncoder(path: String, codec: String)
    /// `--crf` was given for an encoder that has no constant-quality factor.
    case crfNotSupported(encoder: String)
    /// The output container cannot hold one of the streams (ffv1 in MP4, PCM audio in MP4).
    case containerCannotHold(path: String, container: String, reason: String)
    /// The output's extension names no container FFmpeg writes.
    case unknownContainer(path: String)
    /// Decoding failed (a truncated or corrupt clip).
    case decodeFailed(path: String, reason: String)
    /// Encoding or writing the output failed.
    case encodeFailed(path: String, reason: String)
    /// The decoded frames are not laid out as expected (a frame of the wrong size, a stream
    /// colorcube did not ask for).
    case malformedFrames(path: String, reason: String)
    /// A clip in a batch run without a `VideoApplier`.
    case noVideoApplier(path: String)

    public var remedy: ErrorRemedy? {
        switch self {
        case .noDefaultEncoder: .chooseVideoEncoder
        case .crfNotSupported: .chooseQualityEncoder
        default: nil
        }
    }

    public var path: String? {
        switch self {
        case .librariesMissing(let path, _), .unreadable(let path, _), .noVideoStream(let path),
             .frameTooLarge(let path, _, _), .indexTooLarge(let path), .firstFrameUndecodable(let path, _, _, _, _, _, _),
             .unsupportedPixelFormat(let path, _), .unsupportedMatrix(let path, _),
             .noDefaultEncoder(let path, _), .containerCannotHold(let path, _, _), .unknownContainer(let path),
             .decodeFailed(let path, _), .encodeFailed(let path, _), .malformedFrames(let path, _),
             .noVideoApplier(let path):
            path
        case .unknownEncoder, .crfNotSupported:
            nil
        }
    }

    public var description: String {
        switch self {
        case .librariesMissing(let path, let reason):
            "\(path) is a video clip, and grading clips needs FFmpeg's libraries (\(reason)): "
                + "install them (Debian/Ubuntu: apt-get install ffmpeg); photos need nothing more"
        case .unreadable(let path, let reason):
            "\(path): cannot read the clip: \(reason)"
        case .noVideoStream(let path):
            "\(path): the file has no video stream to grade"
        case .frameTooLarge(let path, let width, let height):
            "\(path): its frames are \(width)x\(height), more than FFmpeg decodes; the clip cannot be graded at that size"
        case .firstFrameUndecodable(let path, let width, let height, let limit, let reason, let containerWidth, let containerHeight):
            "\(path): its first frame, \(width)x\(height) (\(Self.grouped(width * height)) pixels, within the limit of "
                + "\(Self.grouped(limit))), does not decode (\(reason))"
                + (containerWidth.map { ", and the container says \($0)x\(containerHeight ?? 0)" } ?? "")
                + ": the clip is damaged; use an intact copy"
        case .indexTooLarge(let path):
            "\(path): cannot read the clip: its index (the table of its frames) is damaged or too large to load "
                + "(FFmpeg ran out of memory reading it); use an intact copy of the clip"
        case .unsupportedPixelFormat(let path, let format):
            "\(path): cannot grade video in pixel format \(format)"
        case .unsupportedMatrix(let path, let matrix):
            "\(path): cannot convert the colour matrix \(matrix) to RGB"
        case .unknownEncoder(let name):
            "FFmpeg has no encoder named \(name) (see ffmpeg -encoders)"
        case .noDefaultEncoder(let path, let codec):
            "\(path): no default encoder for \(codec) video"
        case .crfNotSupported(let encoder):
            "the encoder \(encoder) has no constant-quality factor (libx264, libx265, libvpx-vp9 and libsvtav1 have one)"
        case .containerCannotHold(let path, let container, let reason):
            "cannot write \(path): the \(container) container cannot hold the streams (\(reason)); choose another extension (.mkv holds almost anything, .mov holds ProRes)"
        case .unknownContainer(let path):
            "cannot write \(path): its extension names no video container (use .mp4, .mov, .mkv, .webm, .avi, .mxf, .ts)"
        case .decodeFailed(let path, let reason):
            "\(path): decoding failed: \(reason)"
        case .encodeFailed(let path, let reason):
            "cannot write \(path): encoding failed: \(reason)"
        case .malformedFrames(let path, let reason):
            "\(path): unexpected decoded frames: \(reason)"
        case .noVideoApplier(let path):
            "\(path) is a video clip, and this batch grades images only"
        }
    }

    /// `value` with commas between groups of three digits ("256,000,000").
    private static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
