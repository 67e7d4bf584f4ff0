import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation

/// Lightroom and Camera Raw profiles (.xmp with `crs:RGBTable`): a 1D or 3D RGB table in one of
/// five spaces, which Camera Raw applies to linear ProPhoto RGB (see `RGBTableOp`).
///
/// Read, a profile is a look on photos' sRGB-encoded values: the photo to linear ProPhoto (the
/// SDK's matrix), the table with its conversions, and back. Written, a look is first seen from the
/// table's space (`prepared(_:size:)`), then baked to at most 32 points a side (Camera Raw reads no
/// larger table), and stored as Adobe's SDK stores it.
public struct CameraRawProfileFormat: LUTFileFormat {
    /// The space a written table is in.
    public var space: CameraRawProfileSpace
    /// The profile this value was read from, for `describe`; nil for a format that writes.
    public var profile: CameraRawProfile?

    public init(space: CameraRawProfileSpace = .srgb) {
        self.space = space
    }

    public var name: String { "xmp" }
    public var displayName: String { "Lightroom / Camera Raw profile (.xmp, RGB table)" }
    public var noun: String { "a Camera Raw profile" }
    public var extensions: [String] { ["xmp"] }
    public var clampsValues: Bool { true }
    public var sizeDescription: String { "2...32 points a side: Camera Raw reads no larger table" }
    public var largestSize: Int? { RGBTableOp.largest3D }
    public var preferredSize: Int { RGBTableOp.largest3D }
    public func canHold(size: Int) -> Bool { (2...RGBTableOp.largest3D).contains(size) }

    public func sniff(_ head: [UInt8]) -> Bool {
        let text = String(decoding: head, as: UTF8.self)
        return text.contains("camera-raw-settings") && text.contains("crs:")
    }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        let bytes: [UInt8]
        do {
            bytes = try BinaryFile.readAll(path: path, limit: CameraRawProfile.largestFile)
        } catch {
            guard case .tooLarge(_, let size, let limit) = error else { throw error }
            throw CameraRawProfileError.fileTooLarge(path: path, bytes: size ?? limit + 1, limit: limit)
        }
        let profile = try CameraRawProfile(bytes, path: path)
        var format = self
        format.profile = profile
        var look = Look(transform: Transform(CameraRawProfileSpace.photoToProPhoto + [profile.table] + CameraRawProfileSpace.proPhotoToPhoto),
                        format: format, title: profile.name)
        if !profile.keyMatches {
            look.notes.append("warning: its table's key \(profile.key.prefix(40)) is not the MD5 of its payload (\(profile.digest)); "
                + "applied as Camera Raw applies it, which finds the table by key and does not check it")
        }
        return look
    }

    public func describe(_ look: Look) -> String {
        guard let profile else { return displayName }
        let table = profile.table
        var parts = ["Camera Raw profile"]
        if let name = profile.name { parts[0] += " \"\(name.prefix(80))\"" }
        if let group = profile.group { parts.append("group \"\(group.prefix(80))\"") }
        let size = table.dimensions == 3 ? "\(table.divisions)x\(table.divisions)x\(table.divisions)" : "1D, \(table.divisions) points"
        parts.append("table \(size), \(table.primaries.name) primaries, \(table.gamma.name), \(table.gamut.name) gamut")
        parts.append("amount \(Self.percent(table.amountRange.lowerBound))...\(Self.percent(table.amountRange.upperBound)), "
            + "default \(Self.percent(profile.defaultAmount))")
        return parts.joined(separator: "; ")
    }

    private static func percent(_ amount: Double) -> String { "\(Int((amount * 100).rounded()))%" }

    /// `look` (on photos' sRGB-encoded values) as the table in `space` must hold it: from the
    /// table's encoded values to the photo's, the look, and back, through linear ProPhoto with the
    /// SDK's matrices, so Camera Raw's evaluation of the table gives the look back.
    ///
    /// In sRGB every node is a colour photos have, and the table samples the look there. In a
    /// wider space the result is the table itself, `size` points a side, fitted by least squares
    /// to the look over the photo's colours (`CameraRawTableFit`), so write it at that size; nodes
    /// outside the photo's gamut start from the look continued along its slope (`ExtendedLookOp`).
    public func prepared(_ look: Look, size: Int = RGBTableOp.largest3D) -> Look {
        var prepared = look
        let toPhoto = CameraRawProfileSpace.srgb.primaries.toTable.flatMap { try? MatrixOp(rows: $0) }
        let fromPhoto = CameraRawProfileSpace.srgb.primaries.fromTable.flatMap { try? MatrixOp(rows: $0) }
        guard space != .srgb, let toPhoto, let fromPhoto else {
            prepared.transform = Transform(space.toProPhoto + CameraRawProfileSpace.proPhotoToPhoto)
                .then(look.transform)
                .then(Transform([ExtendedSRGBCurveOp(encodes: false)] + (fromPhoto.map { [$0] } ?? []) + space.fromProPhoto))
            return prepared
        }
        let sampled = Transform(space.toProPhoto + [toPhoto, ExtendedSRGBCurveOp(encodes: true), ExtendedLookOp(look: look.transform),
                                                    ExtendedSRGBCurveOp(encodes: false), fromPhoto] + space.fromProPhoto)
        let fitted = CameraRawTableFit.table(look: look.transform, sampled: sampled, space: space, size: size)
        prepared.transform = fitted.map { Transform(cube: $0) } ?? sampled
        return prepared
    }

    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        let text = try Self.xmp(table, space: space, name: title)
        let file = try OutputFile(path: path, displayPath: displayPath)
        try text.withUnsafeBufferPointer { bytes throws(FileError) in try file.write(UnsafeRawBufferPointer(bytes)) }
        try file.close()
    }

    /// `table` as the profile stores it: 16-bit values clamped to 0...1, blue fastest.
    static func samples(_ table: some CubeTable) -> [UInt16] {
        let n = table.size
        var samples = [UInt16](repeating: 0, count: 3 * n * n * n)
        var point = 0
        for r in 0..<n {
            for g in 0..<n {
                for b in 0..<n {
                    let entry = table.entry(at: ColorCube.redFastestIndex(r: r, g: g, b: b, size: n))
                    for channel in 0..<3 {
                        let value = Double(entry[channel])
                        samples[3 * point + channel] = UInt16((value.isNaN ? 0 : min(max(value, 0), 1) * 65535).rounded())
                    }
                    point += 1
                }
            }
        }
        return samples
    }

    /// How far Camera Raw's reading of `prepared` written `size` points a side (as `write` stores
    /// it, applied to linear ProPhoto at full amount) is from `look` over photos' colours, in 8-bit
    /// codes: what writing the look as this profile changes. Nil when it cannot be baked.
    public func evaluationError(of prepared: Look, size: Int, against look: Look) -> BakingError? {
        guard let (table, _) = try? prepared.baked(size: size),
              let op = try? RGBTableOp(dimensions: 3, divisions: table.size, samples: Self.samples(table),
                                       primaries: space.primaries, gamma: space.gamma, gamut: .clip) else { return nil }
        let read = Transform(CameraRawProfileSpace.photoToProPhoto + [op] + CameraRawProfileSpace.proPhotoToPhoto)
        return TransformBaker.measure(read, against: look.transform)
    }

    /// The .xmp text of a profile named `name` whose table is `table` (over `space`'s encoded
    /// values), amount range 0 to 200%. The UUID is derived from the table's key and the name, so
    /// the same look gives the same bytes.
    static func xmp(_ table: some CubeTable, space: CameraRawProfileSpace, name: String) throws -> [UInt8] {
        let payload = RGBTablePayload(dimensions: 3, divisions: table.size, samples: samples(table), primaries: space.primaries,
                                      gamma: space.gamma, gamut: .clip, minimumAmount: 0, maximumAmount: 2).bytes
        guard let compressed = Zlib.compress(payload) else {
            throw CameraRawProfileError.compression(path: name, reason: "could not be made (zlib failed)")
        }
        let size = UInt32(payload.count)
        let binary = (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * UInt32($0))) } + compressed
        let key = MD5.hex(payload)
        let uuid = MD5.hex(Array((key + "\n" + name).utf8))
        let escaped = Self.escaped(name)
        let head = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="colorcube">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
               crs:PresetType="Look"
               crs:Cluster=""
               crs:UUID="\(uuid)"
               crs:SupportsAmount="True"
               crs:SupportsColor="True"
               crs:SupportsMonochrome="True"
               crs:SupportsHighDynamicRange="True"
               crs:SupportsNormalDynamicRange="True"
               crs:SupportsSceneReferred="True"
               crs:SupportsOutputReferred="True"
               crs:CameraModelRestriction=""
               crs:Copyright=""
               crs:ContactInfo=""
               crs:Version="14.0"
               crs:ProcessVersion="11.0"
               crs:ConvertToGrayscale="False"
               crs:RGBTable="\(key)"
               crs:Table_\(key)="
            """
        let tail = """
            "
               crs:HasSettings="True">
               <crs:Name>
                <rdf:Alt>
                 <rdf:li xml:lang="x-default">\(escaped)</rdf:li>
                </rdf:Alt>
               </crs:Name>
               <crs:ShortName>
                <rdf:Alt>
                 <rdf:li xml:lang="x-default"/>
                </rdf:Alt>
               </crs:ShortName>
               <crs:SortName>
                <rdf:Alt>
                 <rdf:li xml:lang="x-default"/>
                </rdf:Alt>
               </crs:SortName>
               <crs:Group>
                <rdf:Alt>
                 <rdf:li xml:lang="x-default">colorcube</rdf:li>
                </rdf:Alt>
               </crs:Group>
               <crs:Description>
                <rdf:Alt>
                 <rdf:li xml:lang="x-default"/>
                </rdf:Alt>
               </crs:Description>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>

            """
        return Array(head.utf8) + AdobeBase85.encode(binary) + Array(tail.utf8)
    }

    /// Text for an XML element's content.
    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
