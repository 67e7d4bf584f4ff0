@testable import ColorCubeApplier
import _CVideoCodec
import ColorCubeTransform
import Foundation
import Testing

/// BT.2408's meeting point of HDR and SDR, the roll-off to SDR, the Float tables the frame grader
/// reads, and HDR10's metadata as FFmpeg's libraries read it and x265 takes it.
@Suite struct HDRRenditionTests {
    /// BT.2408: reference white is 75% HLG and 58% PQ (rounded in the Recommendation), and is SDR's 1.0.
    @Test func referenceWhiteIsSDRsOne() {
        let hlg = HDRRendition(signal: .hlg), pq = HDRRendition(signal: .pq)
        let fromHLG = hlg.linear(signal: SIMD3(repeating: 0.75))
        #expect(largestMagnitude(fromHLG - SIMD3(repeating: 1)) < 0.005, "\(fromHLG)")
        let pqWhite = pq.signal(linear: SIMD3(repeating: 1))
        #expect(abs(pqWhite.x - 0.58) < 0.005 && largestMagnitude(pqWhite - SIMD3(repeating: pqWhite.x)) < 1e-9, "\(pqWhite)")
        // 1000 cd/m² in PQ is 0.7518.
        #expect(abs(pq.signal(linear: SIMD3(repeating: 1000.0 / 203)).x - 0.7518) < 1e-4)
    }

    @Test(arguments: HDRRendition.Signal.allCases)
    func renditionAndSignalUndoEachOther(signal: HDRRendition.Signal) {
        let rendition = HDRRendition(signal: signal)
        for code in [SIMD3<Double>(0.01, 0.2, 0.5), SIMD3(0.75, 0.6, 0.4), SIMD3(0.9, 0.95, 0.3), SIMD3(0.3, 0.3, 0.3)] {
            let back = rendition.signal(linear: rendition.linear(signal: code))
            #expect(largestMagnitude(back - code) < 1e-9, "\(signal) \(code) -> \(back)")
        }
    }

    @Test func rollOffIsIdentityBelowTheKneeSmoothAndReachesOneAtThePeak() {
        let curve = HighlightRollOff(peakLuminance: 1000)
        for value in stride(from: 0.0, through: HighlightRollOff.knee, by: 0.05) { #expect(curve.apply(value) == value) }
        let peak = 1000.0 / 203
        #expect(abs(curve.apply(peak) - 1) < 1e-12)
        var last = 0.0
        for value in stride(from: 0.0, through: peak, by: 0.01) {
            let y = curve.apply(value)
            #expect(y >= last && y <= 1)
            last = y
        }
        // Slope 1 at the knee: just above it, the curve leaves the identity by a second-order amount.
        let above = HighlightRollOff.knee + 1e-3
        #expect(abs(curve.apply(above) - above) < 1e-5)
        // A source no brighter than reference white is only clipped.
        #expect(HighlightRollOff(peakLuminance: 150).apply(0.9) == 0.9)
        // Hue and saturation kept: the channels are scaled together.
        let colour = curve.apply(SIMD3<Double>(2, 1, 0.5))
        #expect(abs(colour.y / colour.x - 0.5) < 1e-12 && abs(colour.z / colour.x - 0.25) < 1e-12 && colour.x <= 1)
    }

    @Test func gamutMappingKeepsLuminanceAndLeavesNoNegativeChannel() {
        let inside = SIMD3<Double>(0.2, 0.5, 0.1)
        #expect(HDRRendition.gamutMapped(inside) == inside)
        let outside = SIMD3<Double>(-0.1, 0.6, 0.2)
        let mapped = HDRRendition.gamutMapped(outside)
        let weights = SIMD3<Double>(0.2126, 0.7152, 0.0722)
        #expect(abs(mapped.min()) < 1e-12 && abs((weights * mapped).sum() - (weights * outside).sum()) < 1e-12)
    }

    /// The frame grader's tables agree with the Double formulas to well under a 10-bit code.
    @Test(arguments: HDRRendition.Signal.allCases)
    func frameTablesAgreeWithTheFormulas(signal: HDRRendition.Signal) {
        let rendition = HDRRendition(signal: signal)
        let mapping = HDRFrameMapping(rendition: rendition, mode: .keep)
        var worstCode = 0.0, worstSignal = 0.0
        for step in 0..<4000 {
            let t = Double(step) / 3999
            // Up to 1000 cd/m² in PQ, and no channel at 0 beside a bright one: there a code is
            // steep in light that Float's matrices give only to 1e-7 of the bright channel's.
            let code = SIMD3(0.02 + t, 0.02 + (t * 7).truncatingRemainder(dividingBy: 1), 1 - t * 0.9) * (signal == .pq ? 0.74 : 0.97)
            let linear = rendition.linear(signal: code)
            let headroom = HDRRendition.headroom(linear)
            let scaled = linear / headroom
            let sdr = SIMD3(HDRRendition.sdrCode(linear: scaled.x), HDRRendition.sdrCode(linear: scaled.y),
                            HDRRendition.sdrCode(linear: scaled.z))
            // The table is read at the 16-bit code the engine would see.
            let quantized = (code * 65535).rounded(.toNearestOrEven) / 65535
            let seen = mapping.rendition(of: SIMD3<Float>(quantized))
            let sdrAtQuantized = rendition.linear(signal: quantized) / HDRRendition.headroom(rendition.linear(signal: quantized))
            let reference = SIMD3(HDRRendition.sdrCode(linear: sdrAtQuantized.x), HDRRendition.sdrCode(linear: sdrAtQuantized.y),
                                  HDRRendition.sdrCode(linear: sdrAtQuantized.z))
            worstCode = max(worstCode, largestMagnitude(SIMD3<Double>(seen.code) - reference))
            let back = mapping.signal(of: SIMD3<Float>(sdr), headroom: Float(headroom))
            worstSignal = max(worstSignal, largestMagnitude(SIMD3<Double>(back) - code))
        }
        #expect(worstCode * 65535 < 2, "\(signal): rendition \(worstCode * 65535) of a 16-bit code off")
        #expect(worstSignal * 1023 < 0.05, "\(signal): signal \(worstSignal * 1023) of a 10-bit code off")
    }

    @Test func hdr10MetadataIsReadAndWrittenForTheEncoder() throws {
        // As FFmpeg's libraries hand it over (ST 2086 in 1/50000 and 1/10000 units, CTA-861.3 in cd/m²).
        var info = ccvideo_hdr_info()
        info.has_mastering = 1
        info.primaries = ((0.68, 0.32), (0.265, 0.69), (0.15, 0.06), (0.3127, 0.329))
        info.min_luminance = 0.005
        info.max_luminance = 4000
        info.has_light = 1
        info.max_cll = 1200
        info.max_fall = 300
        info.hdr10_plus = 1
        info.dolby_vision = 1
        let metadata = HDRMetadata(info)
        let display = try #require(metadata.masteringDisplay)
        #expect(display.red == SIMD2(0.68, 0.32) && display.maxLuminance == 4000 && display.minLuminance == 0.005)
        #expect(metadata.contentLight?.maxCLL == 1200 && metadata.contentLight?.maxFALL == 300)
        #expect(metadata.peakLuminance == 1200)
        #expect(Set(metadata.dynamic) == ["HDR10+", "Dolby Vision"])
        #expect(metadata.encoderParameters(for: "libx265") == [
            "hdr10=1", "master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(40000000,50)", "max-cll=1200,300",
        ])
        #expect(metadata.encoderParameters(for: "ffv1") == nil)
        var encoding = VideoEncoding(encoder: "libx265", options: ["-crf", "16", "-x265-params", "log-level=error"], pixelFormat: "yuv420p10le")
        encoding.addParameters(["hdr10=1", "max-cll=1200,300"])
        #expect(encoding.options == ["-crf", "16", "-x265-params", "log-level=error:hdr10=1:max-cll=1200,300"])
    }

    @Test func clipsTagsNameTheirSignalAndSpace() {
        #expect(VideoColor(primaries: .bt2020, transfer: .aribStdB67).hdrSpace?.id == "hlg_rec2020_display")
        #expect(VideoColor(primaries: .smpte432, transfer: .smpte2084).hdrSpace?.id == "pq_p3d65_display")
        #expect(VideoColor(primaries: .bt709, transfer: .bt709).hdrSignal == nil)
        #expect(VideoColor(transfer: .smpte2084).hdrGamut == Gamuts.rec2020)
        #expect(VideoColor(primaries: .smpte432, transfer: .iec61966_2_1).sdrSpace?.id == "srgb_p3d65_scene")
        #expect(VideoColor(primaries: .bt709, transfer: .bt709).sdrSpace?.id == "ocio:itu709_rec709_scene")
        #expect(VideoColor(transfer: .gamma22).sdrSpace?.id == "g22_rec709_scene")
        #expect(VideoColor(primaries: .bt2020, transfer: .aribStdB67).sdrSpace == nil)
    }
}

/// The largest absolute value of a colour's channels.
private func largestMagnitude(_ value: SIMD3<Double>) -> Double {
    max(abs(value.x), abs(value.y), abs(value.z))
}
