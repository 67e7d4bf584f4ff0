extension ExponentOp {
    /// The Float32 form (see `TransformOp`): each style's formula with its constants rounded to
    /// Float, powers through `Float32Math.pow` (within about 3e-7 relative where `g log2 x` is near
    /// 10). Zero, negative and NaN inputs take the same branches as in Float64.
    public func apply(red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
                      blue: UnsafeMutablePointer<Float>, count: Int) {
        for (index, plane) in [red, green, blue].enumerated() {
            let g = Float(style.isReverse ? 1 / exponent[index] : exponent[index])
            switch style {
            case .basicFwd, .basicRev:
                for i in 0..<count {
                    let x = plane[i]
                    plane[i] = Float32Math.pow(x > 0 ? x : 0, g)
                }
            case .basicMirrorFwd, .basicMirrorRev:
                for i in 0..<count {
                    let x = plane[i], magnitude = Float32Math.pow(abs(x), g)
                    plane[i] = x.sign == .minus ? -magnitude : magnitude
                }
            case .basicPassThruFwd, .basicPassThruRev:
                for i in 0..<count {
                    let x = plane[i]
                    plane[i] = x > 0 ? Float32Math.pow(x, g) : x
                }
            case .monCurveFwd, .monCurveRev, .monCurveMirrorFwd, .monCurveMirrorRev:
                let curve = Float32MonCurve(monCurves[index])
                let mirrored = style == .monCurveMirrorFwd || style == .monCurveMirrorRev
                let forward = !style.isReverse
                for i in 0..<count {
                    let x = plane[i], input = mirrored ? abs(x) : x
                    let magnitude = forward ? curve.forward(input) : curve.reverse(input)
                    plane[i] = mirrored && x.sign == .minus ? -magnitude : magnitude
                }
            }
        }
    }

    /// `MonCurve`'s constants rounded to Float.
    private struct Float32MonCurve {
        let g, o, forwardBreak, forwardSlope, reverseBreak, reverseSlope: Float

        init(_ curve: MonCurve) {
            g = Float(curve.g)
            o = Float(curve.o)
            forwardBreak = Float(curve.forwardBreak)
            forwardSlope = Float(curve.forwardSlope)
            reverseBreak = Float(curve.reverseBreak)
            reverseSlope = Float(curve.reverseSlope)
        }

        @inline(__always)
        func forward(_ x: Float) -> Float {
            x > forwardBreak || x.isNaN ? Float32Math.pow((x + o) / (1 + o), g) : x * forwardSlope
        }

        @inline(__always)
        func reverse(_ y: Float) -> Float {
            y > reverseBreak || y.isNaN ? (1 + o) * Float32Math.pow(y, 1 / g) - o : y * reverseSlope
        }
    }
}
