import ColorCubeCore
import ColorCubeEngine
import ColorCubeTransform
import Foundation
import Testing

/// The operations' Float32 forms, which pictures of floats run through, against their Float64
/// forms (the reference), and `Float32Math` against Float64's logarithm and exponential.
@Suite struct Float32FormsTests {
    // MARK: Float32Math

    /// Every 257th positive Float bit pattern (subnormals to the largest), and the edge cases.
    @Test func log2IsWithinItsBoundOverTheWholeRange() {
        var worst = 0.0, worstAt: Float = 0
        var bits: UInt32 = 1
        while bits < 0x7f80_0000 {
            let x = Float(bitPattern: bits)
            let exact = Foundation.log2(Double(x))
            let ours = Double(Float32Math.log2(x))
            // Error beyond half an ulp of the result, in absolute terms.
            let excess = abs(ours - exact) - Double(Float(exact).ulp) / 2
            if excess > worst { (worst, worstAt) = (excess, x) }
            bits &+= 257
        }
        print("log2: largest error beyond half an ulp \(worst) at \(worstAt)")
        #expect(worst <= 1.3e-7, "\(worst) at \(worstAt)")
        #expect(Float32Math.log2(0) == -.infinity && Float32Math.log2(-0.0) == -.infinity)
        #expect(Float32Math.log2(-1).isNaN && Float32Math.log2(.nan).isNaN && Float32Math.log2(-.infinity).isNaN)
        #expect(Float32Math.log2(.infinity) == .infinity)
        #expect(Float32Math.log2(1) == 0 && Float32Math.log2(1024) == 10 && Float32Math.log2(0x1p-149) == -149)
    }

    /// Steps of 1/512 from -160 to 130, in ulps of the exact value rounded to Float (subnormal
    /// results in ulps of the smallest normal number's spacing).
    @Test func exp2IsWithin3UlpsOverTheWholeRange() {
        var worst = 0.0, worstAt: Float = 0
        for step in -160 * 512...130 * 512 {
            let x = Float(step) / 512
            let exact = Foundation.exp2(Double(x))
            let ours = Double(Float32Math.exp2(x))
            if exact >= Double(Float.greatestFiniteMagnitude) {
                #expect(ours == .infinity || ours >= 0x1.fffffcp127, "\(x)")
                continue
            }
            let ulp = Double(max(Float(exact).ulp, Float.leastNonzeroMagnitude))
            let error = abs(ours - exact) / ulp
            if error > worst { (worst, worstAt) = (error, x) }
        }
        print("exp2: largest error \(worst) ulps at \(worstAt)")
        #expect(worst <= 3, "\(worst) ulps at \(worstAt)")
        #expect(Float32Math.exp2(0) == 1 && Float32Math.exp2(10) == 1024 && Float32Math.exp2(-149) == 0x1p-149)
        #expect(Float32Math.exp2(.infinity) == .infinity && Float32Math.exp2(-.infinity) == 0 && Float32Math.exp2(200) == .infinity)
        #expect(Float32Math.exp2(.nan).isNaN)
    }

    // MARK: The operations

    /// Inputs around where looks live and far outside: negatives, 0, small values, 0...1 in fine
    /// steps, highlights to 65504, infinities and NaN.
    static let inputs: [Float] = {
        var values: [Float] = [0, -0.0, .infinity, -.infinity, .nan, 65504, -65504, 1e-30, -1e-30, 1e-8]
        values += (0...2000).map { -0.25 + Float($0) / 1000 }
        values += (0...400).map { Float(Foundation.exp2(Double($0) / 20 - 10)) }
        return values
    }()

    /// The Float32 form against the Float64 form on every input (as red, green and blue, each
    /// plane shifted so that the three differ): NaN where Float64 gives NaN, infinities where it
    /// gives them; else the largest difference relative to the pixel's values (the result's and
    /// the inputs', at least 1), since a matrix or a saturation may cancel large values.
    static func worstError(_ operation: any TransformOp) -> Double {
        let count = inputs.count
        var red = inputs, green = Array(inputs[1...] + inputs[..<1]), blue = Array(inputs[7...] + inputs[..<7])
        let scales = (0..<count).map { i in
            [red[i], green[i], blue[i]].filter(\.isFinite).map { Double(abs($0)) }.max() ?? 1
        }
        var r64 = red.map(Double.init), g64 = green.map(Double.init), b64 = blue.map(Double.init)
        operation.apply(red: &r64, green: &g64, blue: &b64, count: count)
        operation.apply(red: &red, green: &green, blue: &blue, count: count)
        var worst = 0.0
        for (index, (ours, theirs)) in zip(red + green + blue, r64 + g64 + b64).enumerated() {
            let reference = Double(Float(theirs))
            if reference.isNaN || !reference.isFinite {
                #expect(Double(ours).isNaN == reference.isNaN && (reference.isNaN || Double(ours) == reference),
                        "\(operation): \(ours) where Float64 gives \(reference)")
                continue
            }
            worst = max(worst, abs(Double(ours) - reference) / max(1, abs(reference), scales[index % count]))
        }
        return worst
    }

    @Test func logsAgreeWithFloat64() throws {
        let acescct = LogOp.Parameters(logSideSlope: 1 / 17.52, logSideOffset: 9.72 / 17.52, linSideBreak: 0.0078125)
        let logC = LogOp.Parameters(logSideSlope: 0.247190, logSideOffset: 0.385537, linSideSlope: 5.555556,
                                    linSideOffset: 0.052272, linSideBreak: 0.010591, linearSlope: 5.367655)
        let cineon = LogOp.Parameters(logSideSlope: 0.293255, logSideOffset: 0.669599, linSideSlope: 0.989, linSideOffset: 0.011)
        var operations: [LogOp] = []
        for style in LogOp.Style.allCases where !style.isCamera {
            operations.append(try LogOp(style: style, base: 10, parameters: [cineon, cineon, cineon]))
        }
        for style in [LogOp.Style.cameraLinToLog, .cameraLogToLin] {
            operations.append(try LogOp(style: style, base: 2, parameters: Array(repeating: acescct, count: 3)))
            operations.append(try LogOp(style: style, base: 10, parameters: Array(repeating: logC, count: 3)))
        }
        for operation in operations {
            let worst = Self.worstError(operation)
            print("\(operation.style): \(worst)")
            // An exponential's relative error is about ln 2 times the rounding of its argument,
            // which reaches 128 before the result overflows: 1e-5 there.
            #expect(worst <= 1e-5, "\(operation): \(worst)")
        }
    }

    @Test func exponentsAgreeWithFloat64() throws {
        for style in ExponentOp.Style.allCases {
            let exponent = style.isMonCurve ? SIMD3(2.4, 2.2, 1.8) : SIMD3(2.2, 0.45, 2.6)
            let operation = try ExponentOp(style: style, exponent: exponent, offset: SIMD3(0.055, 0.099, 0.1))
            let worst = Self.worstError(operation)
            print("\(style): \(worst)")
            #expect(worst <= 1e-5, "\(operation): \(worst)")
        }
    }

    @Test func cdlsMatricesAndRangesAgreeWithFloat64() throws {
        var operations: [any TransformOp] = []
        for style in CDLOp.Style.allCases {
            operations.append(try CDLOp(slope: SIMD3(1.2, 0.9, 1), offset: SIMD3(-0.02, 0.01, 0), power: SIMD3(1.1, 0.8, 1),
                                        saturation: 1.3, style: style))
            operations.append(try CDLOp(slope: SIMD3(1.1, 1, 0.95), power: SIMD3(0.9, 1, 1.25), style: style))
        }
        operations.append(try MatrixOp(rows: [SIMD3(1.705051, -0.621792, -0.083259), SIMD3(-0.130256, 1.140805, -0.010548),
                                              SIMD3(-0.024003, -0.128969, 1.152972)], offset: SIMD3(0.01, 0, -0.02)))
        operations.append(try RangeOp(from: 0.0625, 0.9, to: 0, 1))
        operations.append(try RangeOp(scale: 2, offset: 0.5))
        for operation in operations {
            let worst = Self.worstError(operation)
            print("\(operation): \(worst)")
            #expect(worst <= 1e-5, "\(operation): \(worst)")
        }
    }

    /// Operations without a Float32 form of their own run the Float64 form and round: identical.
    @Test func aCurveKeepsTheFloat64Values() throws {
        let curve = try LUT1DOp(entries: (0..<17).map { SIMD3(repeating: pow(Double($0) / 16, 1 / 2.4)) })
        #expect(Self.worstError(curve) == 0)
    }

    /// A hue-keeping table moves the middle channel in Float32, as OpenColorIO does: within
    /// Float32 rounding of the Float64 form.
    @Test func aHueKeepingTableAgreesWithFloat64() throws {
        let table = try LUT1DOp(entries: (0..<17).map { index in
            let x = Double(index) / 16
            return SIMD3(pow(x, 1 / 2.4), x * x, 0.1 + 0.8 * x)
        })
        let worst = Self.worstError(try HueKeepingOp(table))
        #expect(worst <= 1e-5, "\(worst)")
    }

    /// Pictures of floats through a chain run as steps: the engine against the transform's own
    /// Float64 evaluation, colour by colour, with the lattice the only part not in the reference
    /// (an affine cube, which trilinear interpolation reproduces to Float rounding; not the
    /// identity, which the optimiser drops with its clamp).
    @Test func floatsThroughAChainAgreeWithTheFloat64Transform() throws {
        let acescct = LogOp.Parameters(logSideSlope: 1 / 17.52, logSideOffset: 9.72 / 17.52, linSideBreak: 0.0078125)
        let toAP1 = try MatrixOp(rows: [SIMD3(0.613097, 0.339523, 0.047379), SIMD3(0.070194, 0.916354, 0.013452),
                                        SIMD3(0.020616, 0.10957, 0.869815)])
        let encode = try LogOp(style: .cameraLinToLog, base: 2, parameters: Array(repeating: acescct, count: 3))
        let grade = try CDLOp(slope: SIMD3(1.05, 1, 0.97), power: SIMD3(1.1, 1, 0.95), saturation: 1.2, style: .fwdNoClamp)
        let chain: [any TransformOp] = [toAP1, encode, grade, LUT3DOp(table: try ColorCube(size: 33) { $0 * 0.9 + 0.05 })]
        let transform = Transform(chain + (try encode.inverse()) + (try toAP1.inverse()))
        let engine = try LUTEngine(transform: transform)
        let levels: [Float] = [-0.01, 0, 0.001, 0.01, 0.05, 0.18, 0.5, 1, 2, 8, 40]
        var pixels: [Float] = levels.flatMap { r in levels.flatMap { g in levels.flatMap { b in [r, g, b] } } }
        let count = pixels.count / 3
        let inputs = pixels
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            engine.apply(floats: base, to: base, pixelCount: count, layout: .rgb, parallel: false)
        }
        var worst = 0.0
        for pixel in 0..<count {
            let input = SIMD3((0..<3).map { Double(inputs[pixel * 3 + $0]) })
            let reference = transform.apply(input)
            for channel in 0..<3 {
                let ours = Double(pixels[pixel * 3 + channel])
                worst = max(worst, abs(ours - reference[channel]) / max(1, abs(reference[channel])))
            }
        }
        print("chain: largest difference \(worst)")
        #expect(worst <= 1e-4, "largest difference \(worst)")
    }
}
