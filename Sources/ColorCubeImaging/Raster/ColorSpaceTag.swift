/// What an image file says about the colour space of its code values.
public enum ColorSpaceTag: Sendable, Equatable {
    /// No tag: read as sRGB.
    case unspecified
    /// Tagged sRGB (a PNG sRGB chunk, or an embedded profile that describes sRGB).
    case sRGB
    /// An embedded ICC profile.
    case icc(ICCProfileData)
}

/// The bytes of an embedded ICC profile and the name the file gave it.
public struct ICCProfileData: Sendable, Equatable {
    public var bytes: [UInt8]
    public var name: String

    public init(bytes: [UInt8], name: String = "ICC profile") {
        self.bytes = bytes
        self.name = name
    }
}
