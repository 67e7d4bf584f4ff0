import ColorCubeEngine

/// The matrix and range arithmetic for one clip, constants computed once.
struct YCbCrConversion: Sendable {
    let kr: Float, kg: Float, kb: Float
    /// R = Y + redToRed Cr; B = Y + blueToBlue Cb; G = Y - redToGreen Cr - blueToGreen Cb.
    let redToRed: Float, blueToBlue: Float, redToGreen: Float, blueToGreen: Float
    let inverseRedToRed: Float, inverseBlueToBlue: Float
    /// Code = offset + unit * value (luma 0...1, chroma -0.5...0.5).
    let lumaOffset: Float, lumaUnit: Float, chromaOffset: Float, chromaUnit: Float
    let codeMax: Float
    let inverseLumaUnit: Float, inverseChromaUnit: Float

    init(kr: Float, kb: Float, bitDepth: Int, fullRange: Bool) {
        self.kr = kr
        self.kb = kb
        kg = 1 - kr - kb
        redToRed = 2 * (1 - kr)
        blueToBlue = 2 * (1 - kb)
        redToGreen = 2 * kr * (1 - kr) / kg
        blueToGreen = 2 * kb * (1 - kb) / kg
        inverseRedToRed = 1 / redToRed
        inverseBlueToBlue = 1 / blueToBlue
        let step = Float(1 << (bitDepth - 8))
        codeMax = Float((1 << bitDepth) - 1)
        if fullRange {
            lumaOffset = 0
            lumaUnit = codeMax
            chromaOffset = Float(1 << (bitDepth - 1))
            chromaUnit = codeMax
        } else {
            lumaOffset = 16 * step
            lumaUnit = 219 * step
            chromaOffset = 128 * step
            chromaUnit = 224 * step
        }
        inverseLumaUnit = 1 / lumaUnit
        inverseChromaUnit = 1 / chromaUnit
    }

    /// RGB (not clamped) of a pixel's stored codes (little-endian).
    @inline(__always)
    func rgb<Sample: FixedWidthInteger & UnsignedInteger>(luma: Sample, blue: Sample, red: Sample) -> SIMD3<Float> {
        rgb(SIMD3(codeValue(Sample(littleEndian: luma)), codeValue(Sample(littleEndian: blue)), codeValue(Sample(littleEndian: red))))
    }

    /// RGB (not clamped) of luma, Cb and Cr codes, which need not be whole.
    @inline(__always)
    func rgb(_ codes: SIMD3<Float>) -> SIMD3<Float> {
        let y = (codes.x - lumaOffset) * inverseLumaUnit
        let cb = (codes.y - chromaOffset) * inverseChromaUnit
        let cr = (codes.z - chromaOffset) * inverseChromaUnit
        return SIMD3(y + redToRed * cr, y - redToGreen * cr - blueToGreen * cb, y + blueToBlue * cb)
    }

    /// Luma, Cb and Cr in codes (not rounded) of an RGB colour, and a fourth lane of 0.
    @inline(__always)
    func codes(_ rgb: SIMD3<Float>) -> SIMD4<Float> {
        let (y, difference) = ycbcr(rgb)
        return SIMD4(lumaValue(y), chromaValue(difference.x), chromaValue(difference.y), 0)
    }

    /// Luma and (Cb, Cr) of an RGB colour.
    @inline(__always)
    func ycbcr(_ rgb: SIMD3<Float>) -> (Float, SIMD2<Float>) {
        let y = kr * rgb.x + kg * rgb.y + kb * rgb.z
        return (y, SIMD2((rgb.z - y) * inverseBlueToBlue, (rgb.x - y) * inverseRedToRed))
    }

    /// Luma in codes (not rounded).
    @inline(__always)
    func lumaValue(_ y: Float) -> Float {
        lumaOffset + lumaUnit * y
    }

    /// A chroma difference in codes (not rounded).
    @inline(__always)
    func chromaValue(_ difference: Float) -> Float {
        chromaOffset + chromaUnit * difference
    }

    @inline(__always)
    func lumaCode<Sample: FixedWidthInteger & UnsignedInteger>(_ y: Float) -> Sample {
        code(lumaValue(y))
    }

    /// Rounded to nearest, clamped to the sample range (NaN to 0), stored little-endian.
    @inline(__always)
    func code<Sample: FixedWidthInteger & UnsignedInteger>(_ value: Float) -> Sample {
        let clamped = value >= 0 ? min(value, codeMax) : 0
        return (truncatedCode(clamped + 0.5) as Sample).littleEndian
    }
}

/// A code as Float. Through UInt32: the generic conversion from any integer is a slow call.
@inline(__always)
func codeValue<Sample: FixedWidthInteger & UnsignedInteger>(_ code: Sample) -> Float {
    Float(UInt32(truncatingIfNeeded: code))
}

/// A value in [0, Sample.max + 1) truncated to a code, through UInt32 for the same reason.
@inline(__always)
func truncatedCode<Sample: FixedWidthInteger & UnsignedInteger>(_ value: Float) -> Sample {
    Sample(truncatingIfNeeded: UInt32(value))
}

/// Clamped to [0, 1] (values come from integer codes: never NaN).
@inline(__always)
func unitClamped(_ value: Float) -> Float {
    min(max(value, 0), 1)
}

extension LUTEngine {
    /// The engine on interleaved RGB codes of either width, in place, on this thread.
    @inline(__always)
    func apply<Sample: FixedWidthInteger & UnsignedInteger>(_ pixels: UnsafeMutablePointer<Sample>, _ count: Int,
                                                            parallel: Bool) {
        if Sample.bitWidth == 8 {
            pixels.withMemoryRebound(to: UInt8.self, capacity: count * 3) {
                apply($0, to: $0, pixelCount: count, layout: .rgb, parallel: parallel)
            }
        } else {
            pixels.withMemoryRebound(to: UInt16.self, capacity: count * 3) {
                apply($0, to: $0, pixelCount: count, layout: .rgb, parallel: parallel)
            }
        }
    }
}
