/// Something about a look that every command using it tells the user, computed once by `Look`.
public enum LookWarning: Sendable {
    /// A reference image's colours were converted from this embedded profile to sRGB (a note).
    case convertedFromProfile(String)
    /// The look came from a lossily compressed image (this format): its noise is in the look.
    case lossySource(format: String)
    /// The reference looks edited with spatial tools, not colour adjustments only.
    case spatialEdit(Roughness)
    /// An ICC display profile (CIE XYZ to a display's codes) applied to RGB with no conversion to
    /// XYZ before it: the profile's path.
    case displayProfileOnRGB(path: String)

    /// True for what is only information, not a possible problem.
    public var isNote: Bool {
        if case .convertedFromProfile = self { return true }
        return false
    }
}
