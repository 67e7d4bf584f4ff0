/// What the graded clip keeps of the streams beside its video: each copied when the output's
/// container holds its codec, re-encoded to the container's usual codec when it does not (as
/// ffmpeg picks one: AAC for MP4 and MOV, Opus for WebM; text subtitles to the container's text
/// format), or dropped with the reason when nothing fits (a QuickTime chapter track, whose
/// chapters are kept as chapters; a timecode track outside QuickTime; picture subtitles in MP4;
/// attached files outside Matroska).
/// Every kept stream keeps its metadata (language, title, handler) and dispositions.
public struct StreamPlan: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case copy
        /// Re-encoded with an FFmpeg encoder, at a bitrate for audio; `asked` when the caller named it.
        case encode(encoder: String, bitrate: String?, asked: Bool)
        case drop(reason: String)
    }

    public struct Entry: Sendable, Equatable {
        public var stream: VideoProbe.Stream
        public var action: Action

        /// True when the stream is copied as it is or left out (nothing to encode).
        public var isCopiedOrDropped: Bool {
            if case .encode = action { return false }
            return true
        }
    }

    public let entries: [Entry]

    /// - Parameters:
    ///   - muxer: the output's FFmpeg muxer (mp4, mov, matroska, webm, ...).
    ///   - audioEncoder: an encoder for every audio stream, `copy` to copy them whatever the
    ///     container, or nil to copy where the container holds the codec and pick otherwise.
    public init(streams: [VideoProbe.Stream], muxer: String, audioEncoder: String? = nil) {
        entries = streams.map { stream in
            Entry(stream: stream, action: Self.action(for: stream, muxer: muxer, audioEncoder: audioEncoder))
        }
    }

    private static let textSubtitles: Set<String> = ["subrip", "srt", "ass", "ssa", "webvtt", "mov_text", "text"]

    /// The audio codecs each container holds; absent: any (ffmpeg decides).
    private static let audioCodecs: [String: Set<String>] = [
        "mp4": ["aac", "mp3", "alac", "ac3", "eac3", "opus", "flac", "mp2"],
        "mov": ["aac", "mp3", "alac", "ac3", "eac3", "mp2", "pcm_s16le", "pcm_s16be", "pcm_s24le", "pcm_s24be",
                "pcm_s32le", "pcm_s32be", "pcm_f32le", "pcm_f32be", "pcm_u8"],
        "webm": ["opus", "vorbis"],
    ]

    private static func action(for stream: VideoProbe.Stream, muxer: String, audioEncoder: String?) -> Action {
        let family = muxer == "ipod" || muxer == "m4v" ? "mp4" : muxer
        switch stream.kind {
        case "audio":
            if let audioEncoder { return audioEncoder == "copy" ? .copy : .encode(encoder: audioEncoder, bitrate: nil, asked: true) }
            guard let held = audioCodecs[family], !held.contains(stream.codec) else { return .copy }
            return family == "webm" ? .encode(encoder: "libopus", bitrate: "160k", asked: false)
                : .encode(encoder: "aac", bitrate: "256k", asked: false)
        case "subtitle":
            let text = textSubtitles.contains(stream.codec)
            switch family {
            case "mp4", "mov":
                if stream.codec == "mov_text" { return .copy }
                return text ? .encode(encoder: "mov_text", bitrate: nil, asked: false)
                    : .drop(reason: "\(stream.codec) subtitles are pictures, which .\(family) cannot hold")
            case "webm":
                if stream.codec == "webvtt" { return .copy }
                return text ? .encode(encoder: "webvtt", bitrate: nil, asked: false)
                    : .drop(reason: "\(stream.codec) subtitles are pictures, which .webm cannot hold")
            case "matroska":
                return stream.codec == "mov_text" ? .encode(encoder: "srt", bitrate: nil, asked: false) : .copy
            default:
                return .copy
            }
        case "data":
            // QuickTime keeps chapter titles in a text track that ffmpeg reads as a data stream:
            // the chapters travel as chapters; the track itself has nowhere to go.
            let name = family == "matroska" ? "mkv" : family
            if stream.codec == "tmcd" {
                // A QuickTime timecode track: only QuickTime holds one; its start stays a tag.
                switch family {
                case "mov": return .copy
                case "mp4": return .drop(reason: "a timecode track, written anew from the video's timecode tag (.mp4 takes no copy)")
                default: return .drop(reason: "a timecode track, which .\(name) cannot hold (its start stays in the timecode tag)")
                }
            }
            if family == "mov" || family == "mp4" { return .drop(reason: "a \(stream.codec) data track (its chapters are kept)") }
            return .drop(reason: "a \(stream.codec) data track, which .\(name) cannot hold")
        case "attachment":
            // Attached files (a subtitle's fonts) have a place in Matroska only.
            return family == "matroska" ? .copy : .drop(reason: "an attached \(stream.codec) file, which .\(family) cannot hold")
        default:
            return .copy
        }
    }

    /// One line per stream not copied as it was: "audio pcm_s16le re-encoded as aac (256k): the
    /// container does not hold it", "dropped a bin_data data track (its chapters are kept)".
    public var notes: [String] {
        entries.compactMap { entry in
            switch entry.action {
            case .copy: nil
            case .encode(let encoder, let bitrate, let asked):
                "\(entry.stream.kind) stream \(entry.stream.index) (\(entry.stream.codec)) re-encoded as \(encoder)"
                    + (bitrate.map { " at \($0)b/s" } ?? "") + (asked ? "" : ": the output's container cannot hold \(entry.stream.codec)")
            case .drop(let reason):
                "dropped stream \(entry.stream.index): \(reason)"
            }
        }
    }
}
