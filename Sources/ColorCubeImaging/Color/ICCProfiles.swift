import CLittleCMS

/// ICC profiles colorcube writes itself.
public enum ICCProfiles {
    /// An sRGB profile made by Little CMS, for tagging outputs whose format has no sRGB flag (JPEG).
    public static let sRGB: [UInt8] = {
        guard let profile = cmsCreate_sRGBProfile() else { return [] }
        defer { cmsCloseProfile(profile) }
        return serialize(profile)
    }()

    /// The bytes of an open Little CMS profile, with the header's creation date and time (bytes
    /// 24..<36, which Little CMS sets to the moment the profile was made) zeroed, so that the same
    /// profile always gives the same bytes and files that embed it are deterministic.
    public static func serialize(_ profile: cmsHPROFILE) -> [UInt8] {
        var length: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &length) != 0, length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let saved = bytes.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &length) }
        guard saved != 0 else { return [] }
        if bytes.count >= 128 {
            bytes.replaceSubrange(24..<36, with: repeatElement(0, count: 12))
        }
        return bytes
    }
}
