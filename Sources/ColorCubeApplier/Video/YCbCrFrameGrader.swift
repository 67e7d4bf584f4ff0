import ColorCubeCore
import ColorCubeEngine
import ColorCubeImaging
import _CYCbCrKernel

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
/// 8-bit clips: a pixel's result before chroma is averaged depends only on its three codes, so
/// it is computed once per colour and remembered (`YCbCrMemo8`); later pixels of that colour cost
/// one table read. Luma is the same as the Float path's; chroma is averaged from quarter codes, so
/// a block's chroma may differ from the Float path's by one code where its mean falls within an
/// eighth of a code of a half (identity looks still return every byte). `memoized: false` runs the
/// Float path on every pixel, the reference the memo is tested against.
///
/// Dithered 8-bit clips (`dither`): the look runs on 16-bit codes, and each luma and chroma value
/// is rounded with a threshold from the dither's tile at its position (`DitherTile`) instead of
/// at half a code, so a smooth gradient keeps its fractions of a code in its local means. Values
/// within a 256th of a code of a code are that code, so an identity look still returns every byte.
/// The memo is not used: it keeps results as 8-bit codes.
///
/// Frames are split across cores by rows of chroma blocks.
public struct YCbCrFrameGrader: Sendable {
    public let engine: LUTEngine
    public let format: YCbCrFrameFormat
    public let width: Int
    public let height: Int
    private let conversion: Conversion
    /// The conversion back to YCbCr: `conversion`, or for an HDR clip made SDR, BT.709's.
    private let outputConversion: Conversion
    /// For an HDR clip: its pixels to the SDR rendition the look is given, and back.
    let hdr: HDRFrameMapping?
    /// The 8-bit results met so far; nil deeper than 8 bits, when dithered, or when not memoized.
    private let memo: YCbCrMemo8?
    /// The thresholds 8-bit codes are rounded with; nil deeper than 8 bits or without dithering.
    private let dither: DitherTile?

    /// - Parameters:
    ///   - matrix: the clip's matrix; nil (no grader) for one without luma coefficients
    ///     (YCgCo, ICtCp).
    ///   - fullRange: pc range (codes 0 to 2^depth - 1) rather than tv (16 to 235 at 8 bits).
    ///   - memoized: remember 8-bit results by colour (64 MB of address space, touched where the
    ///     clip's colours fall); false computes every pixel.
    ///   - hdr: for an HDR clip, how its pixels become the SDR rendition the look is given (and
    ///     back, or on to SDR); the output then uses `outputMatrix` (BT.709 for SDR output).
    ///   - dither: how 8-bit codes are rounded; deeper clips are rounded to nearest.
    ///   - lookPrecision: the look's own precision (`Transform.nodePrecision()`): a dithered code
    ///     the look moves by less keeps its value.
    init?(engine: LUTEngine, format: YCbCrFrameFormat, width: Int, height: Int, matrix: VideoColor.Matrix, fullRange: Bool,
          memoized: Bool = true, hdr: HDRFrameMapping? = nil, outputMatrix: VideoColor.Matrix? = nil, dither: Dither = .none,
          lookPrecision: Double = 0) {
        guard let (kr, kb) = matrix.lumaCoefficients, let (outputKr, outputKb) = (outputMatrix ?? matrix).lumaCoefficients,
              width > 0, height > 0 else { return nil }
        self.engine = engine
        self.format = format
        self.width = width
        self.height = height
        self.hdr = hdr
        conversion = Conversion(kr: kr, kb: kb, bitDepth: format.bitDepth, fullRange: fullRange)
        outputConversion = Conversion(kr: outputKr, kb: outputKb, bitDepth: format.bitDepth, fullRange: fullRange)
        self.dither = format.bitDepth == 8 ? dither.tile(lookPrecision: lookPrecision, top: 255) : nil
        memo = memoized && format.bitDepth == 8 && hdr == nil && self.dither == nil ? YCbCrMemo8() : nil
    }

    /// A grader for SDR clips (the library's entry point).
    public init?(engine: LUTEngine, format: YCbCrFrameFormat, width: Int, height: Int, matrix: VideoColor.Matrix, fullRange: Bool,
                 memoized: Bool = true, dither: Dither = .none, lookPrecision: Double = 0) {
        self.init(engine: engine, format: format, width: width, height: height, matrix: matrix, fullRange: fullRange,
                  memoized: memoized, hdr: nil, dither: dither, lookPrecision: lookPrecision)
    }

    /// How fast an excursion beyond the cube fades as the look moves the face it crossed: gone
    /// when the face moves by 1/32 of the range (8 codes at 8 bits) or more.
    static let faceRamp: Float = 32

    /// Grades one frame of `format.frameBytes(width:height:)` bytes in place.
    public func grade(_ frame: UnsafeMutableRawPointer) {
        if let memo, format.bytesPerSample == 1 {
            gradeMemoized(frame.bindMemory(to: UInt8.self, capacity: format.frameBytes(width: width, height: height)), memo: memo)
        } else if format.bytesPerSample == 1 {
            let samples = frame.bindMemory(to: UInt8.self, capacity: format.frameBytes(width: width, height: height))
            if dither != nil { grade(samples, codes: UInt16.self) } else { grade(samples, codes: UInt8.self) }
        } else {
            grade(frame.bindMemory(to: UInt16.self, capacity: format.frameBytes(width: width, height: height) / 2),
                  codes: UInt16.self)
        }
    }

    /// Grades a frame of `Sample`s with the engine on `Code`s: the frame's own width, or 16 bits
    /// for a dithered 8-bit frame.
    private func grade<Sample: FixedWidthInteger & UnsignedInteger & SendableMetatype,
                       Code: FixedWidthInteger & UnsignedInteger>(_ samples: UnsafeMutablePointer<Sample>, codes: Code.Type) {
        forEachChunkOfBands(samples) { planes, bands in
            let pixels = width * (1 << format.chromaShiftY)
            let scratch = UnsafeMutablePointer<Code>.allocate(capacity: pixels * 3)
            defer { scratch.deallocate() }
            if let hdr {
                let renditions = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: pixels)
                defer { renditions.deallocate() }
                for band in bands {
                    gradeBand(band, planes: planes, chromaWidth: format.chromaWidth(width), scratch: scratch,
                              hdr: hdr, renditions: renditions)
                }
                return
            }
            for band in bands {
                gradeBand(band, planes: planes, chromaWidth: format.chromaWidth(width), scratch: scratch)
            }
        }
    }

    /// Splits a frame across cores by chunks of bands (chroma rows and the luma rows they cover),
    /// about 64k pixels a chunk.
    private func forEachChunkOfBands<Sample>(_ samples: UnsafeMutablePointer<Sample>,
                                             _ body: @Sendable (Planes<Sample>, Range<Int>) -> Void) {
        let chromaWidth = format.chromaWidth(width), chromaHeight = format.chromaHeight(height)
        let planes = Planes(luma: DisjointRegions(samples),
                            blue: DisjointRegions(samples + width * height),
                            red: DisjointRegions(samples + width * height + chromaWidth * chromaHeight))
        let bandsPerChunk = max(1, (1 << 16) / (width << format.chromaShiftY))
        ParallelLoop.forEachChunk(of: chromaHeight, chunkSize: bandsPerChunk) { bands in
            body(planes, bands)
        }
    }

    /// The three planes of a frame, shared among the threads that each hold some bands.
    private struct Planes<Sample>: Sendable {
        let luma: DisjointRegions<UnsafeMutablePointer<Sample>>
        let blue: DisjointRegions<UnsafeMutablePointer<Sample>>
        let red: DisjointRegions<UnsafeMutablePointer<Sample>>
    }

    /// Chroma row `band`'s number of luma rows, and where its luma, blue and red samples start.
    @inline(__always)
    private func rowsAndPlanes<Sample>(of band: Int, planes: Planes<Sample>, chromaWidth: Int)
        -> (Int, UnsafeMutablePointer<Sample>, UnsafeMutablePointer<Sample>, UnsafeMutablePointer<Sample>) {
        let shiftY = format.chromaShiftY
        let firstRow = band << shiftY
        return (min(height, (band + 1) << shiftY) - firstRow, planes.luma.start(of: firstRow * width),
                planes.blue.start(of: band * chromaWidth), planes.red.start(of: band * chromaWidth))
    }

    /// Grades chroma row `band` and the luma rows it covers.
    private func gradeBand<Sample: FixedWidthInteger & UnsignedInteger, Code: FixedWidthInteger & UnsignedInteger>(
        _ band: Int, planes: Planes<Sample>, chromaWidth: Int, scratch: UnsafeMutablePointer<Code>
    ) {
        let shiftX = format.chromaShiftX
        let (rows, luma, blue, red) = rowsAndPlanes(of: band, planes: planes, chromaWidth: chromaWidth)
        let c = conversion
        let engineMax = Float(Code.max)

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

        // The look's change added to the unclamped colours, then back to YCbCr.
        writeBack(band: band, rows: rows, chromaWidth: chromaWidth, luma: luma, blue: blue, red: red, conversion: c) { index, chroma in
            Self.graded(c.rgb(luma: luma[index], blue: blue[chroma], red: red[chroma]), scratch + index * 3)
        }
    }

    /// Writes chroma row `band`'s graded colours back as YCbCr with `conversion`: each pixel's luma,
    /// and each block's chroma as the mean of its pixels', rounded to nearest or dithered.
    /// `graded(index, chroma)` gives the colour of the pixel at `index` of the band, in block
    /// `chroma`, from the codes still in place.
    @inline(__always)
    private func writeBack<Sample: FixedWidthInteger & UnsignedInteger>(
        band: Int, rows: Int, chromaWidth: Int, luma: UnsafeMutablePointer<Sample>, blue: UnsafeMutablePointer<Sample>,
        red: UnsafeMutablePointer<Sample>, conversion c: Conversion, _ graded: (_ index: Int, _ chroma: Int) -> SIMD3<Float>
    ) {
        let shiftX = format.chromaShiftX
        let firstRow = band << format.chromaShiftY
        for chroma in 0..<chromaWidth {
            let firstColumn = chroma << shiftX, columns = min(width, (chroma + 1) << shiftX) - firstColumn
            var sum = SIMD2<Float>.zero
            for row in 0..<rows {
                for x in firstColumn..<(firstColumn + columns) {
                    let index = row * width + x
                    let (y, difference) = c.ycbcr(graded(index, chroma))
                    if let dither {
                        let original = Float(Sample(littleEndian: luma[index]))
                        luma[index] = c.code(dither.dithered(c.lumaValue(y), original: original, x: x, y: firstRow + row))
                    } else {
                        luma[index] = c.code(c.lumaValue(y))
                    }
                    sum += difference
                }
            }
            let mean = sum / Float(rows * columns)
            if let dither {
                // Each plane reads the tile from its own corner, so the three round independently.
                let half = dither.side / 2
                let blueCode = Float(Sample(littleEndian: blue[chroma])), redCode = Float(Sample(littleEndian: red[chroma]))
                blue[chroma] = c.code(dither.dithered(c.chromaValue(mean.x), original: blueCode, x: chroma + half, y: band))
                red[chroma] = c.code(dither.dithered(c.chromaValue(mean.y), original: redCode, x: chroma, y: band + half))
            } else {
                blue[chroma] = c.code(c.chromaValue(mean.x))
                red[chroma] = c.code(c.chromaValue(mean.y))
            }
        }
    }

    /// Grades chroma row `band` and the luma rows it covers of an HDR clip: the look is given each
    /// pixel's SDR rendition (`renditions` keeps it, and its headroom, between the two passes),
    /// and its result goes back into the clip's signal or, made SDR, out as it is.
    private func gradeBand<Sample: FixedWidthInteger & UnsignedInteger, Code: FixedWidthInteger & UnsignedInteger>(
        _ band: Int, planes: Planes<Sample>, chromaWidth: Int, scratch: UnsafeMutablePointer<Code>,
        hdr: HDRFrameMapping, renditions: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let shiftX = format.chromaShiftX
        let (rows, luma, blue, red) = rowsAndPlanes(of: band, planes: planes, chromaWidth: chromaWidth)
        let c = conversion
        let engineMax = Float(Code.max)
        let keepsSignal = hdr.mode == .keep

        for row in 0..<rows {
            for x in 0..<width {
                let rgb = c.rgb(luma: luma[row * width + x], blue: blue[x >> shiftX], red: red[x >> shiftX])
                let seen = hdr.rendition(of: SIMD3(unit(rgb.x), unit(rgb.y), unit(rgb.z)))
                renditions[row * width + x] = SIMD4(seen.code, seen.headroom)
                let target = scratch + (row * width + x) * 3
                target[0] = sample(unit(seen.code.x) * engineMax + 0.5)
                target[1] = sample(unit(seen.code.y) * engineMax + 0.5)
                target[2] = sample(unit(seen.code.z) * engineMax + 0.5)
            }
        }
        engine.apply(scratch, rows * width, parallel: false)

        writeBack(band: band, rows: rows, chromaWidth: chromaWidth, luma: luma, blue: blue, red: red,
                  conversion: outputConversion) { index, chroma in
            let seen = renditions[index]
            // The look's change in the rendition, colours outside BT.709 kept as the SDR path keeps them.
            let graded = Self.graded(SIMD3(seen.x, seen.y, seen.z), scratch + index * 3)
            guard keepsSignal else { return graded }
            let rgb = c.rgb(luma: luma[index], blue: blue[chroma], red: red[chroma])
            return Self.kept(rgb, clamped: SIMD3(unit(rgb.x), unit(rgb.y), unit(rgb.z)),
                             result: hdr.signal(of: graded, headroom: seen.w))
        }
    }

    /// `graded`'s rule for a result in Float: the change from the clamped colour added to the
    /// unclamped one, the excursion beyond the cube faded as the look moves the face it crossed.
    @inline(__always)
    private static func kept(_ value: SIMD3<Float>, clamped: SIMD3<Float>, result: SIMD3<Float>) -> SIMD3<Float> {
        @inline(__always)
        func kept(_ value: Float, _ clamped: Float, _ result: Float) -> Float {
            let change = result - clamped
            return clamped + change + (value - clamped) * max(0, 1 - faceRamp * abs(change))
        }
        return SIMD3(kept(value.x, clamped.x, result.x), kept(value.y, clamped.y, result.y), kept(value.z, clamped.z, result.z))
    }

    /// The graded colour of a pixel at `rgb` (not clamped) whose clamped, rounded codes the engine
    /// turned into `looked[0...2]`: the look's change added, the excursion beyond the cube kept in
    /// full where the look leaves the face it crossed and faded out as the look moves that face
    /// inward. Scalar per channel: SIMD masks and rounding calls cost more than the arithmetic.
    @inline(__always)
    private static func graded<Sample: FixedWidthInteger & UnsignedInteger>(_ rgb: SIMD3<Float>,
                                                                          _ looked: UnsafeMutablePointer<Sample>) -> SIMD3<Float> {
        let engineMax = Float(Sample.max), inverseMax = 1 / Float(Sample.max)
        @inline(__always)
        func graded(_ value: Float, _ looked: Sample) -> Float {
            let clamped = unit(value)
            let change = (float(looked) - float(sample(clamped * engineMax + 0.5) as Sample)) * inverseMax
            let kept = max(0, 1 - faceRamp * abs(change))
            return clamped + change + (value - clamped) * kept
        }
        return SIMD3(graded(rgb.x, looked[0]), graded(rgb.y, looked[1]), graded(rgb.z, looked[2]))
    }

    // MARK: 8 bits, remembered by colour

    private func gradeMemoized(_ samples: UnsafeMutablePointer<UInt8>, memo: YCbCrMemo8) {
        let chromaWidth = format.chromaWidth(width)
        forEachChunkOfBands(samples) { planes, bands in
            // Colours not yet known (at most one a pixel of a band), the blocks that met them,
            // and the engine's RGB codes for them.
            let pixels = width << format.chromaShiftY
            let misses = UnsafeMutablePointer<Int32>.allocate(capacity: pixels)
            let deferred = UnsafeMutablePointer<Int32>.allocate(capacity: chromaWidth)
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: pixels * 3)
            defer {
                misses.deallocate()
                deferred.deallocate()
                scratch.deallocate()
            }
            for band in bands {
                gradeBandMemoized(band, planes: planes, chromaWidth: chromaWidth, memo: memo,
                                  misses: misses, deferred: deferred, scratch: scratch)
            }
        }
    }

    /// Grades chroma row `band` and the luma rows it covers from the memo (the C loop
    /// `ccycbcr_grade8`): blocks whose colours are all known are written at once; the others are
    /// put off until the band's unknown colours have been computed together (one engine call),
    /// then written.
    private func gradeBandMemoized(_ band: Int, planes: Planes<UInt8>, chromaWidth: Int, memo: YCbCrMemo8,
                                   misses: UnsafeMutablePointer<Int32>, deferred: UnsafeMutablePointer<Int32>,
                                   scratch: UnsafeMutablePointer<UInt8>) {
        let shiftY = format.chromaShiftY
        let firstRow = band << shiftY, rows = min(height, (band + 1) << shiftY) - firstRow
        var description = ccycbcr_band(
            table: memo.table, luma: planes.luma.start(of: firstRow * width),
            blue: planes.blue.start(of: band * chromaWidth), red: planes.red.start(of: band * chromaWidth),
            width: Int64(width), rows: Int64(rows), shift_x: Int64(format.chromaShiftX))
        var missCount: Int64 = 0
        var deferredCount = ccycbcr_grade8(&description, nil, Int64(chromaWidth), deferred, misses, &missCount)
        // Every colour a put-off block needs is known once the misses are computed (a colour
        // listed twice is computed twice, to the same word); the blocks are then graded in
        // place of their list.
        while deferredCount > 0 {
            remember(misses, Int(missCount), memo: memo, scratch: scratch)
            missCount = 0
            deferredCount = ccycbcr_grade8(&description, deferred, deferredCount, deferred, misses, &missCount)
        }
    }

    /// Computes and remembers the words for `count` colours (`cb << 16 | cr << 8 | luma`): the
    /// Float path's arithmetic for one pixel, up to the rounding of its chroma.
    private func remember(_ colours: UnsafeMutablePointer<Int32>, _ count: Int, memo: YCbCrMemo8,
                          scratch: UnsafeMutablePointer<UInt8>) {
        guard count > 0 else { return }
        let c = conversion
        @inline(__always)
        func rgb(_ colour: Int32) -> SIMD3<Float> {
            c.rgb(luma: UInt8(truncatingIfNeeded: colour), blue: UInt8(truncatingIfNeeded: colour >> 16),
                  red: UInt8(truncatingIfNeeded: colour >> 8))
        }
        for k in 0..<count {
            let x = rgb(colours[k])
            let target = scratch + k * 3
            target[0] = sample(unit(x.x) * 255 + 0.5)
            target[1] = sample(unit(x.y) * 255 + 0.5)
            target[2] = sample(unit(x.z) * 255 + 0.5)
        }
        engine.apply(scratch, count, parallel: false)
        for k in 0..<count {
            let out = Self.graded(rgb(colours[k]), scratch + k * 3)
            let (y, difference) = c.ycbcr(out)
            let luma: UInt8 = c.lumaCode(y)
            let chroma = SIMD2(repeating: c.chromaOffset) + c.chromaUnit * difference
            memo.remember(Int(colours[k]), YCbCrMemo8.word(luma: luma, blue: chroma.x, red: chroma.y))
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
