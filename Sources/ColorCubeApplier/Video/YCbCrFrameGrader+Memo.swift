import ColorCubeEngine
import _CYCbCrKernel

/// 8-bit clips, graded from the results remembered by colour (`YCbCrMemo8`).
extension YCbCrFrameGrader {
    func gradeMemoized(_ samples: UnsafeMutablePointer<UInt8>, memo: YCbCrMemo8) {
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
            target[0] = truncatedCode(unitClamped(x.x) * 255 + 0.5)
            target[1] = truncatedCode(unitClamped(x.y) * 255 + 0.5)
            target[2] = truncatedCode(unitClamped(x.z) * 255 + 0.5)
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
}
