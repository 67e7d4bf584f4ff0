import ColorCubeCore
import ColorCubeLooks

/// Resamples a look to another lattice size: a 65-cube from Resolve or a 144-cube Hald to the 64
/// that Core Image takes, or a 64 down to the 33 that .cube files usually hold.
///
/// Node (r, g, b) of the new cube holds the old cube read at (r, g, b) / (newSize - 1) with
/// `CubeSampler`, the scalar definition the LUT engine's kernels follow, so a resampled look
/// matches what `apply` would have produced at those colours. Trilinear and tetrahedral
/// interpolation reproduce affine looks (the identity among them) exactly at every size, up to
/// Float rounding; other looks lose detail finer than the new lattice. Alpha is 1.
public enum CubeResampler {
    /// `table` resampled to `size` points per axis.
    /// - Throws: `CubeError.invalidSize` when `size` is outside 2...256.
    public static func resample(_ table: some CubeTable, to size: Int,
                                interpolation: Interpolation = .trilinear) throws(CubeError) -> ColorCube {
        let source = ColorCube(table)
        return try resample(source, to: size, interpolation: interpolation)
    }

    /// `cube` resampled to `size` points per axis (see the type's documentation).
    /// - Throws: `CubeError.invalidSize` when `size` is outside 2...256.
    public static func resample(_ cube: ColorCube, to size: Int,
                                interpolation: Interpolation = .trilinear) throws(CubeError) -> ColorCube {
        guard ColorCube.sizeRange.contains(size) else { throw .invalidSize(size) }
        if size == cube.size { return cube }
        let sampler = CubeSampler(cube: cube, interpolation: interpolation)
        return try ColorCube(size: size) { sampler.sample($0) }
    }
}
