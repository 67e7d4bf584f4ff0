import Foundation

extension LogOp {
    /// The Float32 form (see `TransformOp`): each style's formula with its constants rounded to
    /// Float once per call, logarithms and powers through `Float32Math`, so a plane's loop
    /// vectorises. `linToLog` is `k / log2(base) * log2(max(m x + b, m_min)) + kb` and `logToLin`
    /// is `(2^((x - kb) * log2(base) / k) - b) / m`; the camera styles' lines and breaks are the
    /// Float64 form's, rounded. Against the Float64 form: a logarithm within about 2e-7 of its
    /// value times `k / log2(base)` (absolute), an exponential within about 1e-6 relative where
    /// `(x - kb) * log2(base) / k` is near 16 and 6.6e-6 where it nears 128 (the rounding of that
    /// argument dominates).
    public func apply(red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
                      blue: UnsafeMutablePointer<Float>, count: Int) {
        let log2Base = lnBase / Foundation.log(2.0)
        let smallest = Float.leastNormalMagnitude
        for (index, plane) in [red, green, blue].enumerated() {
            let p = parameters[index]
            switch style {
            case .log10, .log2:
                let scale = Float(1 / log2Base)
                for i in 0..<count {
                    let x = plane[i]
                    plane[i] = Float32Math.log2(x > smallest ? x : smallest) * scale
                }
            case .antiLog10, .antiLog2:
                let scale = Float(log2Base)
                for i in 0..<count { plane[i] = Float32Math.exp2(plane[i] * scale) }
            case .linToLog, .cameraLinToLog:
                let slope = Float(p.logSideSlope / log2Base), logOffset = Float(p.logSideOffset)
                let m = Float(p.linSideSlope), b = Float(p.linSideOffset)
                if style == .linToLog {
                    for i in 0..<count {
                        let v = m * plane[i] + b
                        plane[i] = slope * Float32Math.log2(v > smallest ? v : smallest) + logOffset
                    }
                } else {
                    let linBreak = Float(p.linSideBreak ?? 0)
                    let lineSlope = Float(camera[index].slope), lineOffset = Float(camera[index].offset)
                    for i in 0..<count {
                        let x = plane[i], v = m * x + b
                        let logValue = slope * Float32Math.log2(v > smallest ? v : smallest) + logOffset
                        plane[i] = x < linBreak ? lineSlope * x + lineOffset : logValue
                    }
                }
            case .logToLin, .cameraLogToLin:
                let scale = Float(log2Base / p.logSideSlope), logOffset = Float(p.logSideOffset)
                let m = Float(p.linSideSlope), b = Float(p.linSideOffset)
                if style == .logToLin {
                    for i in 0..<count { plane[i] = (Float32Math.exp2((plane[i] - logOffset) * scale) - b) / m }
                } else {
                    let logBreak = Float(camera[index].logBreak)
                    let lineSlope = Float(camera[index].slope), lineOffset = Float(camera[index].offset)
                    for i in 0..<count {
                        let x = plane[i]
                        let linear = (Float32Math.exp2((x - logOffset) * scale) - b) / m
                        plane[i] = x < logBreak ? (x - lineOffset) / lineSlope : linear
                    }
                }
            }
        }
    }
}
