import ColorCubeTransform
import Foundation

/// An HDR clip's pixels to their SDR rendition and back (`HDRRendition`), in Float with the curves
/// read from tables, for `YCbCrFrameGrader`.
///
/// - `keep`: a pixel's rendition is divided by its headroom (its brightest channel above reference
///   white, 1 below), so the look sees the colour at reference white with the same hue and
///   saturation; the look's result is multiplied back by the headroom and encoded in the clip's
///   own signal. Up to reference white this is the look applied to the SDR rendition; above it
///   the highlight keeps its light and takes the look's change at reference white.
/// - `toSDR`: the rendition brought inside BT.709 (`HDRRendition.gamutMapped`), its highlights
///   rolled off (`HighlightRollOff`), encoded for SDR; the look's result is the output.
///
/// The curves are tables of 4,097 entries (65,537 for the signal's decoding, which is steep near
/// its peak) read with linear interpolation, each indexed where it is smooth: within 0.001 of a
/// 10-bit code of the formulas (PQ, HLG) and 0.01 of a 16-bit code (gamma 2.4) over their domains.
struct HDRFrameMapping: Sendable {
    enum Mode: Sendable, Equatable {
        case keep
        case toSDR(HighlightRollOff)
    }

    let mode: Mode
    let rendition: HDRRendition
    /// The roll-off when the output is SDR.
    let rollOff: HighlightRollOff?
    let isHLG: Bool
    /// Signal codes to the signal's own light: display light (1.0 = 100 cd/m²) for PQ, scene
    /// light for HLG (whose OOTF follows).
    let decode: CurveTable
    private let encode: CurveTable
    let sdrEncode: CurveTable
    private let sdrDecode: CurveTable
    /// The rendition matrix's rows, and its inverse's.
    let toRendition: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
    private let fromRendition: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    init(rendition: HDRRendition, mode: Mode) {
        self.rendition = rendition
        self.mode = mode
        if case .toSDR(let curve) = mode { rollOff = curve } else { rollOff = nil }
        isHLG = rendition.signal == .hlg
        switch rendition.signal {
        case .pq:
            decode = CurveTable(count: 65536, domain: 1, index: .linear) { TransferFunctionOp(.pq, .decode).apply(SIMD3(repeating: $0)).x }
            encode = CurveTable(count: 4096, domain: 100, index: .fourthRoot) { TransferFunctionOp(.pq, .encode).apply(SIMD3(repeating: $0)).x }
        case .hlg:
            decode = CurveTable(count: 65536, domain: 1, index: .linear) { TransferFunctionOp(.hlg, .decode).apply(SIMD3(repeating: $0)).x }
            encode = CurveTable(count: 4096, domain: 1, index: .squareRoot) { TransferFunctionOp(.hlg, .encode).apply(SIMD3(repeating: $0)).x }
        }
        sdrEncode = CurveTable(count: 4096, domain: 1, index: .fourthRoot) { HDRRendition.sdrCode(linear: $0) }
        sdrDecode = CurveTable(count: 4096, domain: 1, index: .linear) { HDRRendition.sdrLinear(code: $0) }
        let rows = rendition.renditionMatrix, inverse = rendition.inverseRenditionMatrix
        toRendition = (SIMD3<Float>(rows[0]), SIMD3<Float>(rows[1]), SIMD3<Float>(rows[2]))
        fromRendition = (SIMD3<Float>(inverse[0]), SIMD3<Float>(inverse[1]), SIMD3<Float>(inverse[2]))
    }

    /// The SDR code values the look is given for a pixel's signal codes (0...1), and the headroom
    /// its result is multiplied back by (1 when the output is SDR).
    @inline(__always)
    func rendition(of code: SIMD3<Float>) -> (code: SIMD3<Float>, headroom: Float) {
        var light = SIMD3(decode(code.x), decode(code.y), decode(code.z))
        if isHLG { light = Self.hlgDisplay(scene: light) }
        var linear = SIMD3((toRendition.0 * light).sum(), (toRendition.1 * light).sum(), (toRendition.2 * light).sum())
        var headroom: Float = 1
        if let rollOff {
            linear = SIMD3<Float>(rollOff.apply(HDRRendition.gamutMapped(SIMD3<Double>(linear))))
        } else {
            headroom = max(1, linear.max())
            linear *= 1 / headroom
        }
        return (SIMD3(sdrEncode(linear.x), sdrEncode(linear.y), sdrEncode(linear.z)), headroom)
    }

    /// The signal codes for the look's result `code` (SDR code values) at `headroom`.
    @inline(__always)
    func signal(of code: SIMD3<Float>, headroom: Float) -> SIMD3<Float> {
        let linear = SIMD3(sdrDecode(code.x), sdrDecode(code.y), sdrDecode(code.z)) * headroom
        var light = SIMD3((fromRendition.0 * linear).sum(), (fromRendition.1 * linear).sum(), (fromRendition.2 * linear).sum())
        if isHLG { light = Self.hlgScene(display: light) }
        return SIMD3(encode(light.x), encode(light.y), encode(light.z))
    }

    // MARK: HLG's OOTF for a 1000 cd/m² display, as HLGSystemGammaOp computes it

    static let hlgWeights = SIMD3<Float>(0.2627, 0.6780, 0.0593)
    static let hlgSceneScale = 3.0, hlgGamma = 1.2, hlgFloor = 1e-4
    static let hlgDisplayScale = HDRRendition.nominalPeak / 100 / pow(hlgSceneScale, hlgGamma)
    /// The OOTF's gain for a luminance of scene light times 3 (0...3), display scale included, and
    /// the inverse's for display light over that scale (0...3^1.2, held beyond).
    static let hlgGain = CurveTable(count: 4096, domain: hlgSceneScale, index: .fourthRoot) { luminance in
        pow(max(luminance, hlgFloor), hlgGamma - 1) * hlgDisplayScale
    }
    /// The inverse floors display luminance at the forward floor's image, `floor^gamma`, so that
    /// the two undo each other below it too (HLGSystemGammaOp floors both at 1e-4, as the studio
    /// config does, which differs only in light under 0.03 cd/m²).
    private static let hlgInverseGain = CurveTable(count: 4096, domain: pow(hlgSceneScale, hlgGamma), index: .fourthRoot) { luminance in
        pow(max(luminance, pow(hlgFloor, hlgGamma)), 1 / hlgGamma - 1) / hlgSceneScale / hlgDisplayScale
    }

    @inline(__always)
    private static func hlgDisplay(scene: SIMD3<Float>) -> SIMD3<Float> {
        let scaled = scene * Float(hlgSceneScale)
        return scaled * hlgGain(abs((hlgWeights * scaled).sum()))
    }

    @inline(__always)
    private static func hlgScene(display: SIMD3<Float>) -> SIMD3<Float> {
        let luminance = (hlgWeights * display).sum() * Float(1 / hlgDisplayScale)
        return display * hlgInverseGain(abs(luminance))
    }
}

/// A curve as a table read with linear interpolation, odd-symmetric about 0 (negative inputs
/// mirror positive ones) and held at its last entry beyond its domain. The table is indexed by
/// the input itself, its square root or its fourth root, whichever makes the curve smooth where
/// the table samples it.
final class CurveTable: @unchecked Sendable {
    enum Index: Sendable {
        case linear, squareRoot, fourthRoot
    }

    /// `segments + 1` entries, written once by `init`.
    let values: UnsafeMutablePointer<Float>
    let index: Index
    let inverseDomain: Float
    let segments: Float
    private let lastSegment: Int

    /// - Parameters:
    ///   - count: the number of segments (the table holds one entry more).
    ///   - domain: the largest input the table covers.
    init(count: Int, domain: Double, index: Index, _ curve: (Double) -> Double) {
        self.index = index
        inverseDomain = Float(1 / domain)
        segments = Float(count)
        lastSegment = count - 1
        values = .allocate(capacity: count + 1)
        for step in 0...count {
            let u = Double(step) / Double(count)
            let x = switch index {
            case .linear: u
            case .squareRoot: u * u
            case .fourthRoot: (u * u) * (u * u)
            }
            values[step] = Float(curve(x * domain))
        }
    }

    deinit { values.deallocate() }

    @inline(__always)
    func callAsFunction(_ x: Float) -> Float {
        let scaled = abs(x) * inverseDomain
        let magnitude = scaled < 1 ? scaled : 1  // NaN too
        let u = switch index {
        case .linear: magnitude
        case .squareRoot: magnitude.squareRoot()
        case .fourthRoot: magnitude.squareRoot().squareRoot()
        }
        let position = u * segments
        let step = min(Int(position), lastSegment)
        let fraction = position - Float(step)
        let low = values[step], y = low + fraction * (values[step + 1] - low)
        return x < 0 ? -y : y
    }
}
