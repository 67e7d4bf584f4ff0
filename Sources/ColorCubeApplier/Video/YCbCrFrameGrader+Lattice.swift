import ColorCubeCore
import ColorCubeEngine
import _CYCbCrKernel

/// Deeper clips, graded from the look sampled on a lattice over their RGB (`YCbCrLattice`).
extension YCbCrFrameGrader {
    /// The lattice of this grader's graded colours.
    func makeLattice() -> YCbCrLattice {
        let grader = self
        let toSDR = hdr.map { $0.mode != .keep } ?? false
        return YCbCrLattice(input: conversion, output: outputConversion, keepsExcursion: !toSDR, rendition: toSDR ? hdr : nil) {
            grader.results(ofColours: $0, into: $1, count: $2, lookOnly: toSDR)
        }
    }

    /// The Float path's graded colour (output RGB, not clamped, before the excursion rule) of
    /// `count` colours inside the cube: the same arithmetic as `gradeBand`, a colour at a time.
    /// `lookOnly`: the look's result of the colours as SDR code values, without the HDR mapping.
    func results(ofColours colours: UnsafePointer<SIMD3<Float>>, into results: UnsafeMutablePointer<SIMD4<Float>>, count: Int,
                 lookOnly: Bool = false) {
        let scratch = UnsafeMutablePointer<UInt16>.allocate(capacity: count * 3)
        defer { scratch.deallocate() }
        @inline(__always)
        func quantize(_ rgb: SIMD3<Float>, _ target: UnsafeMutablePointer<UInt16>) {
            target[0] = truncatedCode(unitClamped(rgb.x) * 65535 + 0.5)
            target[1] = truncatedCode(unitClamped(rgb.y) * 65535 + 0.5)
            target[2] = truncatedCode(unitClamped(rgb.z) * 65535 + 0.5)
        }
        guard let hdr, !lookOnly else {
            for k in 0..<count { quantize(colours[k], scratch + k * 3) }
            engine.apply(scratch, count, parallel: false)
            for k in 0..<count { results[k] = SIMD4(Self.graded(colours[k], scratch + k * 3), 0) }
            return
        }
        let renditions = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: count)
        defer { renditions.deallocate() }
        for k in 0..<count {
            let seen = hdr.rendition(of: colours[k])
            renditions[k] = SIMD4(seen.code, seen.headroom)
            quantize(seen.code, scratch + k * 3)
        }
        engine.apply(scratch, count, parallel: false)
        for k in 0..<count {
            let seen = renditions[k]
            let graded = Self.graded(SIMD3(seen.x, seen.y, seen.z), scratch + k * 3)
            results[k] = SIMD4(hdr.mode == .keep ? hdr.signal(of: graded, headroom: seen.w) : graded, 0)
        }
    }

    /// Grades a frame of 16-bit samples (native-endian) from `lattice`, in bands across cores.
    func gradeFromLattice(_ samples: UnsafeMutablePointer<UInt16>, lattice: YCbCrLattice) {
        let chromaWidth = format.chromaWidth(width)
        forEachChunkOfBands(samples) { planes, bands in
            var description = lattice.kernelLattice
            for band in bands {
                let (rows, luma, blue, red) = rowsAndPlanes(of: band, planes: planes, chromaWidth: chromaWidth)
                var samples = ccycbcr_band16(luma: luma, blue: blue, red: red, width: Int64(width), rows: Int64(rows),
                                             shift_x: Int64(format.chromaShiftX))
                ccycbcr_grade16(&description, &samples)
            }
        }
    }
}
