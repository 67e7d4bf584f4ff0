/// OpenColorIO's fit of the monotonic RGB curves, in Float32 and in its order of operations.
///
/// 1. Slopes: the file's, unless all are zero; otherwise estimated. Two points: both slopes are
///    the secant. More: each inner slope is the mean of its two secants weighted by their
///    lengths, where a run of collinear segments (secants within 1e-6) counts as one segment of
///    their summed length; each end slope is `(3 secant - inner neighbour) / 2`, at least 0.01.
/// 2. Each interval whose end slopes average to its secant (within 1e-6) is one quadratic.
///    Otherwise it is split at a middle knot: the midpoint when both end slopes lie on the same
///    side of the secant, else the point where the line of slopes crosses the secant, measured
///    from the end whose slope is nearer the secant. The slope at the middle knot is whatever
///    makes the two parabolas meet the end point.
/// 3. Where that middle slope comes out negative (a curve that would turn down), both end
///    slopes of the interval are scaled so the middle slope becomes
///    `min(secant, 0.01 x mean end slope)`, and the whole curve is fitted again.
///
/// Surprising but kept: the pass of step 3 walks the knot list pairing each knot that is not
/// the next control point's x with the next interval. An interval fitted as one quadratic has
/// no middle knot, so its end point is taken as the middle knot of the interval before, and
/// the pairing of later intervals shifts by one. OpenColorIO does this; so does colorcube.
extension GradingBSpline {
    /// Knots and coefficients of the RGB fit of `points` (at least 2, x not decreasing).
    static func fitRGB(_ points: [GradingCurve.Point], slopes given: [Float], estimating: Bool)
        -> (knots: [Float], a: [Float], b: [Float], c: [Float]) {
        var slopes = estimating ? estimateRGBSlopes(points) : given
        let fit = fitPieces(points, slopes)
        guard adjustRGBSlopes(points, &slopes, knots: fit.knots) else { return fit }
        return fitPieces(points, slopes)
    }

    /// The slopes OpenColorIO estimates for an RGB curve.
    static func estimateRGBSlopes(_ points: [GradingCurve.Point]) -> [Float] {
        let n = points.count
        var secants: [Float] = [], lengths: [Float] = []
        for i in 0..<(n - 1) {
            let dx = points[i + 1].x - points[i].x, dy = points[i + 1].y - points[i].y
            secants.append(dy / dx)
            lengths.append((dx * dx + dy * dy).squareRoot())
        }
        if n == 2 { return [secants[0], secants[0]] }
        // Collinear runs share their summed length.
        var i = 0
        while true {
            var j = i
            var run = lengths[i]
            while j < n - 2, abs(secants[j + 1] - secants[j]) < 1e-6 {
                run += lengths[j + 1]
                j += 1
            }
            for k in i...j { lengths[k] = run }
            if j >= n - 3 { break }
            i = j + 1
        }
        var slopes: [Float] = [0]
        for k in 1..<(n - 1) {
            slopes.append((lengths[k] * secants[k] + lengths[k - 1] * secants[k - 1]) / (lengths[k] + lengths[k - 1]))
        }
        slopes.append(max(0.01, 0.5 * (3 * secants[n - 2] - slopes[n - 2])))
        slopes[0] = max(0.01, 0.5 * (3 * secants[0] - slopes[1]))
        return slopes
    }

    /// Step 2: the pieces through `points` with `slopes`; `hue` takes the hue curves' test
    /// for one quadratic (within 1e-5) and their middle knot (`middleKnot`).
    static func fitPieces(_ points: [GradingCurve.Point], _ slopes: [Float], hue: Bool = false)
        -> (knots: [Float], a: [Float], b: [Float], c: [Float]) {
        var knots: [Float] = [points[0].x], a: [Float] = [], b: [Float] = [], c: [Float] = []
        for i in 0..<(points.count - 1) {
            let x0 = points[i].x, x1 = points[i + 1].x, y0 = points[i].y, y1 = points[i + 1].y
            let s0 = slopes[i], s1 = slopes[i + 1]
            let dx = x1 - x0
            let secant = (y1 - y0) / dx
            let mismatch = abs((s0 + s1) - 2 * secant)
            if hue ? mismatch <= 1e-5 : mismatch < 1e-6 {
                c.append(y0)
                b.append(s0)
                a.append(0.5 * (s1 - s0) / dx)
            } else {
                let below = s0 - secant, above = s1 - secant
                let middle: Float
                if hue {
                    middle = middleKnot(x0: x0, x1: x1, secant: secant, s0: s0, s1: s1)
                } else if below * above >= 0 {
                    middle = (x0 + x1) * 0.5
                } else if abs(below) > abs(above) {
                    middle = x1 + below * dx / (s1 - s0)
                } else {
                    middle = x0 + above * dx / (s1 - s0)
                }
                let middleSlope = (2 * secant - s1) + (s1 - s0) * (middle - x0) / dx
                let eta = (middleSlope - s0) / (middle - x0)
                c.append(y0)
                b.append(s0)
                a.append(0.5 * eta)
                c.append(y0 + s0 * (middle - x0) + 0.5 * eta * (middle - x0) * (middle - x0))
                b.append(middleSlope)
                a.append(0.5 * (s1 - middleSlope) / (x1 - middle))
                knots.append(middle)
            }
            knots.append(x1)
        }
        return (knots, a, b, c)
    }

    /// Step 3: scales the slopes of intervals whose middle slope would be negative, pairing
    /// knots with intervals as OpenColorIO does (see the type's notes). True when any changed.
    static func adjustRGBSlopes(_ points: [GradingCurve.Point], _ slopes: inout [Float], knots: [Float]) -> Bool {
        var adjusted = false
        var i = 0
        for knot in knots where points[i].x != knot {
            // OpenColorIO's walk can pair past the last interval; it stops there.
            guard i + 1 < points.count else { break }
            let x0 = points[i].x, x1 = points[i + 1].x, y0 = points[i].y, y1 = points[i + 1].y
            let middleSlope = (2 * (y1 - y0) - (knot - x0) * slopes[i] - (x1 - knot) * slopes[i + 1]) / (x1 - x0)
            if middleSlope < 0 {
                adjusted = true
                let secant = (y1 - y0) / (x1 - x0)
                let blend = ((knot - x0) * slopes[i] + (x1 - knot) * slopes[i + 1]) / (x1 - x0)
                let aim = min(0.01 * 0.5 * (slopes[i] + slopes[i + 1]), secant)
                let scale = (2 * secant - aim) / blend
                slopes[i] *= scale
                slopes[i + 1] *= scale
            }
            i += 1
        }
        return adjusted
    }
}
