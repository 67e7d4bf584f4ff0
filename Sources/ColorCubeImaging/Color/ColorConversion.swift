import CLittleCMS
import ColorCubeCore

/// Colour management with Little CMS: bringing images that embed an ICC profile into sRGB, the
/// space colorcube's looks are defined in.
///
/// Conversions use relative colorimetric intent with black point compensation, the choice that
/// keeps in-gamut colours as they are and maps the darkest black to sRGB black.
public enum ColorConversion {
    /// True when `profile` describes sRGB closely enough that converting would change no 8-bit
    /// code value by more than a rounding step (checked on a grid of colours, not by name).
    public static func isSRGB(_ profile: ICCProfileData) -> Bool {
        // Photos from one camera or phone share a profile: decide once per distinct profile.
        sRGBVerdicts.withLock { $0[profile.bytes] } ?? {
            let verdict = probeSRGB(profile)
            sRGBVerdicts.withLock { $0[profile.bytes] = verdict }
            return verdict
        }()
    }

    private static let sRGBVerdicts = Locked<[[UInt8]: Bool]>([:])

    private static func probeSRGB(_ profile: ICCProfileData) -> Bool {
        guard let transform = try? Transform(profile: profile, path: "", bitDepth: 16, channels: 3) else {
            return false
        }
        var probe: [UInt16] = []
        for r in stride(from: 0, through: 65535, by: 13107) {
            for g in stride(from: 0, through: 65535, by: 13107) {
                for b in stride(from: 0, through: 65535, by: 13107) {
                    probe += [UInt16(r), UInt16(g), UInt16(b)]
                }
            }
        }
        var converted = probe
        transform.apply(source: probe, destination: &converted, pixels: probe.count / 3)
        // 1.5 8-bit steps: profiles that call themselves sRGB differ from Little CMS's by about that.
        return zip(probe, converted).allSatisfy { abs(Int($0) - Int($1)) <= 385 }
    }

    /// A short description of the profile (its 'desc' tag), e.g. "Display P3".
    public static func describe(_ profile: ICCProfileData) -> String {
        guard let handle = profile.bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            return profile.name
        }
        defer { cmsCloseProfile(handle) }
        var buffer = [CChar](repeating: 0, count: 256)
        let length = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, 256)
        guard length > 1 else { return profile.name }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Converts `image` from its embedded profile to sRGB in place and tags it `.sRGB`; alpha is
    /// carried unchanged. Untagged images are left alone; an embedded profile that describes sRGB
    /// (see `isSRGB`) is only retagged, and 8-bit input then stays 8-bit.
    /// - Parameter promoteTo16Bit: convert 8-bit input into 16-bit output, to keep the precision of
    ///   the conversion (used when the result is a LUT rather than a photo).
    /// - Throws: `ImageError.badProfile` when the profile cannot be read or is not an RGB profile.
    public static func convertToSRGB(_ image: inout RasterImage, path: String, promoteTo16Bit: Bool = false) throws(ImageError) {
        guard case .icc(let profile) = image.colorSpace else { return }
        if ColorConversion.isSRGB(profile) {
            image.colorSpace = .sRGB
            return
        }
        let outputDepth = promoteTo16Bit && !image.pixels.isFloat ? 16 : image.bitDepth
        let transform = try Transform(profile: profile, path: path, bitDepth: image.bitDepth,
                                      outputBitDepth: outputDepth, channels: image.channels)
        let pixels = image.pixelCount
        // Same-size samples are converted in place: the image's own reference is dropped first so
        // that the buffer is not copied.
        switch image.pixels {
        case .eight(var samples) where outputDepth == 8:
            image.pixels = .eight([])
            transform.apply(inPlace: &samples, pixels: pixels)
            image.pixels = .eight(samples)
        case .eight(let source):
            var destination = [UInt16](repeating: 0, count: source.count)
            transform.apply(source: source, destination: &destination, pixels: pixels)
            image.pixels = .sixteen(destination)
        case .sixteen(var samples):
            image.pixels = .sixteen([])
            transform.apply(inPlace: &samples, pixels: pixels)
            image.pixels = .sixteen(samples)
        case .float(var samples):
            image.pixels = .float([])
            transform.apply(inPlace: &samples, pixels: pixels)
            image.pixels = .float(samples)
        }
        image.colorSpace = .sRGB
    }

    /// One Little CMS transform from an embedded profile to sRGB.
    final class Transform {
        private let handle: cmsHTRANSFORM

        init(profile: ICCProfileData, path: String, bitDepth: Int, outputBitDepth: Int? = nil, channels: Int) throws(ImageError) {
            guard let input = profile.bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
                throw .badProfile(path: path, reason: "Little CMS cannot read it")
            }
            defer { cmsCloseProfile(input) }
            guard cmsGetColorSpace(input) == cmsSigRgbData else {
                throw .badProfile(path: path, reason: "it is not an RGB profile")
            }
            guard let output = cmsCreate_sRGBProfile() else {
                throw .badProfile(path: path, reason: "cannot create the sRGB profile")
            }
            defer { cmsCloseProfile(output) }
            let inputFormat = Self.format(bitDepth: bitDepth, channels: channels)
            let outputFormat = Self.format(bitDepth: outputBitDepth ?? bitDepth, channels: channels)
            let flags = CCMS_FLAGS_BLACKPOINTCOMPENSATION | CCMS_FLAGS_COPY_ALPHA | CCMS_FLAGS_NOCACHE
            guard let handle = cmsCreateTransform(input, inputFormat, output, outputFormat,
                                                  CCMS_INTENT_RELATIVE_COLORIMETRIC, flags) else {
                throw .badProfile(path: path, reason: "Little CMS cannot convert it to sRGB")
            }
            self.handle = handle
        }

        deinit {
            cmsDeleteTransform(handle)
        }

        func apply<Source, Destination>(source: [Source], destination: inout [Destination], pixels: Int) {
            source.withUnsafeBytes { input in
                destination.withUnsafeMutableBytes { output in
                    cmsDoTransform(handle, input.baseAddress, output.baseAddress, cmsUInt32Number(pixels))
                }
            }
        }

        /// Converts samples in place (input and output formats of one size, which Little CMS
        /// allows on one buffer).
        func apply<Sample>(inPlace samples: inout [Sample], pixels: Int) {
            samples.withUnsafeMutableBytes { buffer in
                cmsDoTransform(handle, buffer.baseAddress, buffer.baseAddress, cmsUInt32Number(pixels))
            }
        }

        private static func format(bitDepth: Int, channels: Int) -> cmsUInt32Number {
            switch (bitDepth, channels) {
            case (8, 4): CCMS_TYPE_RGBA_8
            case (8, _): CCMS_TYPE_RGB_8
            case (32, 4): CCMS_TYPE_RGBA_FLT
            case (32, _): CCMS_TYPE_RGB_FLT
            case (_, 4): CCMS_TYPE_RGBA_16
            default: CCMS_TYPE_RGB_16
            }
        }
    }
}
