import Foundation

extension ACES2 {
    /// The model one ACES 2.0 style evaluates with, built once from its parameters.
    enum Stages: Sendable {
        /// RGB_TO_JMh_20 and its inverse: the model of the given primaries.
        case jmh(JMhModel)
        /// ToneScaleCompress20.
        case toneScale(Shared)
        /// GamutCompress20: the limiting gamut's compression.
        case gamut(Shared, GamutCompression)
        /// ACESOutputTransform20: ACES2065-1 to the limiting gamut's RGB (1.0 = 100 cd/m²).
        case output(Shared, limit: JMhModel, GamutCompression)

        /// The model of `style`, one of the eight ACES 2.0 styles, with its `parameters` (their
        /// count and peak already checked by `FixedFunctionOp`).
        init(_ style: FixedFunctionOp.Style, _ parameters: [Double]) {
            func gamut(_ p: ArraySlice<Double>) -> Gamut {
                let v = Array(p)
                return Gamut(red: SIMD2(v[0], v[1]), green: SIMD2(v[2], v[3]), blue: SIMD2(v[4], v[5]), white: SIMD2(v[6], v[7]))
            }
            switch style {
            case .toneScaleCompress20Fwd, .toneScaleCompress20Inv:
                self = .toneScale(Shared(peak: parameters[0]))
            case .gamutCompress20Fwd, .gamutCompress20Inv, .acesOutputTransform20Fwd, .acesOutputTransform20Inv:
                let shared = Shared(peak: parameters[0])
                let limit = JMhModel(gamut(parameters[1...]))
                let compression = GamutCompression(input: shared.input, limit: limit, reach: shared.reach,
                                                   toneScale: shared.toneScale, limitJ: shared.limitJ)
                if style == .gamutCompress20Fwd || style == .gamutCompress20Inv {
                    self = .gamut(shared, compression)
                } else {
                    self = .output(shared, limit: limit, compression)
                }
            default:
                self = .jmh(JMhModel(gamut(parameters[...])))
            }
        }

        /// Evaluates the style this was built for, forward or inverse. The styles taking JMh
        /// give NaN for a hue that is not finite (it indexes the tables).
        func apply(_ rgb: SIMD3<Double>, forward: Bool) -> SIMD3<Double> {
            switch self {
            case .jmh(let model):
                return forward ? model.rgbToJMh(rgb) : model.jmhToRGB(SIMD3(rgb.x, rgb.y, wrapHue(rgb.z)))
            case .toneScale where !rgb.z.isFinite, .gamut where !rgb.z.isFinite:
                return SIMD3(repeating: .nan)
            case .toneScale(let shared):
                let jmh = SIMD3(rgb.x, rgb.y, wrapHue(rgb.z))
                return forward ? shared.toneScaleForward(jmh) : shared.toneScaleInverse(jmh)
            case .gamut(let shared, let compression):
                let jmh = SIMD3(rgb.x, rgb.y, wrapHue(rgb.z))
                let reachM = shared.reachM(jmh.z)
                return forward ? compression.forward(jmh, reachM: reachM) : compression.inverse(jmh, reachM: reachM)
            case .output(let shared, let limit, let compression):
                return forward ? Self.render(rgb, shared, limit, compression) : Self.invert(rgb, shared, limit, compression)
            }
        }

        /// ACES2065-1 to display RGB: JMh, tone scale (from A directly), chroma compression,
        /// gamut compression, then back through the display's model with the same hue.
        static func render(_ rgb: SIMD3<Double>, _ shared: Shared, _ limit: JMhModel, _ compression: GamutCompression) -> SIMD3<Double> {
            let aab = shared.input.rgbToAab(rgb)
            let jmh = shared.input.aabToJMh(aab)
            let reachM = shared.reachM(jmh.z)
            let radians = jmh.z * .pi / 180
            let (c, s) = (cos(radians), sin(radians))
            let norm = shared.chroma.norm(cos: c, sin: s)
            let jTS = shared.toneScale.forward(achromatic: aab.x, shared.input)
            let toned = shared.chroma.forward(jmh, toneMappedJ: jTS, norm: norm, reachM: reachM, limitJ: shared.limitJ)
            let compressed = compression.forward(toned, reachM: reachM)
            return limit.aabToRGB(limit.jmhToAab(compressed, cos: c, sin: s))
        }

        /// Display RGB back to ACES2065-1, each step inverted in reverse order.
        static func invert(_ rgb: SIMD3<Double>, _ shared: Shared, _ limit: JMhModel, _ compression: GamutCompression) -> SIMD3<Double> {
            let compressed = limit.rgbToJMh(rgb)
            let reachM = shared.reachM(compressed.z)
            let radians = compressed.z * .pi / 180
            let (c, s) = (cos(radians), sin(radians))
            let norm = shared.chroma.norm(cos: c, sin: s)
            let toned = compression.inverse(compressed, reachM: reachM)
            let j = shared.toneScale.inverse(lightness: toned.x, shared.input)
            let jmh = shared.chroma.inverse(toned, untonedJ: j, norm: norm, reachM: reachM, limitJ: shared.limitJ)
            return shared.input.aabToRGB(shared.input.jmhToAab(jmh, cos: c, sin: s))
        }
    }
}
