import CLittleCMS

/// ICC profiles colorcube writes itself.
///
/// Every profile colorcube serialises goes through `serialize(_:)`, which makes its bytes depend
/// only on the profile's content: Little CMS stamps a profile with the time it was created, and
/// that stamp is replaced by `fixedCreationDate`, so two runs on different days write identical
/// files.
public enum ICCProfiles {
    /// An sRGB profile made by Little CMS, for tagging outputs whose format has no sRGB flag (JPEG).
    public static let sRGB: [UInt8] = {
        guard let profile = cmsCreate_sRGBProfile() else { return [] }
        defer { cmsCloseProfile(profile) }
        return serialize(profile)
    }()

    /// The creation date written into every profile colorcube makes: 2025-01-01 00:00:00 (UTC),
    /// as the ICC header's dateTimeNumber (year, month, day, hour, minute, second).
    public static let fixedCreationDate: [UInt16] = [2025, 1, 1, 0, 0, 0]

    /// Byte range of the header's creation date (six big-endian UInt16).
    public static let creationDateBytes = 24..<36
    /// Byte range of the header's profile ID (an MD5 digest, or zeros for "not computed").
    public static let profileIDBytes = 84..<100

    /// The bytes of an open Little CMS profile, with the header made deterministic
    /// (`normalizeHeader`); empty when Little CMS cannot save it.
    public static func serialize(_ profile: cmsHPROFILE) -> [UInt8] {
        var length: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &length) != 0, length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let saved = bytes.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &length) }
        guard saved != 0 else { return [] }
        normalizeHeader(&bytes)
        return bytes
    }

    /// Sets the creation date of a serialised profile to `fixedCreationDate` and its profile ID
    /// to zeros.
    ///
    /// The ID is an MD5 digest of the whole profile with the ID, flags and rendering intent
    /// zeroed, so a date change would invalidate a computed one; zeros mean "not computed", which
    /// every reader accepts. (Little CMS writes zeros unless asked to compute the digest; clearing it
    /// here keeps that true whatever the library's version.) Bytes shorter than a 128-byte header are
    /// left as they are.
    public static func normalizeHeader(_ bytes: inout [UInt8]) {
        guard bytes.count >= 128 else { return }
        for (field, value) in fixedCreationDate.enumerated() {
            bytes[creationDateBytes.lowerBound + 2 * field] = UInt8(value >> 8)
            bytes[creationDateBytes.lowerBound + 2 * field + 1] = UInt8(value & 0xFF)
        }
        for index in profileIDBytes { bytes[index] = 0 }
    }
}
