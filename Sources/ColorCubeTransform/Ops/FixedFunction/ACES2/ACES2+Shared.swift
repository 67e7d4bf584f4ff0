import Foundation

extension ACES2 {
    /// What the tone scale and chroma compression share with the gamut compression: the model
    /// of the ACES input (AP0), the tone scale, the peak's J and the reach gamut's (AP1) M there.
    struct Shared: Sendable {
        let input: JMhModel
        let toneScale: ToneScale
        let chroma: ChromaCompression
        let limitJ: Double
        let reachTable: [Double]
        /// The reach gamut's model.
        let reach: JMhModel

        init(peak: Double) {
            input = JMhModel(Gamuts.ap0)
            toneScale = ToneScale(peak: peak)
            chroma = ChromaCompression(toneScale)
            limitJ = input.lightness(luminance: peak)
            reach = JMhModel(Gamuts.ap1)
            reachTable = ACES2.reachTable(reach, limitJ: limitJ)
        }

        func reachM(_ hue: Double) -> Double { ACES2.reachM(reachTable, hue: hue) }

        /// Tone scale and chroma compression of J, M, h (hue in 0...360), J through the tone
        /// scale in its own terms.
        func toneScaleForward(_ jmh: SIMD3<Double>) -> SIMD3<Double> {
            let radians = jmh.z * .pi / 180
            let norm = chroma.norm(cos: cos(radians), sin: sin(radians))
            let jTS = toneScale.forward(lightness: jmh.x, input)
            return chroma.forward(jmh, toneMappedJ: jTS, norm: norm, reachM: reachM(jmh.z), limitJ: limitJ)
        }

        func toneScaleInverse(_ jmh: SIMD3<Double>) -> SIMD3<Double> {
            let radians = jmh.z * .pi / 180
            let norm = chroma.norm(cos: cos(radians), sin: sin(radians))
            let j = toneScale.inverse(lightness: jmh.x, input)
            return chroma.inverse(jmh, untonedJ: j, norm: norm, reachM: reachM(jmh.z), limitJ: limitJ)
        }
    }
}
