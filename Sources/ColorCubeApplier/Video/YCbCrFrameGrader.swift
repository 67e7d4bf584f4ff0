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
/// eighth of a code of a half (identity looks still return every byte).
///
/// Deeper clips: the graded colour of a pixel's clamped RGB is computed once per clip on a
/// lattice over the RGB cube (`YCbCrLattice`) and interpolated for each pixel by a vectorised
/// kernel, so a frame costs the same whatever the look and the HDR mapping cost. Identity looks
/// still return every code.
///
/// `reference: true` runs the Float path on every pixel: the reference the memo and the lattice
/// are tested against.
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
    let conversion: YCbCrConversion
    /// The conversion back to YCbCr: `conversion`, or for an HDR clip made SDR, BT.709's.
    let outputConversion: YCbCrConversion
    /// For an HDR clip: its pixels to the SDR rendition the look is given, and back.
    let hdr: HDRFrameMapping?
    /// The 8-bit results met so far; nil deeper than 8 bits, when dithered, or for the reference.
    let memo: YCbCrMemo8?
    /// A deeper clip's graded colours on a lattice over its RGB; nil at 8 bits or for
    /// the reference.
    private(set) var lattice: YCbCrLattice?
    /// The thresholds 8-bit codes are rounded with; nil deeper than 8 bits or without dithering.
    let dither: DitherTile?

    /// - Parameters:
    ///   - matrix: the clip's matrix; nil (no grader) for one without luma coefficients
    ///     (YCgCo, ICtCp).
    ///   - fullRange: pc range (codes 0 to 2^depth - 1) rather than tv (16 to 235 at 8 bits).
    ///   - reference: compute every pixel on the Float path; otherwise 8-bit results are
    ///     remembered by colour (64 MB of address space, touched where the clip's colours fall)
    ///     and deeper ones interpolated from a lattice (4.4 MB, filled when the grader is made).
    ///   - hdr: for an HDR clip, how its pixels become the SDR rendition the look is given (and
    ///     back, or on to SDR); the output then uses `outputMatrix` (BT.709 for SDR output).
    ///   - dither: how 8-bit codes are rounded; deeper clips are rounded to nearest.
    ///   - lookPrecision: the look's own precision (`Transform.nodePrecision()`): a dithered code
    ///     the look moves by less keeps its value.
    init?(engine: LUTEngine, format: YCbCrFrameFormat, width: Int, height: Int, matrix: VideoColor.Matrix, fullRange: Bool,
          reference: Bool = false, hdr: HDRFrameMapping? = nil, outputMatrix: VideoColor.Matrix? = nil, dither: Dither = .none,
          lookPrecision: Double = 0) {
        guard let (kr, kb) = matrix.lumaCoefficients, let (outputKr, outputKb) = (outputMatrix ?? matrix).lumaCoefficients,
              width > 0, height > 0 else { return nil }
        self.engine = engine
        self.format = format
        self.width = width
        self.height = height
        self.hdr = hdr
        conversion = YCbCrConversion(kr: kr, kb: kb, bitDepth: format.bitDepth, fullRange: fullRange)
        outputConversion = YCbCrConversion(kr: outputKr, kb: outputKb, bitDepth: format.bitDepth, fullRange: fullRange)
        self.dither = format.bitDepth == 8 ? dither.tile(lookPrecision: lookPrecision, top: 255) : nil
        memo = !reference && format.bitDepth == 8 && hdr == nil && self.dither == nil ? YCbCrMemo8() : nil
        #if _endian(little)
        if !reference && format.bytesPerSample == 2 { lattice = makeLattice() }
        #endif
    }

    /// A grader for SDR clips (the library's entry point).
    public init?(engine: LUTEngine, format: YCbCrFrameFormat, width: Int, height: Int, matrix: VideoColor.Matrix, fullRange: Bool,
                 reference: Bool = false, dither: Dither = .none, lookPrecision: Double = 0) {
        self.init(engine: engine, format: format, width: width, height: height, matrix: matrix, fullRange: fullRange,
                  reference: reference, hdr: nil, dither: dither, lookPrecision: lookPrecision)
    }

    /// How fast an excursion beyond the cube fades as the look moves the face it crossed: gone
    /// when the face moves by 1/32 of the range (8 codes at 8 bits) or more.
    static let faceRamp: Float = 32

    /// Grades one frame of `format.frameBytes(width:height:)` bytes in place.
    public func grade(_ frame: UnsafeMutableRawPointer) {
        if let memo, format.bytesPerSample == 1 {
            gradeMemoized(frame.bindMemory(to: UInt8.self, capacity: format.frameBytes(width: width, height: height)), memo: memo)
        } else if let lattice {
            gradeFromLattice(frame.bindMemory(to: UInt16.self, capacity: format.frameBytes(width: width, height: height) / 2),
                             lattice: lattice)
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
                       Code: FixedWidthInteger & UnsignedInteger & SendableMetatype>(_ samples: UnsafeMutablePointer<Sample>, codes: Code.Type) {
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
    func forEachChunkOfBands<Sample>(_ samples: UnsafeMutablePointer<Sample>,
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
    struct Planes<Sample>: Sendable {
        let luma: DisjointRegions<UnsafeMutablePointer<Sample>>
        let blue: DisjointRegions<UnsafeMutablePointer<Sample>>
        let red: DisjointRegions<UnsafeMutablePointer<Sample>>
    }

    /// Chroma row `band`'s number of luma rows, and where its luma, blue and red samples start.
    @inline(__always)
    func rowsAndPlanes<Sample>(of band: Int, planes: Planes<Sample>, chromaWidth: Int)
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
                target[0] = truncatedCode(unitClamped(rgb.x) * engineMax + 0.5)
                target[1] = truncatedCode(unitClamped(rgb.y) * engineMax + 0.5)
                target[2] = truncatedCode(unitClamped(rgb.z) * engineMax + 0.5)
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
        red: UnsafeMutablePointer<Sample>, conversion c: YCbCrConversion, _ graded: (_ index: Int, _ chroma: Int) -> SIMD3<Float>
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
                let seen = hdr.rendition(of: SIMD3(unitClamped(rgb.x), unitClamped(rgb.y), unitClamped(rgb.z)))
                renditions[row * width + x] = SIMD4(seen.code, seen.headroom)
                let target = scratch + (row * width + x) * 3
                target[0] = truncatedCode(unitClamped(seen.code.x) * engineMax + 0.5)
                target[1] = truncatedCode(unitClamped(seen.code.y) * engineMax + 0.5)
                target[2] = truncatedCode(unitClamped(seen.code.z) * engineMax + 0.5)
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
            return Self.kept(rgb, clamped: SIMD3(unitClamped(rgb.x), unitClamped(rgb.y), unitClamped(rgb.z)),
                             result: hdr.signal(of: graded, headroom: seen.w))
        }
    }

    /// `graded`'s rule for a result in Float: the change from the clamped colour added to the
    /// unclamped one, the excursion beyond the cube faded as the look moves the face it crossed.
    @inline(__always)
    static func kept(_ value: SIMD3<Float>, clamped: SIMD3<Float>, result: SIMD3<Float>) -> SIMD3<Float> {
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
    static func graded<Sample: FixedWidthInteger & UnsignedInteger>(_ rgb: SIMD3<Float>,
                                                                          _ looked: UnsafeMutablePointer<Sample>) -> SIMD3<Float> {
        let engineMax = Float(Sample.max), inverseMax = 1 / Float(Sample.max)
        @inline(__always)
        func graded(_ value: Float, _ looked: Sample) -> Float {
            let clamped = unitClamped(value)
            let change = (codeValue(looked) - codeValue(truncatedCode(clamped * engineMax + 0.5) as Sample)) * inverseMax
            let kept = max(0, 1 - faceRamp * abs(change))
            return clamped + change + (value - clamped) * kept
        }
        return SIMD3(graded(rgb.x, looked[0]), graded(rgb.y, looked[1]), graded(rgb.z, looked[2]))
    }

}