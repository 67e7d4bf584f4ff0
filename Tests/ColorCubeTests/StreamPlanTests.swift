@testable import ColorCubeApplier
import Testing

/// What a graded clip keeps of its other streams, per container.
@Suite struct StreamPlanTests {
    static let audioPCM = VideoProbe.Stream(index: 1, kind: "audio", codec: "pcm_s16le")
    static let audioAAC = VideoProbe.Stream(index: 1, kind: "audio", codec: "aac")
    static let movText = VideoProbe.Stream(index: 2, kind: "subtitle", codec: "mov_text")
    static let pictures = VideoProbe.Stream(index: 2, kind: "subtitle", codec: "hdmv_pgs_subtitle")
    static let chapters = VideoProbe.Stream(index: 3, kind: "data", codec: "bin_data")

    @Test func audioIsCopiedWhereItFitsAndReencodedWhereNot() {
        #expect(StreamPlan(streams: [Self.audioPCM], muxer: "mov").entries[0].action == .copy)
        #expect(StreamPlan(streams: [Self.audioPCM], muxer: "mp4").entries[0].action == .encode(encoder: "aac", bitrate: "256k", asked: false))
        #expect(StreamPlan(streams: [Self.audioAAC], muxer: "webm").entries[0].action
            == .encode(encoder: "libopus", bitrate: "160k", asked: false))
        #expect(StreamPlan(streams: [Self.audioAAC], muxer: "matroska").entries[0].action == .copy)
        #expect(StreamPlan(streams: [Self.audioAAC], muxer: "mp4", audioEncoder: "libopus").entries[0].action
            == .encode(encoder: "libopus", bitrate: nil, asked: true))
        #expect(StreamPlan(streams: [Self.audioPCM], muxer: "mp4", audioEncoder: "copy").entries[0].action == .copy)
    }

    @Test func subtitlesAndDataTracksFollowTheContainer() {
        let mkv = StreamPlan(streams: [Self.audioAAC, Self.movText, Self.chapters], muxer: "matroska")
        #expect(mkv.entries.map(\.action) == [.copy, .encode(encoder: "srt", bitrate: nil, asked: false),
                                              .drop(reason: "a bin_data data track, which .mkv cannot hold")])
        let mp4 = StreamPlan(streams: [Self.pictures, Self.chapters], muxer: "mp4")
        #expect(mp4.entries.allSatisfy { if case .drop = $0.action { true } else { false } })
        #expect(mp4.notes.count == 2)
    }

    @Test func timecodeTracksAndAttachmentsFollowTheContainer() {
        let timecode = VideoProbe.Stream(index: 2, kind: "data", codec: "tmcd")
        let font = VideoProbe.Stream(index: 3, kind: "attachment", codec: "ttf")
        #expect(StreamPlan(streams: [timecode, font], muxer: "mov").entries.map(\.action)
            == [.copy, .drop(reason: "an attached ttf file, which .mov cannot hold")])
        #expect(StreamPlan(streams: [timecode, font], muxer: "matroska").entries.map(\.action)
            == [.drop(reason: "a timecode track, which .mkv cannot hold (its start stays in the timecode tag)"), .copy])
        #expect(StreamPlan(streams: [timecode], muxer: "mp4").entries.map(\.action)
            == [.drop(reason: "a timecode track, written anew from the video's timecode tag (.mp4 takes no copy)")])
    }

    /// Audio bitrates as the plan writes them ("256k") in bits a second, for the encoder.
    @Test func bitratesAreReadAsFFmpegWritesThem() {
        #expect(VideoPlan.bitRate("256k") == 256_000)
        #expect(VideoPlan.bitRate("2M") == 2_000_000)
        #expect(VideoPlan.bitRate("96000") == 96_000)
        #expect(VideoPlan.bitRate("fast") == nil)
    }
}
