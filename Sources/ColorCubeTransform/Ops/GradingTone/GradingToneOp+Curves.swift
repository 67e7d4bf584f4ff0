import Foundation

/// The pieces GradingTone's curves are made of, each with its evaluation and its inverse.
extension GradingToneOp {
    /// A piece from `x0` to `x1` starting at `y0`, whose slope runs linearly from `m0` to `m1`
    /// (a quadratic): `y0 + d * (m0 + (m1 - m0) * d / (2 * (x1 - x0)))` with `d = t - x0`.
    struct Ramp {
        var x0, x1, y0, m0, m1: Double

        var y1: Double { y0 + (m0 + m1) * (x1 - x0) * 0.5 }

        func value(_ t: Double) -> Double {
            let u = (t - x0) / (x1 - x0)
            return u * (x1 - x0) * (u * 0.5 * (m1 - m0) + m0) + y0
        }

        /// The `t` whose value is `y`: the root of the quadratic in the form that stays exact
        /// when the slope barely changes.
        func inverse(_ y: Double) -> Double {
            let a = 0.5 * (m1 - m0) * (x1 - x0), b = m0 * (x1 - x0), c = y0 - y
            let u = -2 * c / ((b * b - 4 * a * c).squareRoot() + b)
            return u * (x1 - x0) + x0
        }
    }

    /// The highlight and shadow curve: two quadratic pieces joined at the midpoint `x1` of
    /// `x0...x2`, leaving `(x0, x0)` with slope `m0` and reaching `(x2, x2)` with slope `m2`,
    /// straight lines beyond. `bend` evaluates it; `unbend` is its inverse.
    struct Bend {
        var x0, x1, x2, y1, m0, m2: Double

        /// The curve through `x0` and `x2` with end slopes `m0` and `m2`.
        init(from x0: Double, to x2: Double, m0: Double, m2: Double) {
            self.x0 = x0
            self.x2 = x2
            self.m0 = m0
            self.m2 = m2
            x1 = x0 + (x2 - x0) * 0.5
            y1 = 0.5 / ((x2 - x1) + (x1 - x0)) * ((2 * x0 + m0 * (x1 - x0)) * (x2 - x1) + (2 * x2 - m2 * (x2 - x1)) * (x1 - x0))
        }

        func bend(_ t: Double) -> Double {
            if t < x0 { return (t - x0) * m0 + x0 }
            if t > x2 { return (t - x2) * m2 + x2 }
            if t < x1 {
                let u = (t - x0) / (x1 - x0)
                return x0 * (1 - u * u) + y1 * u * u + m0 * (1 - u) * u * (x1 - x0)
            }
            let u = (t - x1) / (x2 - x1)
            return y1 * (1 - u) * (1 - u) + x2 * (2 - u) * u + m2 * (u - 1) * u * (x2 - x1)
        }

        func unbend(_ t: Double) -> Double {
            if t < x0 { return (t - x0) / m0 + x0 }
            if t > x2 { return (t - x2) / m2 + x2 }
            if t < y1 {
                let b = m0 * (x1 - x0), a = y1 - x0 - b, c = x0 - t
                return -2 * c / ((b * b - 4 * a * c).squareRoot() + b) * (x1 - x0) + x0
            }
            let b = 2 * x2 - 2 * y1 - m2 * (x2 - x1), a = y1 - x2 + m2 * (x2 - x1), c = y1 - t
            return -2 * c / ((b * b - 4 * a * c).squareRoot() + b) * (x2 - x1) + x1
        }
    }

    /// The midtones curve: five ramps between `bottom` and `top`, slope 1 outside, raising
    /// (or lowering) the middle of the range around `center` over `width` while the areas
    /// under the slope changes balance, so the ends stay where they were.
    struct Mids {
        var x: [Double], y: [Double], m: [Double]

        init(value: Double, center: Double, width: Double, bottom: Double, top: Double) {
            let halo = 0.4, flattest = 0.1
            let x0 = bottom, x5 = top
            let w = min(max(width, 0.01), (x5 - x0) * 0.95)
            let c = min(max(center, x0 + w * 0.51), x5 - w * 0.51)
            let x1 = c - w * 0.5, x4 = x1 + w
            let x2 = x1 + (x4 - x1) * 0.25, x3 = x1 + (x4 - x1) * 0.75
            let adjust = (value - 1) * (1 - flattest)
            var m1 = 1 + adjust * halo, m4 = 1 - adjust * halo
            let m0 = 1.0, m2 = 1 + adjust, m3 = 1 - adjust, m5 = 1.0
            // The slope beyond the far side of the centre is set so the two sides' areas match.
            if c <= (x5 + x0) * 0.5 {
                let area = (x1 - x0) * (m1 - m0) * 0.5 + (x2 - x1) * ((m1 - m0) + (m2 - m1) * 0.5) + (c - x2) * (m2 - m0) * 0.5
                m4 = (-0.5 * (x5 - x4) * m5 + (x4 - x3) * (0.5 * m3 - m5) + (x3 - c) * (m3 - m5) * 0.5 + area) / (-0.5 * (x5 - x3))
            } else {
                let area = (x5 - x4) * (m4 - m5) * 0.5 + (x4 - x3) * ((m4 - m5) + (m3 - m4) * 0.5) + (x3 - c) * (m3 - m5) * 0.5
                m1 = (-0.5 * (x1 - x0) * m0 + (x2 - x1) * (0.5 * m2 - m0) + (c - x2) * (m2 - m0) * 0.5 + area) / (-0.5 * (x2 - x0))
            }
            x = [x0, x1, x2, x3, x4, x5]
            m = [m0, m1, m2, m3, m4, m5]
            y = [x0]
            for i in 0..<5 { y.append(y[i] + (m[i] + m[i + 1]) * (x[i + 1] - x[i]) * 0.5) }
        }

        func ramp(_ i: Int) -> Ramp { Ramp(x0: x[i], x1: x[i + 1], y0: y[i], m0: m[i], m1: m[i + 1]) }

        func value(_ t: Double) -> Double {
            if t < x[0] { return y[0] + (t - x[0]) * m[0] }
            if t > x[5] { return y[5] + (t - x[5]) * m[5] }
            let i = t < x[1] ? 0 : t <= x[2] ? 1 : t <= x[3] ? 2 : t <= x[4] ? 3 : 4
            return ramp(i).value(t)
        }

        /// The inverse. For one channel OpenColorIO continues the line through the bottom end
        /// above the top (the two differ by rounding, as the curve ends where it started); for
        /// the master it continues the top end.
        func inverse(_ t: Double, master: Bool) -> Double {
            if t < y[0] { return x[0] + (t - y[0]) / m[0] }
            if t >= y[5] { return master ? x[5] + (t - y[5]) / m[5] : x[0] + (t - y[0]) / m[0] }
            let i = t < y[1] ? 0 : t < y[2] ? 1 : t < y[3] ? 2 : t < y[4] ? 3 : 4
            return ramp(i).inverse(t)
        }
    }

    /// The whites (or blacks) curve over `x0...x1`: a ramp from slope 1 to the chosen slope
    /// (from it to 1 for blacks) when that slope is below 1; above 1 the inverse of such a ramp,
    /// scaled by `gain`, with a quadratic beyond the top for whites (to keep control of HDR values).
    struct Ends {
        var ramp: Ramp
        var isBlack: Bool
        /// Whether the slope is raised (the curve is an inverse ramp).
        var raises: Bool
        var gain = 1.0
        /// The whites' quadratic beyond the top, `(aa * t + bb) * t + cc`.
        var aa = 0.0, bb = 0.0, cc = 0.0

        /// nil when `value` is 1 (nothing changes).
        init?(value: Double, start x0: Double, end x1: Double, isBlack: Bool) {
            let test = isBlack ? 2 - value : value
            guard test != 1 else { return nil }
            self.isBlack = isBlack
            raises = test > 1
            let m0, m1: Double
            if !raises {
                (m0, m1) = isBlack ? (max(0.01, 2 - value), 1) : (1, max(0.01, value))
            } else {
                (m0, m1) = isBlack ? (max(0.01, value), 1) : (1, max(0.01, 2 - value))
                gain = (m0 + m1) * 0.5
            }
            let y0 = isBlack ? x1 - (m0 + m1) * (x1 - x0) * 0.5 : x0
            ramp = Ramp(x0: x0, x1: x1, y0: y0, m0: m0, m1: m1)
            if raises && !isBlack {
                let top = (x1 - x0) / gain + x0
                let xd = x0 + (x1 - x0) * 0.99
                let md = 1 / (m0 + (xd - x0) * (m1 - m0) / (x1 - x0))
                aa = 0.5 * (1 / m1 - md) / (x1 - xd)
                bb = 1 / m1 - 2 * aa * x1
                cc = top - bb * x1 - aa * x1 * x1
            }
        }

        /// The ramp with straight lines beyond its ends.
        private func rampValue(_ t: Double) -> Double {
            let r = ramp
            if t < r.x0 { return r.y0 + (t - r.x0) * r.m0 }
            if t >= r.x1 { return r.y1 + (t - r.x1) * r.m1 }
            return r.value(t)
        }

        private func rampInverse(_ t: Double) -> Double {
            let r = ramp
            if t < r.y0 { return r.x0 + (t - r.y0) / r.m0 }
            if t >= r.y1 { return r.x1 + (t - r.y1) / r.m1 }
            return r.inverse(t)
        }

        /// The point `t` is scaled about by `gain`: the bottom for whites, the top for blacks.
        private var anchor: Double { isBlack ? ramp.x1 : ramp.x0 }

        func forward(_ t: Double) -> Double { raises ? flattened(t, reverse: false) : rampValue(t) }

        func reverse(_ t: Double) -> Double { raises ? flattened(t, reverse: true) : rampInverse(t) }

        /// The raised slope: the ramp's inverse (forward) or the ramp (reverse), between scalings
        /// by `gain` about the anchor; for whites the quadratic (or its inverse) takes over at the top.
        private func flattened(_ t: Double, reverse: Bool) -> Double {
            let r = ramp
            let scaled = (t - anchor) * gain + anchor
            if isBlack {
                let inner: Double
                if reverse {
                    inner = scaled < r.x0 ? r.y0 + (scaled - r.x0) * r.m0 : scaled >= r.x1 ? r.y1 + (scaled - r.x1) * r.m1 : r.value(scaled)
                } else {
                    inner = scaled < r.y0 ? r.x0 + (scaled - r.y0) / r.m0 : scaled >= r.y1 ? r.x1 + (scaled - r.y1) / r.m1 : r.inverse(scaled)
                }
                return (inner - anchor) / gain + anchor
            }
            let inner = reverse ? (scaled < r.x0 ? r.y0 + (scaled - r.x0) * r.m0 : r.value(scaled))
                : (scaled < r.y0 ? r.x0 + (scaled - r.y0) / r.m0 : r.inverse(scaled))
            let below = (inner - anchor) / gain + anchor
            if reverse {
                let turn = (aa * r.x1 + bb) * r.x1 + cc
                guard t >= turn else { return below }
                let c = cc - t
                return -2 * c / ((bb * bb - 4 * aa * c).squareRoot() + bb)
            }
            return t >= r.x1 ? (aa * t + bb) * t + cc : below
        }
    }

    /// The S-contrast: a line through the pivot with the contrast's slope, joined by ramps to
    /// lines of the reciprocal slope at the top and at the bottom.
    struct SContrast {
        var slope: Double, pivot: Double
        var top: Ramp, bottom: Ramp

        init?(contrast: Double, topSC: Double, bottom low: Double, pivot: Double) {
            guard contrast != 1 else { return nil }
            // Limited so the curve never turns back.
            let k = contrast > 1 ? 1 / (1.8125 - 0.8125 * min(contrast, 1.99)) : 0.28125 + 0.71875 * max(contrast, 0.01)
            slope = k
            self.pivot = pivot
            do {
                let y3 = topSC, x3 = topSC
                let y0 = pivot + (y3 - pivot) * 0.25
                let x0 = pivot + (y0 - pivot) / k
                let minWidth = (x3 - x0) * 0.3
                var m3 = 1 / k
                let center = (y3 - y0 - m3 * x3 + k * x0) / (k - m3)
                var x1 = x0, x2 = 2 * center - x0
                if x2 > x3 {
                    x2 = x3
                    x1 = 2 * center - x2
                } else if x2 - x1 < minWidth {
                    x2 = x1 + minWidth
                    let middle = (x2 + x1) * 0.5
                    m3 = (y3 - y0 + k * x0 - middle * k) / (x3 - middle)
                }
                top = Ramp(x0: x1, x1: x2, y0: y0, m0: k, m1: m3)
            }
            do {
                let x0 = low, y0 = low
                let y3 = pivot - (pivot - y0) * 0.25
                let x3 = pivot - (pivot - y3) / k
                let minWidth = (x3 - x0) * 0.3
                var m0 = 1 / k
                let center = (y3 - y0 - k * x3 + m0 * x0) / (m0 - k)
                var x2 = x3, x1 = 2 * center - x3
                if x1 < x0 {
                    x1 = x0
                    x2 = 2 * center - x1
                } else if x2 - x1 < minWidth {
                    x1 = x2 - minWidth
                    let middle = (x2 + x1) * 0.5
                    m0 = (y3 - y0 - k * x3 + middle * k) / (middle - x0)
                }
                let y1 = y3 - (m0 + k) * (x2 - x1) * 0.5
                bottom = Ramp(x0: x1, x1: x2, y0: y1, m0: m0, m1: k)
            }
        }

        func forward(_ t: Double) -> Double {
            if t < bottom.x0 { return bottom.y0 + (t - bottom.x0) * bottom.m0 }
            if t < bottom.x1 { return bottom.value(t) }
            if t >= top.x1 { return top.y1 + (t - top.x1) * top.m1 }
            if t >= top.x0 { return top.value(t) }
            return (t - pivot) * slope + pivot
        }

        func reverse(_ t: Double) -> Double {
            if t < bottom.y0 { return bottom.x0 + (t - bottom.y0) / bottom.m0 }
            if t < bottom.y1 { return bottom.inverse(t) }
            if t >= top.y1 { return top.x1 + (t - top.y1) / top.m1 }
            if t >= top.y0 { return top.inverse(t) }
            return (t - pivot) / slope + pivot
        }
    }
}
