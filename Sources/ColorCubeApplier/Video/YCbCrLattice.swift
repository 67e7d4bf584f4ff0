import ColorCubeCore
import _CYCbCrKernel

/// A 9- to 16-bit clip's look, with its HDR mapping if any, sampled once per clip on a lattice
/// over the clip's RGB and interpolated for every pixel by a vectorised kernel (`ccycbcr_grade16`).
///
/// `YCbCrFrameGrader`'s arithmetic for one pixel is a matrix to RGB, the graded colour of that
/// RGB clamped to the cube (the HDR rendition, the look on 16-bit codes, the way back), the
/// excursion rule, and a matrix back. Everything but the middle step is a few multiply-adds; the
/// middle step is a function of the clamped colour alone, so it is computed at the nodes of a
/// 65-point lattice over the cube once per clip and read with tetrahedral interpolation, whatever
/// the look and the transfer functions cost (zimg's lesson: the expensive curves as tables, the
/// rest as vector arithmetic). Where the processor has AVX2 and FMA the kernel takes eight pixels
/// at once through branch-free passes (the tetrahedron picked with selects), each pixel's corners
/// read a node at a time between them; elsewhere, a pixel at a time.
///
/// A function linear in the colour is interpolated exactly, so an identity look returns every
/// code. A look that is itself a 33- or 65-point table interpolated tetrahedrally is reproduced
/// exactly on SDR clips too (the lattice's tetrahedra subdivide the look's), up to the Float
/// path's rounding of the colour to 16-bit codes. HDR mappings and smooth looks are resampled at
/// 1/64 of the range (`VideoLatticeGraderTests` measures it against the Float path).
final class YCbCrLattice: @unchecked Sendable {
    static let nodesPerSide = 65

    /// Written once by `init`: red fastest, then green, then blue.
    private let nodes: UnsafeMutablePointer<SIMD4<Float>>
    private let input: YCbCrConversion
    private let output: YCbCrConversion
    private let keepsExcursion: Bool
    private let codeMax: Float
    /// For an HDR clip made SDR: its rendition, which the kernel computes before reading the
    /// lattice (then the look alone, over SDR code values).
    private let rendition: UnsafeMutablePointer<ccycbcr_rendition>?
    /// The kernel's scalar loop even where the vector one would run (for tests).
    var onePixelAtATime = false

    /// - Parameters:
    ///   - input, output: the clip's matrix and range, and the output's.
    ///   - keepsExcursion: whether a colour beyond the cube keeps its excursion (`YCbCrFrameGrader.kept`).
    ///   - rendition: for an HDR clip made SDR, its mapping: the kernel computes the SDR
    ///     rendition of each pixel (from the formulas `HDRFrameMapping`'s tables sample, in vector
    ///     arithmetic), and the lattice holds the look alone. Its SDR curve is too
    ///     steep near black, where saturated colours put a channel, for a lattice over the signal.
    ///   - results: the graded colour (output RGB, not clamped) of `count` colours in the cube
    ///     (the look's result of SDR code values, with `rendition`). Called from several threads at once.
    init(input: YCbCrConversion, output: YCbCrConversion, keepsExcursion: Bool, rendition: HDRFrameMapping? = nil,
         results: @Sendable (_ colours: UnsafePointer<SIMD3<Float>>, _ into: UnsafeMutablePointer<SIMD4<Float>>, _ count: Int) -> Void) {
        self.input = input
        self.output = output
        self.keepsExcursion = keepsExcursion
        codeMax = input.codeMax
        if let description = rendition?.kernelRendition {
            self.rendition = .allocate(capacity: 1)
            self.rendition?.initialize(to: description)
        } else {
            self.rendition = nil
        }

        let side = Self.nodesPerSide, plane = side * side
        nodes = .allocate(capacity: plane * side)
        let table = DisjointRegions(nodes)
        let step = 1 / Float(side - 1)
        // One plane of constant blue at a time, each thread with its own list of colours.
        ParallelLoop.forEachChunk(of: side, chunkSize: 1) { blues in
            let colours = UnsafeMutablePointer<SIMD3<Float>>.allocate(capacity: plane)
            defer { colours.deallocate() }
            for blue in blues {
                for green in 0..<side {
                    for red in 0..<side {
                        colours[green * side + red] = SIMD3(Float(red), Float(green), Float(blue)) * step
                    }
                }
                results(colours, table.start(of: blue * plane), plane)
            }
        }
    }

    deinit {
        nodes.deallocate()
        rendition?.deallocate()
    }

    /// The kernel's description of the lattice, valid while the lattice lives.
    var kernelLattice: ccycbcr_lattice {
        ccycbcr_lattice(nodes: UnsafeRawPointer(nodes).assumingMemoryBound(to: Float.self), nodes_per_side: Int64(Self.nodesPerSide),
                        input: input.kernelMatrix, output: output.kernelMatrix, keeps_excursion: keepsExcursion ? 1 : 0,
                        face_ramp: YCbCrFrameGrader.faceRamp, code_max: codeMax, rendition: rendition.map { UnsafePointer($0) },
                        one_pixel_at_a_time: onePixelAtATime ? 1 : 0)
    }
}

extension YCbCrConversion {
    var kernelMatrix: ccycbcr_matrix {
        ccycbcr_matrix(kr: kr, kg: kg, kb: kb, red_to_red: redToRed, blue_to_blue: blueToBlue, red_to_green: redToGreen,
                       blue_to_green: blueToGreen, inverse_red_to_red: inverseRedToRed, inverse_blue_to_blue: inverseBlueToBlue,
                       luma_offset: lumaOffset, luma_unit: lumaUnit, chroma_offset: chromaOffset, chroma_unit: chromaUnit,
                       inverse_luma_unit: inverseLumaUnit, inverse_chroma_unit: inverseChromaUnit)
    }
}
