import ColorCubeConverter
import ColorCubeLooks

extension Diagnostics {
    /// The warning for a reference whose table looks spatially edited (see `Roughness`), shared by
    /// convert, apply and info.
    static func roughnessWarning(_ roughness: Roughness, path: String) -> String {
        func figures(_ v: SIMD3<Double>) -> String {
            [v.x, v.y, v.z].map { Diagnostics.decimal($0, places: 2) }.joined(separator: "/")
        }
        return "\(path) looks spatially edited (blurred, sharpened, resized or given noise?), which ruins a LUT: "
            + "curvature along red/green/blue \(figures(roughness.curvature)) code values "
            + "(colour adjustments stay below \(Diagnostics.decimal(roughness.curvatureLimit, places: 2))), "
            + "zig-zag \(figures(roughness.zigzag)) (below \(Diagnostics.decimal(Roughness.zigzagLimit, places: 2))); "
            + "edit a fresh reference with colour adjustments only"
    }
}
