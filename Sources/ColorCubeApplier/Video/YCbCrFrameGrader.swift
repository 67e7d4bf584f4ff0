import ColorCubeCore

/// Grades planar YCbCr frames (`YCbCrFrameFormat`) in place: each pixel is converted to RGB
/// with the clip's matrix and range, the look is applied, and the result is converted back with
/// the same matrix and range, chroma averaged over each subsampling block.
///
/// Why not FFmpeg's scaler: it clips RGB to [0, 1] (its float output too). In 4:2:0 and 4:2:2
/// video a chroma sample is shared by pixels of different brightness, so at saturated edges
/// the decoded RGB leaves the cube; clipped, the colours no longer average back to the clip's
/// own chroma, and an identity look returned a saturated 10-bit 4:2:0 test clip at 45 dB. Here:
///
///     x    = RGB of the pixel (Float, not clipped)
///     q    = x clamped to [0, 1] and rounded to the engine's codes (8 bits for 8-bit clips,
///            16 bits deeper)
///     change = look(q) - q
///     out  = clamp(x) + change + (x - clamp(x)) * max(0, 1 - 32 |change|)   per channel
///
/// so the look's change at the nearest colour in its domain is added to the decoded colour.
/// Inside the cube this is the look (within one code of the engine's result). Outside, the
/// excursion beyond the face the colour crossed is kept where the look leaves that face where it
/// is (an identity look, a look that keeps black at 0 and peak at 1), and dropped where the look
/// moves it inward by 1/32 of the range or more (a faded black, a bleach), as clamping would, so
/// that a player's clipping shows the look's colour. An identity look changes nothing, so a
/// frame comes back bit for bit. Chroma is upsampled by repetition and downsampled by the
/// block's mean, which undo each other. Codes are rounded to nearest and clamped to the sample
/// range.
///
/// Frames are split across cores by rows of chroma blocks.
public struct YCbCrFrameGrader: Sendable {
    public let engine: LUTEngine
    public let format: YCbCrFrameFormat
    public let width: Int
    public let height: Int
    private let conversion: Conversion

    /// - Parameters:
    ///   - matrix: the scaler's matrix name (`VideoColor.scalerMatrix`): bt709, bt601, bt2020,
    ///     fcc or smpte240m; nil for any other.
    ///   - fullRange: pc range (codes 0 to 2^depth - 1) rather than tv (16 to 235 at 8 bits).
    public init?(engine: LUTEngine, format: YCbCrFrameFormat, width: Int, height: Int, matrix: String, fullRange: Bool) {
        guard let (kr, kb) = Self.coefficients(matrix), width > 0, height > 0 else { return nil }
        self.engine = engine
        self.format = format
        self.width = width
        self.height = height
        conversion = Conversion(kr: kr, kb: kb, bitDepth: format.bitDepth, fullRange: fullRange)
    }

    /// How fast an excursion beyond the cube fades as the look moves the face it crossed: gone
    /// when the face moves by 1/32 of the range (8 codes at 8 bits) or more.
    static let faceRamp: Float = 32

    /// Kr and Kb of a matrix as FFmpeg's scaler names it.
    public static func coefficients(_ matrix: String) -> (Float, Float)? {
        switch matrix {
        case "bt709": (0.2126, 0.0722)
        case "bt601": (0.299, 0.114)
        case "bt2020": (0.2627, 0.0593)
        case "fcc": (0.30, 0.11)
        case "smpte240m": (0.212, 0.087)
        default: nil
        }
    }

    /// Grades one frame of `format.frameBytes(width:height:)` bytes in place.
    public func grade(_ frame: UnsafeMutableRawPointer) {
        if format.bytesPerSample == 1 {
            grade(frame.bindMemory(to: UInt8.self, capacity: format.frameBytes(width: width, height: height)))
        } else {
            grade(frame.bindMemory(to: UInt16.self, capacity: format.frameBytes(width: width, height: height) / 2))
        }
    }

    private func grade<Sample: FixedWidthInteger & UnsignedInteger & SendableMetatype>(_ samples: UnsafeMutablePointer<Sample>) {
        let chromaWidth = format.chromaWidth(width), chromaHeight = format.chromaHeight(height)
        let planes = Planes(luma: DisjointRegions(samples),
                            blue: DisjointRegions(samples + width * height),
                            red: DisjointRegions(samples + width * height + chromaWidth * chromaHeight))
        let bandRows = 1 << format.chromaShiftY
        let bandsPerChunk = max(1, (1 << 16) / (width * bandRows))
        ParallelLoop.forEachChunk(of: chromaHeight, chunkSize: bandsPerChunk) { bands in
            let scratch = UnsafeMutablePointer<Sample>.allocate(capacity: width * bandRows * 3)
            defer { scratch.deallocate() }
            for band in bands {
                gradeBand(band, planes: planes, chromaWidth: chromaWidth, scratch: scratch)
            }
        }
    }

    /// The three planes of a frame, shared among the threads that each hold some bands.
    private struct Planes<Sample>: Sendable {
        let luma: DisjointRegions<UnsafeMutablePointer<Sample>>
        let blue: DisjointRegions<UnsafeMutablePointer<Sample>>
        let red: DisjointRegions<UnsafeMutablePointer<Sample>>
    }

    /// Grades chroma row `band` and the luma rows it covers.
    private func gradeBand<Sample: FixedWidthInteger & UnsignedInteger>(
        _ band: Int, planes: Planes<Sample>, chromaWidth: Int, scratch: UnsafeMutablePointer<Sample>
    ) {
        let shiftX = format.chromaShiftX, shiftY = format.chromaShiftY
        let firstRow = band << shiftY, rows = min(height, (band + 1) << shiftY) - firstRow
        let luma = planes.luma.start(of: firstRow * width)
        let blue = planes.blue.start(of: band * chromaWidth), red = planes.red.start(of: band * chromaWidth)
        let c = conversion
        let engineMax = Float(Sample.max)

        // The clamped, rounded colours, for the engine.
        for row in 0..<rows {
            for x in 0..<width {
                let chroma = x >> shiftX
                let rgb = c.rgb(luma: luma[row * width + x], blue: blue[chroma], red: red[chroma])
                let target = scratch + (row * width + x) * 3
                target[0] = sample(unit(rgb.x) * engineMax + 0.5)
                target[1] = sample(unit(rgb.y) * engineMax + 0.5)
                target[2] = sample(unit(rgb.z) * engineMax + 0.5)
            }
        }
        engine.apply(scratch, rows * width, parallel: false)

        // The look's change added to the unclamped colours, then back to YCbCr. Scalar per
        // channel: SIMD masks and rounding calls cost more than the arithmetic here.
        let inverseMax = 1 / engineMax
        @inline(__always)
        func graded(_ value: Float, _ looked: Sample) -> Float {
            let clamped = unit(value)
            let change = (float(looked) - float(sample(clamped * engineMax + 0.5) as Sample)) * inverseMax
            // The excursion beyond the cube is kept in full where the look leaves the face it
            // crossed, and fades out as the look moves that face inward.
            let kept = max(0, 1 - Self.faceRamp * abs(change))
            return clamped + change + (value - clamped) * kept
        }
        for chroma in 0..<chromaWidth {
            let firstColumn = chroma << shiftX, columns = min(width, (chroma + 1) << shiftX) - firstColumn
            let blueCode = blue[chroma], redCode = red[chroma]
            var sum = SIMD2<Float>.zero
            for row in 0..<rows {
                for x in firstColumn..<(firstColumn + columns) {
                    let index = row * width + x
                    let rgb = c.rgb(luma: luma[index], blue: blueCode, red: redCode)
                    let looked = scratch + index * 3
                    let out = SIMD3(graded(rgb.x, looked[0]), graded(rgb.y, looked[1]), graded(rgb.z, looked[2]))
                    let (y, difference) = c.ycbcr(out)
                    luma[index] = c.lumaCode(y)
                    sum += difference
                }
            }
            let mean = sum / Float(rows * columns)
            blue[chroma] = c.chromaCode(mean.x)
            red[chroma] = c.chromaCode(mean.y)
        }
    }

    /// The matrix and range arithmetic for one clip, constants computed once.
    private struct Conversion: Sendable {
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

        @inline(__always)
        func rgb<Sample: FixedWidthInteger & UnsignedInteger>(luma: Sample, blue: Sample, red: Sample) -> SIMD3<Float> {
            let y = (float(Sample(littleEndian: luma)) - lumaOffset) * inverseLumaUnit
            let cb = (float(Sample(littleEndian: blue)) - chromaOffset) * inverseChromaUnit
            let cr = (float(Sample(littleEndian: red)) - chromaOffset) * inverseChromaUnit
            return SIMD3(y + redToRed * cr, y - redToGreen * cr - blueToGreen * cb, y + blueToBlue * cb)
        }

        /// Luma and (Cb, Cr) of an RGB colour.
        @inline(__always)
        func ycbcr(_ rgb: SIMD3<Float>) -> (Float, SIMD2<Float>) {
            let y = kr * rgb.x + kg * rgb.y + kb * rgb.z
            return (y, SIMD2((rgb.z - y) * inverseBlueToBlue, (rgb.x - y) * inverseRedToRed))
        }

        @inline(__always)
        func lumaCode<Sample: FixedWidthInteger & UnsignedInteger>(_ y: Float) -> Sample {
            code(lumaOffset + lumaUnit * y)
        }

        @inline(__always)
        func chromaCode<Sample: FixedWidthInteger & UnsignedInteger>(_ value: Float) -> Sample {
            code(chromaOffset + chromaUnit * value)
        }

        /// Rounded to nearest, clamped to the sample range (NaN to 0), stored little-endian.
        @inline(__always)
        private func code<Sample: FixedWidthInteger & UnsignedInteger>(_ value: Float) -> Sample {
            let clamped = value >= 0 ? min(value, codeMax) : 0
            return (sample(clamped + 0.5) as Sample).littleEndian
        }
    }
}

/// A code as Float. Through UInt32: the generic conversion from any integer is a slow call.
@inline(__always)
private func float<Sample: FixedWidthInteger & UnsignedInteger>(_ code: Sample) -> Float {
    Float(UInt32(truncatingIfNeeded: code))
}

/// A value in [0, Sample.max + 1) truncated to a code, through UInt32 for the same reason.
@inline(__always)
private func sample<Sample: FixedWidthInteger & UnsignedInteger>(_ value: Float) -> Sample {
    Sample(truncatingIfNeeded: UInt32(value))
}

/// Clamped to [0, 1] (values come from integer codes: never NaN).
@inline(__always)
private func unit(_ value: Float) -> Float {
    min(max(value, 0), 1)
}

private extension LUTEngine {
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
