import ColorCubeConverter

extension FuzzTarget {
    /// ICC device links through Little CMS, sampled on the profile's own grid.
    static let deviceLink = FuzzTarget(name: "icc") { bytes in
        _ = try? DeviceLinkFormat.decode(Array(bytes), path: "fuzz.icc")
    }
}
