import CLittleCMS
import ColorCubeCore
import ColorCubeLooks
import ColorCubeImaging

/// ICC device-link profiles (.icc, .icm, .pf) that hold a look as one RGB-to-RGB colour table,
/// written and read with Little CMS. Photoshop (Edit > Convert to Profile > Device Link),
/// ImageMagick's `-profile` and Little CMS's `jpgicc -l` apply them.
///
/// Any other class of profile is read as OpenColorIO reads it, by `ICCDisplayProfile`: an RGB
/// matrix/TRC (display) profile is the chain from D65 XYZ to the display's code values; any
/// other profile is refused with what it is.
///
/// Layout written: an ICC 4.3 profile of class `link`, colour space RGB and "PCS" RGB (in a device
/// link the PCS field names the output space), whose AToB0 tag is a lutAtoBType pipeline of identity
/// A curves, one N^3 CLUT of 16-bit values and identity B curves, plus description and copyright
/// tags. The ICC CLUT runs the other way round from `ColorCube`: its first input channel (red)
/// varies slowest, so entry (r, g, b) sits at `b + N * (g + N * r)`. Values are clamped to 0...1 and
/// rounded to the nearest 1/65535, which is all a 16-bit CLUT can hold; ICC grids have at most 255
/// points per axis, so a 256-cube must be resampled first.
public struct DeviceLinkFormat: LUTFileFormat {
    public init() {}

    public var name: String { "icc" }
    public var displayName: String { "ICC device link (RGB to RGB)" }
    public var noun: String { "an ICC device link" }
    public var extensions: [String] { ["icc", "icm", "pf"] }
    public var clampsValues: Bool { true }
    public var sizeDescription: String { "2...255: an ICC colour table holds at most 255 points per axis" }
    public var largestSize: Int? { Self.sizeRange.upperBound }

    public func canHold(size: Int) -> Bool { Self.sizeRange.contains(size) }

    /// An ICC header: the signature "acsp" at byte 36.
    public func sniff(_ head: [UInt8]) -> Bool {
        head.count >= 40 && head[36..<40].elementsEqual("acsp".utf8)
    }

    /// Reads a device link as one cube (`decode`), any other profile as `ICCDisplayProfile`.
    public func read(path: String, options: LUTReadOptions) throws -> Look {
        let bytes = try BinaryFile.readAll(path: path)
        guard Self.isDeviceLink(bytes) else {
            let profile = try ICCDisplayProfile(bytes: bytes, path: path)
            return Look(transform: profile.transform, format: self, title: profile.title)
        }
        return Look(cube: try Self.decode(bytes, path: path), format: self)
    }

    /// For `info`: a device link is its format's name; a display profile says what it is, its
    /// description and which way it runs.
    public func describe(_ look: Look) -> String {
        guard look.plainTable == nil else { return displayName }
        return "ICC matrix/TRC profile" + (look.title.map { " \"\($0.prefix(80))\"" } ?? "")
            + ", read as OpenColorIO reads it: D65 XYZ to display code values"
    }

    /// True when the header's profile class (bytes 12 to 15) is "link".
    static func isDeviceLink(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 16 && bytes[12..<16].elementsEqual("link".utf8)
    }

    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        try Self.write(table, title: title, to: path, displayPath: displayPath)
    }

    /// Grid points per axis an ICC CLUT can hold (the count is stored in one byte).
    public static let sizeRange = 2...255
    /// The lattice size a device link without a CLUT (curves or matrices only) is sampled at.
    public static let defaultSamplingSize = 33

    /// Index of lattice node (r, g, b) in an ICC CLUT, where the last channel (blue) varies fastest.
    @inlinable
    public static func blueFastestIndex(r: Int, g: Int, b: Int, size: Int) -> Int {
        b + size * (g + size * r)
    }

    // MARK: Writing

    /// The bytes of a device link holding `table`; `title` becomes the profile description.
    /// - Throws: `ConversionError.unsupportedSize` (naming `path`) when the size is above 255,
    ///   `.libraryFailed` when Little CMS cannot build the profile.
    public static func encode(_ table: some CubeTable, title: String, path: String) throws(ConversionError) -> [UInt8] {
        let size = table.size
        try DeviceLinkFormat().validate(size: size, bitDepth: nil, path: path)
        var codes = [cmsUInt16Number](repeating: 0, count: size * size * size * 3)
        for b in 0..<size {
            for g in 0..<size {
                for r in 0..<size {
                    let entry = table.entry(at: ColorCube.redFastestIndex(r: r, g: g, b: b, size: size))
                    let offset = 3 * blueFastestIndex(r: r, g: g, b: b, size: size)
                    codes[offset] = code(entry.x)
                    codes[offset + 1] = code(entry.y)
                    codes[offset + 2] = code(entry.z)
                }
            }
        }
        func failure(_ step: String) -> ConversionError {
            .libraryFailed(path: path, library: "Little CMS", step: step)
        }
        guard let profile = cmsCreateProfilePlaceholder(nil) else { throw failure("create a profile") }
        defer { cmsCloseProfile(profile) }
        cmsSetProfileVersion(profile, 4.3)
        cmsSetDeviceClass(profile, cmsSigLinkClass)
        cmsSetColorSpace(profile, cmsSigRgbData)
        cmsSetPCS(profile, cmsSigRgbData)
        cmsSetHeaderRenderingIntent(profile, CCMS_INTENT_PERCEPTUAL)

        guard let pipeline = cmsPipelineAlloc(nil, 3, 3) else { throw failure("allocate a pipeline") }
        defer { cmsPipelineFree(pipeline) }
        // lutAtoBType stores A curves, CLUT and B curves together; identity curves (nil) keep the
        // table as the whole look.
        guard let curvesA = cmsStageAllocToneCurves(nil, 3, nil),
              cmsPipelineInsertStage(pipeline, cmsAT_END, curvesA) != 0 else { throw failure("add input curves") }
        guard let clut = codes.withUnsafeBufferPointer({ cmsStageAllocCLut16bit(nil, cmsUInt32Number(size), 3, 3, $0.baseAddress) }),
              cmsPipelineInsertStage(pipeline, cmsAT_END, clut) != 0 else { throw failure("build a \(size)-point colour table") }
        guard let curvesB = cmsStageAllocToneCurves(nil, 3, nil),
              cmsPipelineInsertStage(pipeline, cmsAT_END, curvesB) != 0 else { throw failure("add output curves") }
        guard cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline)) != 0 else { throw failure("write the AToB0 tag") }
        try writeText(title.isEmpty ? "colorcube look" : title, tag: cmsSigProfileDescriptionTag, profile: profile, failure: failure("write the description"))
        try writeText("No copyright, use freely", tag: cmsSigCopyrightTag, profile: profile, failure: failure("write the copyright"))
        let bytes = ICCProfiles.serialize(profile)
        guard !bytes.isEmpty else { throw failure("serialize the profile") }
        return bytes
    }

    /// Writes `table` as a device link to `path` (created or truncated); `displayPath` names it in errors.
    /// - Throws: as `encode`, or `FileError` when the file cannot be written.
    public static func write(_ table: some CubeTable, title: String, to path: String, displayPath: String? = nil) throws {
        let bytes = try encode(table, title: title, path: displayPath ?? path)
        let file = try OutputFile(path: path, displayPath: displayPath)
        try bytes.withUnsafeBytes { try file.write($0) }
        try file.close()
    }

    private static func writeText(_ text: String, tag: cmsTagSignature, profile: cmsHPROFILE,
                                  failure: @autoclosure () -> ConversionError) throws(ConversionError) {
        guard let mlu = cmsMLUalloc(nil, 1) else { throw failure() }
        defer { cmsMLUfree(mlu) }
        // Plain ASCII keeps the tag readable by every ICC reader.
        let ascii = String(text.unicodeScalars.map { $0.isASCII && $0.value >= 32 ? Character($0) : "?" })
        guard cmsMLUsetASCII(mlu, "en", "US", ascii) != 0,
              cmsWriteTag(profile, tag, UnsafeRawPointer(mlu)) != 0 else { throw failure() }
    }

    /// The 16-bit code for a value, clamped to 0...1; NaN gives 0.
    @inline(__always)
    static func code(_ value: Float) -> cmsUInt16Number {
        var clamped = Double(value)
        if !(clamped > 0) { clamped = 0 }  // also NaN
        if clamped > 1 { clamped = 1 }
        return cmsUInt16Number(clamped * 65535 + 0.5)
    }

    // MARK: Reading

    /// Decodes device-link bytes by running Little CMS over every lattice node.
    ///
    /// The lattice has the size of the profile's colour table (its first CLUT stage), else
    /// `defaultSamplingSize`. A table colorcube wrote reads back node for node, within a rounding
    /// step of Little CMS's 16-bit interpolation.
    /// `read` calls it for a profile whose header says it is a device link.
    /// - Throws: `LUTFileError.undecodable` when Little CMS cannot parse the bytes, `.unsupported`
    ///   when the link is not from RGB to RGB.
    static func decode(_ bytes: [UInt8], path: String) throws(LUTFileError) -> ColorCube {
        guard let profile = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            throw .undecodable(path: path, reason: "not an ICC profile Little CMS can read")
        }
        defer { cmsCloseProfile(profile) }
        guard cmsGetColorSpace(profile) == cmsSigRgbData, cmsGetPCS(profile) == cmsSigRgbData else {
            throw .unsupported(path: path, reason: "this device link converts \(signatureText(cmsGetColorSpace(profile).rawValue)) "
                + "to \(signatureText(cmsGetPCS(profile).rawValue)); colorcube reads RGB-to-RGB links")
        }
        let size = gridSize(of: profile) ?? defaultSamplingSize
        var handles: [cmsHPROFILE?] = [profile]
        let flags = CCMS_FLAGS_NOOPTIMIZE | CCMS_FLAGS_NOCACHE
        guard let transform = cmsCreateMultiprofileTransform(&handles, 1, CCMS_TYPE_RGB_FLT, CCMS_TYPE_RGB_FLT,
                                                             CCMS_INTENT_PERCEPTUAL, flags) else {
            throw .unsupported(path: path, reason: "Little CMS cannot build a transform from this device link")
        }
        defer { cmsDeleteTransform(transform) }
        let identity: ColorCube
        do {
            identity = try ColorCube.identity(size: size)
        } catch {
            throw .unsupported(path: path, reason: "colour table of \(size) points per axis is outside 2...256")
        }
        // RGBA entries in, RGB out per row of red: run one row at a time through the transform.
        var input = [Float](repeating: 0, count: size * 3)
        var output = [Float](repeating: 0, count: size * 3)
        var values = identity.values
        for row in 0..<(size * size) {
            for r in 0..<size {
                let source = 4 * (row * size + r)
                input[3 * r] = values[source]
                input[3 * r + 1] = values[source + 1]
                input[3 * r + 2] = values[source + 2]
            }
            input.withUnsafeBytes { from in
                output.withUnsafeMutableBytes { to in
                    cmsDoTransform(transform, from.baseAddress, to.baseAddress, cmsUInt32Number(size))
                }
            }
            for r in 0..<size {
                let target = 4 * (row * size + r)
                values[target] = output[3 * r]
                values[target + 1] = output[3 * r + 1]
                values[target + 2] = output[3 * r + 2]
            }
        }
        do {
            return try ColorCube(size: size, values: values)
        } catch {
            throw .unsupported(path: path, reason: String(describing: error))
        }
    }

    /// Points per axis of the first colour table in the AToB0 pipeline, or nil when it has none.
    private static func gridSize(of profile: cmsHPROFILE) -> Int? {
        guard cmsIsTag(profile, cmsSigAToB0Tag) != 0, let tag = cmsReadTag(profile, cmsSigAToB0Tag) else { return nil }
        let pipeline = OpaquePointer(tag)
        var stage = cmsPipelineGetPtrToFirstStage(pipeline)
        while let current = stage {
            if cmsStageType(current) == cmsSigCLutElemType, cmsStageInputChannels(current) == 3 {
                // The sampler visits every grid node once; the count is size^3.
                var visits = 0
                let inspected = withUnsafeMutablePointer(to: &visits) { counter in
                    cmsStageSampleCLut16bit(current, { _, _, cargo in
                        cargo?.assumingMemoryBound(to: Int.self).pointee += 1
                        return 1
                    }, counter, cmsUInt32Number(SAMPLER_INSPECT))
                }
                guard inspected != 0 else { return nil }
                return ColorCube.size(entryCount: visits)
            }
            stage = cmsStageNext(current)
        }
        return nil
    }

    /// A four-character ICC signature as text, e.g. "mntr".
    private static func signatureText(_ value: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters()
    }
}

private extension String {
    func trimmingCharacters() -> String {
        String(self.reversed().drop(while: { $0 == " " }).reversed())
    }
}
