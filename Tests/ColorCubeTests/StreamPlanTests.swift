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

    /// Every kept stream is mapped with its own metadata; dropped ones are not mapped.
    @Test func argumentsMapEachKeptStreamWithItsMetadata() {
        let plan = StreamPlan(streams: [Self.audioPCM, Self.movText, Self.chapters], muxer: "mp4")
        let arguments = plan.arguments(videoStreamIndex: 0)
        #expect(arguments.starts(with: ["-map", "0:v:0", "-map", "1:1", "-map", "1:2", "-c", "copy"]))
        #expect(!arguments.contains("1:3"))
        for pair in [["-map_metadata:s:1", "1:s:1"], ["-map_metadata:s:2", "1:s:2"], ["-c:1", "aac"]] {
            #expect(arguments.indices.contains { Array(arguments[$0...].prefix(2)) == pair }, "\(pair)")
        }
    }
}
