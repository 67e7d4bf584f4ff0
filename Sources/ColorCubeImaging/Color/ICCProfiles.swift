import CLittleCMS

/// ICC profiles colorcube writes itself.
public enum ICCProfiles {
    /// An sRGB profile made by Little CMS, for tagging outputs whose format has no sRGB flag (JPEG).
    public static let sRGB: [UInt8] = {
        guard let profile = cmsCreate_sRGBProfile() else { return [] }
        defer { cmsCloseProfile(profile) }
        return serialize(profile)
    }()

    /// The bytes of an open Little CMS profile.
    public static func serialize(_ profile: cmsHPROFILE) -> [UInt8] {
        var length: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &length) != 0, length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let saved = bytes.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &length) }
        return saved != 0 ? bytes : []
    }
}
