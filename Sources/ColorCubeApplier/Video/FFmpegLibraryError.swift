import _CVideoCodec

/// Why a call into FFmpeg's libraries failed: a CCVIDEO_* status and FFmpeg's reason (its return
/// code's text, or the error it logged for that context).
struct FFmpegLibraryError: Error {
    var status: Int32
    var message: String
    /// For a first frame that did not decode: the size its own header declared, if it got that far.
    var frameSize: (width: Int, height: Int)? = nil

    /// Memory could not be had (for a clip's headers: they ask for more than there is).
    var outOfMemory: Bool { status == CCVIDEO_NO_MEMORY }
    /// A frame of another size or format than the stream's first.
    var formatChanged: Bool { status == CCVIDEO_FORMAT_CHANGED }
    /// The output's container cannot hold a stream; `message` names its codec.
    var containerCannotHold: Bool { status == CCVIDEO_CONTAINER_CANNOT_HOLD }
    /// Writing the output or encoding for it failed (not reading the clip).
    var isOutputFailure: Bool {
        [CCVIDEO_WRITE_FAILED, CCVIDEO_ENCODE_FAILED, CCVIDEO_CONTAINER_CANNOT_HOLD].contains(status)
    }
}
