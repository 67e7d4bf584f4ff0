import ColorCubeEngine
import ColorCubeTransform

/// What to do with an HDR clip (PQ or HLG) when the look is made for SDR.
public enum HDRHandling: String, Sendable, CaseIterable {
    /// The output stays HDR (same signal, primaries, depth and HDR10 metadata); the look acts on
    /// the clip's SDR rendition (BT.2408), and highlights above reference white keep their light
    /// and take the look's change at reference white.
    case keep
    /// The output is SDR BT.709: the rendition brought inside BT.709, its highlights rolled off
    /// (`HighlightRollOff`), then the look.
    case toSDR = "to-sdr"
}

/// How one clip's light is handled: which engine sees which values, what the output is tagged,
/// what the encoder writes of HDR10's metadata, and the one line that says so.
struct HDRPlan: Sendable {
    let engine: LUTEngine
    /// The clip's pixels to the look's values and back; nil when the look sees the clip's values.
    let mapping: HDRFrameMapping?
    /// The output's colour description when it is not the source's (an HDR clip made SDR).
    let outputColor: VideoColor?
    /// HDR10's static metadata as the encoder's parameters (`HDRMetadata.encoderParameters`).
    let encoderParameters: [String]?
    /// What happened, for an HDR clip; nil for SDR.
    let note: String?
    /// True when the output stays HDR: the stream's mastering display and light level side data
    /// go with it.
    let keepsStaticMetadata: Bool

    /// An SDR clip: the look sees its values.
    init(sdr engine: LUTEngine) {
        self.engine = engine
        mapping = nil
        outputColor = nil
        encoderParameters = nil
        note = nil
        keepsStaticMetadata = false
    }

    /// - Parameters:
    ///   - engine: the run's engine, for a look made for SDR.
    ///   - hdrEngine: the engine for a look made for this clip's HDR space, or nil.
    ///   - encoder: the video encoder, which may or may not write HDR10's metadata.
    init(color: VideoColor, metadata: HDRMetadata, handling: HDRHandling, engine: LUTEngine, hdrEngine: LUTEngine?,
         encoder: String) {
        let signal = color.hdrSignal ?? .pq
        keepsStaticMetadata = hdrEngine != nil || handling == .keep
        let description = "HDR video (\(signal.title), \(Self.primariesName(color)))"
        var notes: [String] = []
        if hdrEngine != nil || handling == .keep {
            if metadata.hasStatic {
                let parameters = metadata.encoderParameters(for: encoder)
                encoderParameters = parameters
                notes.append(parameters == nil ? "its HDR10 metadata was dropped (\(encoder) cannot write it; libx265 and libsvtav1 can)"
                    : "HDR10 metadata kept")
            } else {
                encoderParameters = nil
            }
        } else {
            encoderParameters = nil
            if metadata.hasStatic { notes.append("HDR10 metadata dropped (the output is SDR)") }
        }
        if !metadata.dynamic.isEmpty {
            notes.append("its \(metadata.dynamic.joined(separator: " and ")) metadata was dropped (a grade makes it wrong)")
        }
        let tail = notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")
        if let hdrEngine {
            self.engine = hdrEngine
            mapping = nil
            outputColor = nil
            note = "\(description): the look is made for HDR, so it was applied in its own HDR space, with no SDR rendition\(tail)"
            return
        }
        self.engine = engine
        let rendition = HDRRendition(signal: signal, gamut: color.hdrGamut)
        switch handling {
        case .keep:
            mapping = HDRFrameMapping(rendition: rendition, mode: .keep)
            outputColor = nil
            note = "\(description): the look was applied to its SDR rendition (BT.2408: 203 cd/m² is SDR's 1.0), "
                + "highlights above reference white keeping their light; the output stays \(signal.title)\(tail)"
        case .toSDR:
            let peak = signal == .hlg ? HDRRendition.nominalPeak : metadata.peakLuminance ?? HDRRendition.nominalPeak
            mapping = HDRFrameMapping(rendition: rendition, mode: .toSDR(HighlightRollOff(peakLuminance: peak)))
            outputColor = VideoColor(matrix: .bt709, range: color.range, primaries: .bt709, transfer: .bt709)
            note = "\(description) made SDR (BT.709): highlights above 80% of reference white rolled off to a "
                + "\(Int(peak.rounded())) cd/m² peak, colours outside BT.709 desaturated, then the look\(tail)"
        }
    }

    private static func primariesName(_ color: VideoColor) -> String {
        switch color.primaries {
        case .smpte432?: "P3-D65"
        case .bt709?: "BT.709"
        case .bt2020?, nil: "BT.2020"
        case let other?: other.name
        }
    }
}
