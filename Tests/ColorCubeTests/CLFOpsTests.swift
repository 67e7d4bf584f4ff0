import ColorCubeTransform
import Foundation
import Testing

/// The operations CLF and ASC CDL add: formulas at known points, continuity at the breaks, and
/// inverses that undo them.
@Suite struct CLFOpsTests {
    static let samples: [SIMD3<Double>] = [SIMD3(0.01, 0.18, 0.5), SIMD3(0.3, 0.7, 0.95), SIMD3(0.002, 0.04, 0.9), SIMD3(1, 0.6, 0.25)]

    static func largestRoundTripError(_ operation: any TransformOp, over inputs: [SIMD3<Double>] = samples) throws -> Double {
        let inverse = Transform(try operation.inverse())
        var largest = 0.0
        for rgb in inputs {
            let delta = inverse.apply(operation.apply(rgb)) - rgb
            largest = max(largest, abs(delta.x), abs(delta.y), abs(delta.z))
        }
        return largest
    }

    @Test(arguments: CDLOp.Style.allCases)
    func cdlStylesInvert(style: CDLOp.Style) throws {
        let cdl = try CDLOp(slope: SIMD3(1.1, 0.9, 1), offset: SIMD3(0.01, -0.02, 0), power: SIMD3(1.2, 0.8, 1), saturation: 0.9, style: style)
        // Stay where the clamping styles clamp nothing.
        let inputs = [SIMD3(0.2, 0.4, 0.6), SIMD3(0.5, 0.5, 0.5), SIMD3(0.3, 0.6, 0.2)]
        #expect(try Self.largestRoundTripError(cdl, over: inputs) < 1e-12)
    }

    @Test func cdlClampsOnlyInTheClampingStyles() throws {
        let clamped = try CDLOp(slope: SIMD3(repeating: 2), style: .fwd)
        let open = try CDLOp(slope: SIMD3(repeating: 2), style: .fwdNoClamp)
        #expect(clamped.apply(SIMD3(0.8, -0.1, .nan)) == SIMD3(1, 0, 0))
        #expect(open.apply(SIMD3(0.8, -0.1, 0.25)) == SIMD3(1.6, -0.2, 0.5))
        #expect(open.isPerChannel && !clamped.isIdentity)
        #expect(try CDLOp(style: .fwdNoClamp).isIdentity)
        #expect(throws: TransformError.self) { try CDLOp(slope: SIMD3(0, 1, 1)).inverse() }
        #expect(throws: TransformError.self) { try CDLOp(power: SIMD3(1, 0, 1)) }
    }

    @Test(arguments: LogOp.Style.allCases)
    func logStylesInvert(style: LogOp.Style) throws {
        let parameters = [LogOp.Parameters(logSideSlope: 0.2, logSideOffset: 0.6, linSideSlope: 4, linSideOffset: 0.05, linSideBreak: 0.02),
                          LogOp.Parameters(logSideSlope: 0.25, logSideOffset: 0.5, linSideSlope: 3, linSideOffset: 0.1, linSideBreak: 0.01),
                          LogOp.Parameters(logSideSlope: 0.3, logSideOffset: 0.4, linSideSlope: 5, linSideOffset: 0.02, linSideBreak: 0.03)]
        let log = try LogOp(style: style, base: 2, parameters: parameters)
        #expect(try Self.largestRoundTripError(log) < 1e-12)
    }

    @Test func logFormulasAtKnownPoints() throws {
        #expect(try LogOp(style: .log10).apply(SIMD3(100, 1, 0.001)) == SIMD3(2, 0, -3))
        #expect(try LogOp(style: .antiLog2).apply(SIMD3(3, 0, -1)) == SIMD3(8, 1, 0.5))
        #expect(try LogOp(style: .log2).apply(SIMD3(repeating: 0)).x == -126)  // clamped to Float's smallest normal
        let p = LogOp.Parameters(logSideSlope: 0.5, logSideOffset: 0.1, linSideSlope: 2, linSideOffset: 0.01, linSideBreak: 0.05)
        let camera = try LogOp(style: .cameraLinToLog, base: 10, parameters: [p, p, p])
        // Continuous at the break, and a straight line below it.
        let below = camera.apply(SIMD3(repeating: 0.05 - 1e-9)).x, at = camera.apply(SIMD3(repeating: 0.05)).x
        #expect(abs(below - at) < 1e-8)
        let line = camera.apply(SIMD3(0, 0.01, 0.02))
        #expect(abs((line.z - line.y) - (line.y - line.x)) < 1e-15)
    }

    @Test(arguments: ExponentOp.Style.allCases)
    func exponentStylesInvert(style: ExponentOp.Style) throws {
        let exponent = try ExponentOp(style: style, exponent: SIMD3(2.4, 2.2, 1.8), offset: SIMD3(0.055, 0.099, 0.1))
        #expect(try Self.largestRoundTripError(exponent) < 1e-12)
    }

    @Test func monCurveIsTheSRGBCurve() throws {
        let srgb = try ExponentOp(style: .monCurveRev, exponent: SIMD3(repeating: 2.4), offset: SIMD3(repeating: 0.055))
        for x in [0.0, 0.001, 0.0031308, 0.01, 0.18, 0.5, 1] {
            let encoded = x <= 0.0031308 ? 12.92 * x : 1.055 * Foundation.pow(x, 1 / 2.4) - 0.055
            // The sRGB constants are rounded; the curve they approximate is within 1e-4 of them.
            #expect(abs(srgb.apply(SIMD3(repeating: x)).x - encoded) < 1e-4, "input \(x)")
        }
        let mirror = try ExponentOp(style: .basicMirrorFwd, exponent: SIMD3(repeating: 2))
        #expect(mirror.apply(SIMD3(-0.5, 0.5, 0)) == SIMD3(-0.25, 0.25, 0))
        #expect(try ExponentOp(style: .basicFwd, exponent: SIMD3(repeating: 2)).apply(SIMD3(-0.5, .nan, 3)) == SIMD3(0, 0, 9))
        #expect(throws: TransformError.self) { try ExponentOp(style: .monCurveFwd, exponent: SIMD3(repeating: 0.9)) }
        #expect(throws: TransformError.self) { try ExponentOp(style: .basicFwd, exponent: SIMD3(repeating: 0)) }
    }
}
