import Foundation

/// The tables of the gamut compression, built once per set of parameters by the searches
/// OpenColorIO makes (same steps, tolerances and discrete choices).
///
/// Tables have 363 entries: index 0 repeats the last hue (wrapped below 0), 1...360 are the
/// nominal hues, 361 and 362 repeat the first two (wrapped above 360).
extension ACES2 {
    static let tableSize = 363

    /// The reach gamut's M at lightness `limitJ` for each whole degree of hue: the largest M whose
    /// RGB in `reach` has no negative channel, stepped by 50 up to 1300 then bisected to 0.01.
    static func reachTable(_ reach: JMhModel, limitJ: Double) -> [Double] {
        var table = [Double](repeating: 0, count: tableSize)
        func outside(_ m: Double, _ hue: Double) -> Bool {
            let rgb = reach.jmhToRGB(SIMD3(limitJ, m, hue))
            return rgb.x < 0 || rgb.y < 0 || rgb.z < 0
        }
        for i in 0..<360 {
            let hue = Double(i)
            var low = 0.0, high = 50.0
            while high < 1300, !outside(high, hue) {
                low = high
                high += 50
            }
            while high - low > 1e-2 {
                let m = (high + low) / 2
                if outside(m, hue) { high = m } else { low = m }
            }
            table[i + 1] = high
        }
        wrap(&table)
        return table
    }

    /// Copies the nominal ends into the wrapping entries.
    static func wrap<T>(_ table: inout [T]) {
        table[0] = table[360]
        table[361] = table[1]
        table[362] = table[2]
    }

    /// The reach gamut's M at the peak's J, interpolated between whole degrees.
    static func reachM(_ table: [Double], hue: Double) -> Double {
        let base = index(hue, within: 0...360)
        return lerp(table[base + 1], table[base + 2], hue - Double(base))
    }

    /// RGB corners of the unit cube in hue order: red, yellow, green, cyan, blue, magenta.
    static let cubeCorners: [SIMD3<Double>] = [SIMD3(1, 0, 0), SIMD3(1, 1, 0), SIMD3(0, 1, 0), SIMD3(0, 1, 1), SIMD3(0, 0, 1), SIMD3(1, 0, 1)]

    /// The six corners rotated so that the lowest hue is at index 1, with the last at 0 (hue
    /// less 360) and the first again at 7 (hue plus 360).
    static func cycle(_ rgb: [SIMD3<Double>], _ jmh: [SIMD3<Double>]) -> (rgb: [SIMD3<Double>], jmh: [SIMD3<Double>]) {
        var lowest = 0
        for i in 1..<6 where jmh[i].z < jmh[lowest].z { lowest = i }
        let order = [(lowest + 5) % 6] + (0..<6).map { ($0 + lowest) % 6 } + [lowest]
        var cycledJMh = order.map { jmh[$0] }
        cycledJMh[0].z -= 360
        cycledJMh[7].z += 360
        return (order.map { rgb[$0] }, cycledJMh)
    }
}

extension ACES2.GamutCompression {
    /// Builds the tables for display gamut `limit` at `peak` cd/m², with the tone scale, the
    /// peak's J in the input model and the reach gamut's model.
    init(input: ACES2.JMhModel, limit: ACES2.JMhModel, reach: ACES2.JMhModel, toneScale: ACES2.ToneScale, limitJ: Double) {
        self.limitJ = limitJ
        midJ = input.lightness(luminance: toneScale.greyOut * ACES2.referenceLuminance)
        focusDistance = 1.35 + 1.35 * 1.75 * toneScale.logPeak
        lowerHullGammaInverse = 1 / (1.14 + 0.07 * toneScale.logPeak)

        // The corners of the display cube at the peak, and the reach gamut's at the peak's J.
        let displayRGB = ACES2.cubeCorners.map { $0 * (toneScale.peak / ACES2.referenceLuminance) }
        let display = ACES2.cycle(displayRGB, displayRGB.map(limit.rgbToJMh))
        let limitA = pow(limitJ / ACES2.jScale, 1 / ACES2.modelGamma)
        let reachJMh = ACES2.cubeCorners.map { corner in
            var lower = 0.0, upper = toneScale.forwardLimit
            while upper - lower > 1e-3 {
                let test = (lower + upper) / 2
                let a = reach.rgbToAab(corner * test).x
                if a < limitA { lower = test } else { upper = test }
                if a == limitA { break }
            }
            return reach.rgbToJMh(corner * upper)
        }
        let reachCycle = ACES2.cycle(ACES2.cubeCorners, reachJMh).jmh

        let hues = Self.hueTable(Self.mergedHues(reachCycle, display.jmh))
        self.hues = hues
        cusps = Self.cuspTable(hues, display.rgb, display.jmh, limit)
        var lower = 0, upper = 1
        for i in 1...360 {
            let delta = i - (1 + ACES2.index(cusps[i].z, within: 0...360))
            lower = min(lower, delta)
            upper = max(upper, delta + 1)
        }
        searchRange = (lower, upper)
        for i in 1...360 {
            cusps[i].z = 1 / upperHullGamma(hue: hues[i], cuspJ: cusps[i].x, cuspM: cusps[i].y,
                                             peak: toneScale.peak, limit: limit)
        }
        cusps[0].z = cusps[360].z
        cusps[361].z = cusps[1].z
        cusps[362].z = cusps[2].z
    }

    /// The corners' hues of both cycles merged in order, equal hues once.
    static func mergedHues(_ reach: [SIMD3<Double>], _ display: [SIMD3<Double>]) -> [Double] {
        var sorted: [Double] = []
        var r = 1, d = 1
        // Each cycle's entry 7 (its first corner plus 360) ends its run; the bounds only matter
        // for hues that are NaN.
        while (r < 7 || d < 7) && r <= 7 && d <= 7 {
            let reachHue = reach[r].z, displayHue = display[d].z
            if reachHue == displayHue {
                sorted.append(reachHue)
                r += 1
                d += 1
            } else if reachHue < displayHue {
                sorted.append(reachHue)
                r += 1
            } else {
                sorted.append(displayHue)
                d += 1
            }
        }
        return sorted
    }

    /// 360 hues placed so that each corner hue is sampled, the rest uniformly between them.
    static func hueTable(_ sorted: [Double]) -> [Double] {
        // The table index at which each corner hue lands: its nearest whole degree, moved on
        // when two corners would share one.
        var counts = [Int](repeating: 0, count: sorted.count)
        var last = -1
        var minimum = sorted[0] == 0 ? 0 : 1
        for (index, hue) in sorted.enumerated() {
            var nominal = min(max(ACES2.index(hue.rounded(), within: 0...359), minimum), 359)
            if last == nominal {
                if index > 1 && counts[index - 2] != counts[index - 1] - 1 {
                    counts[index - 1] -= 1
                } else {
                    nominal += 1
                }
            }
            counts[index] = min(nominal, 359)
            last = nominal
            minimum = nominal
        }
        var table = [Double](repeating: 0, count: ACES2.tableSize)
        var total = 0
        func fill(_ samples: Int, _ lower: Double, _ upper: Double) {
            let delta = (upper - lower) / Double(samples)
            for i in 0..<max(samples, 0) where (1...360).contains(total + 1 + i) { table[total + 1 + i] = lower + Double(i) * delta }
            total += samples
        }
        fill(counts[0], 0, sorted[0])
        for i in 1..<sorted.count { fill(counts[i] - counts[i - 1], sorted[i - 1], sorted[i]) }
        fill(360 - total, sorted[sorted.count - 1], 360)
        table[0] = table[360] - 360
        table[361] = table[1] + 360
        table[362] = table[2] + 360
        return table
    }

    /// The display gamut's cusp (J, M enlarged for the smooth minimum, hue) at each table hue:
    /// a bisection along the cube edge between the corners whose hues enclose it.
    static func cuspTable(_ hues: [Double], _ rgb: [SIMD3<Double>], _ jmh: [SIMD3<Double>], _ limit: ACES2.JMhModel) -> [SIMD3<Double>] {
        var table = [SIMD3<Double>](repeating: .zero, count: ACES2.tableSize)
        // The search resumes where the last one ended while it stays on the same edge.
        var previous = (corner: 0, t: 0.0)
        for i in 1...360 {
            let hue = hues[i]
            let upperCorner = (1..<8).first { jmh[$0].z > hue } ?? 1
            let lowerCorner = upperCorner - 1
            var cusp: SIMD2<Double>
            if jmh[lowerCorner].z == hue {
                cusp = SIMD2(jmh[lowerCorner].x, jmh[lowerCorner].y)
            } else {
                let from = rgb[lowerCorner], to = rgb[upperCorner]
                var lowerT = upperCorner == previous.corner ? previous.t : 0, upperT = 1.0
                while upperT - lowerT > 1e-7 {
                    let t = (lowerT + upperT) / 2
                    let h = limit.rgbToJMh(from + t * (to - from)).z
                    if h < jmh[lowerCorner].z {
                        upperT = t
                    } else if h >= jmh[upperCorner].z {
                        lowerT = t
                    } else if h > hue {
                        upperT = t
                    } else {
                        lowerT = t
                    }
                }
                let t = (lowerT + upperT) / 2
                let found = limit.rgbToJMh(from + t * (to - from))
                previous = (upperCorner, t)
                cusp = SIMD2(found.x, found.y)
            }
            table[i] = SIMD3(cusp.x, cusp.y * (1 + 0.27 * smoothCusps), hue)
        }
        ACES2.wrap(&table)
        table[0].z = hues[0]
        table[361].z = hues[361]
        table[362].z = hues[362]
        return table
    }

    /// The smallest upper hull gamma (to 1e-5, searched in steps of 0.4 up to 5 then bisected)
    /// for which the estimated boundary lies outside the display cube at five test lightnesses
    /// between the cusp and the peak.
    func upperHullGamma(hue: Double, cuspJ: Double, cuspM: Double, peak: Double, limit: ACES2.JMhModel) -> Double {
        let threshold = ACES2.lerp(cuspJ, limitJ, Self.focusGainBlend)
        let focus = Self.focusJ(cuspJ: cuspJ, midJ: midJ, limitJ: limitJ)
        let tests = [0.01, 0.1, 0.5, 0.8, 0.99].map { position in
            let j = ACES2.lerp(cuspJ, limitJ, position)
            let gain = focusGain(j, threshold)
            let intersect = Self.intersectJ(j, cuspM, focus, limitJ, gain)
            return (intersect: intersect, slope: Self.slope(intersect, focus, limitJ, gain),
                    cuspIntersect: Self.intersectJ(cuspJ, cuspM, focus, limitJ, gain))
        }
        let luminanceLimit = peak / ACES2.referenceLuminance
        func fits(_ gamma: Double) -> Bool {
            let p = HueParameters(cuspJ: cuspJ, cuspM: cuspM, gammaTopInverse: 1 / gamma, focusJ: focus, analyticalThreshold: threshold)
            for test in tests {
                let m = Self.boundaryM(p, limitJ: limitJ, lowerGammaInverse: lowerHullGammaInverse, intersect: test.intersect,
                                       slope: test.slope, cuspIntersect: test.cuspIntersect)
                let rgb = limit.jmhToRGB(SIMD3(test.intersect + test.slope * m, m, hue))
                if !(rgb.x > luminanceLimit || rgb.y > luminanceLimit || rgb.z > luminanceLimit) { return false }
            }
            return true
        }
        var low = 0.0, high = 0.4
        while high < 5, !fits(high) {
            low = high
            high += 0.4
        }
        while high - low > 1e-5 {
            let test = (high + low) / 2
            if fits(test) { high = test } else { low = test }
        }
        return high
    }
}
