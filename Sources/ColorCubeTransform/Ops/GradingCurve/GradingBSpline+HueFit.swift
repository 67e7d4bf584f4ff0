/// OpenColorIO's fit of the hue curves' splines, in Float32 and in its order of operations.
///
/// 1. The points are prepared: on a periodic curve, x below 0 or at 1 and above wraps by one
///    period (y moves with it on hue-hue, whose identity is the diagonal); the points are sorted
///    by x; each x is moved to at least 0.2% of the x span past the one before (and each y the
///    same on the diagonal kinds, hue-hue included), so no interval is empty. A periodic curve
///    then takes its last point, wrapped down a period, as a new first point and its (old) first
///    point, wrapped up, as a new last point, so the spline runs past both ends of 0...1.
/// 2. Slopes: the file's, unless all are zero (on a periodic curve both added ends take the
///    file's last slope, as OpenColorIO's copy does); otherwise estimated. Horizontal kinds and
///    hue-hue take the harmonic mean of the two secants inside (0 at a peak or a flat, and the
///    denominator kept to at least 1e-3 in size), the diagonal kinds the RGB curves'
///    length-weighted mean; ends are `(3 secant - inner neighbour) / 2` (at least 0.01 on the
///    diagonal kinds). Slopes that would overshoot are scaled down per interval, and a periodic
///    curve copies each end slope from the point one period away.
/// 3. Each interval whose end slopes average to its secant (within 1e-5) is one quadratic;
///    otherwise it is split at a middle knot chosen from how far apart the end slopes are and
///    how steep the secant is (`middleKnot`), unlike the RGB fit's crossing point.
extension GradingBSpline {
    /// Knots and coefficients of the hue-curve fit of `curve` (validated, not an identity).
    static func fitHue(_ curve: GradingCurve) -> (knots: [Float], a: [Float], b: [Float], c: [Float]) {
        let periodic = curve.kind.isPeriodic
        let points = prepareHuePoints(curve.points, periodic: periodic, horizontal: !curve.kind.isDiagonal)
        var slopes: [Float]
        if curve.estimatesSlopes {
            // Hue-hue's slopes are estimated as a horizontal curve's.
            slopes = estimateHueSlopes(points, periodic: periodic, horizontal: !curve.kind.isDiagonal || curve.kind == .hueHue)
        } else {
            slopes = curve.slopes
            if periodic, let last = slopes.last {
                slopes.insert(last, at: 0)
                slopes.append(last)
            }
        }
        return fitPieces(points, slopes, hue: true)
    }

    /// Step 1. `horizontal` keeps y as it is when x wraps; otherwise y wraps too and is spaced.
    static func prepareHuePoints(_ given: [GradingCurve.Point], periodic: Bool, horizontal: Bool) -> [GradingCurve.Point] {
        var points = given.map { point -> GradingCurve.Point in
            if periodic, point.x < 0 { return GradingCurve.Point(point.x + 1, horizontal ? point.y : point.y + 1) }
            if periodic, point.x >= 1 { return GradingCurve.Point(point.x - 1, horizontal ? point.y : point.y - 1) }
            return point
        }
        // OpenColorIO's selection sort: the first of equal x values is taken first.
        for i in points.indices {
            var smallest = i
            for j in (i + 1)..<points.count where points[j].x < points[smallest].x { smallest = j }
            points.swapAt(i, smallest)
        }
        let n = points.count
        let spacing: Float = 2e-3
        let spanX = points[n - 1].x - points[0].x
        for i in 1..<n where points[i].x - points[i - 1].x < spanX * spacing {
            points[i].x = points[i - 1].x + spanX * spacing
        }
        if !horizontal {
            let spanY = points[n - 1].y - points[0].y
            for i in 1..<n where points[i].y - points[i - 1].y < spanY * spacing {
                points[i].y = points[i - 1].y + spanY * spacing
            }
        }
        if periodic {
            let last = points[n - 1], first = points[0]
            points.insert(GradingCurve.Point(last.x - 1, horizontal ? last.y : last.y - 1), at: 0)
            points.append(GradingCurve.Point(first.x + 1, horizontal ? first.y : first.y + 1))
        }
        return points
    }

    /// Step 2, estimated slopes.
    static func estimateHueSlopes(_ points: [GradingCurve.Point], periodic: Bool, horizontal: Bool) -> [Float] {
        let n = points.count
        let secants = (0..<(n - 1)).map { (points[$0 + 1].y - points[$0].y) / (points[$0 + 1].x - points[$0].x) }
        if n == 2 { return [secants[0], secants[0]] }
        var slopes: [Float] = [0]
        if horizontal {
            for i in 1..<(n - 1) {
                let sum = secants[i] + secants[i - 1]
                let denominator = abs(sum) < 1e-3 ? (sum < 0 ? -1e-3 : 1e-3) : sum
                let slope = 2 * secants[i] * secants[i - 1] / denominator
                slopes.append(secants[i] * secants[i - 1] <= 0 ? 0 : slope)
            }
            slopes.append(0.5 * (3 * secants[n - 2] - slopes[n - 2]))
            slopes[0] = 0.5 * (3 * secants[0] - slopes[1])
        } else {
            // The diagonal kinds estimate as the RGB curves do.
            slopes = estimateRGBSlopes(points)
        }
        // Scale down slope pairs that would overshoot their interval.
        for i in 0..<(n - 1) {
            let k: Float = abs(slopes[i]) > abs(slopes[i + 1]) ? 1 - 0.2 : 0.2
            let nearMinimum = slopes[i] + k * (slopes[i + 1] - slopes[i])
            let scale = nearMinimum != 0 ? 0.75 * 2 * secants[i] / nearMinimum : 1
            if scale < 1 {
                slopes[i] = scale * slopes[i]
                slopes[i + 1] = scale * slopes[i + 1]
            }
        }
        if periodic {
            slopes[0] = slopes[n - 2]
            slopes[n - 1] = slopes[1]
        }
        return slopes
    }

    /// The middle knot of a hue interval: inside the middle 60% of it, towards the end with
    /// the steeper slope by as much as the two slopes differ, and back to the midpoint as the
    /// secant grows steeper than 1.1 times the larger slope (all the way at 4 times).
    static func middleKnot(x0: Float, x1: Float, secant given: Float, s0 given0: Float, s1 given1: Float) -> Float {
        let k: Float = 0.2
        let dx = x1 - x0
        var secant = given, s0 = given0, s1 = given1
        if secant < 0 {
            s0 = -given0
            s1 = -given1
            secant = -secant
        }
        let middle = x0 + 0.5 * dx
        let left = x0 + dx * k, right = x1 - dx * k
        var top = left, bottom = right, low = s0, high = s1
        if s0 > s1 {
            high = s0
            low = s1
            top = right
            bottom = left
        }
        let spread = high - low
        let b = 1 - 0.5 * k
        let bHigh = low + b * spread, bLow = low + (1 - b) * spread
        let steepest = high * 4, steep = high * 1.1
        let relative = spread / max(0.01, high)
        let alpha = max(0, min((relative - 0.05) / (0.75 - 0.05), 1))
        top = middle + alpha * (top - middle)
        bottom = middle + alpha * (bottom - middle)
        if secant >= steepest { return middle }
        if secant > steep { return top + (secant - steep) / (steepest - steep) * (middle - top) }
        if secant >= bHigh { return top }
        if secant > bLow, bHigh != bLow { return bottom + (secant - bLow) / (bHigh - bLow) * (top - bottom) }
        return bottom
    }
}
