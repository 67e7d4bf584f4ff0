@testable import ColorCubeConverter
import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation
import Testing

/// Every way an .xmp can fail to give a table, each refused with its own error, and hostile tables
/// refused before they cost memory.
@Suite struct CameraRawProfileErrorTests {
    /// An XMP whose table is `text` under `key`, with `extra` attributes.
    static func xmp(key: String, text: String, extra: String = "") -> [UInt8] {
        Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
             crs:PresetType="Look" \(extra) crs:RGBTable="\(key)" crs:Table_\(key)="\(text)"/>
            </rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    /// A table's text for `payload`, declaring `declared` bytes (default: its own size).
    static func text(_ payload: [UInt8], declared: Int? = nil, cut: Int = 0) -> String {
        let size = UInt32(declared ?? payload.count)
        let compressed = Zlib.compress(payload) ?? []
        let binary = (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * UInt32($0))) } + compressed.dropLast(cut)
        return String(decoding: AdobeBase85.encode(binary), as: UTF8.self)
    }

    /// A valid 2-point 3D payload with its fields as given.
    static func payload(divisions: UInt32 = 2, primaries: UInt32 = 0, gamma: UInt32 = 1, gamut: UInt32 = 0,
                        minimum: Double = 0, maximum: Double = 2) -> [UInt8] {
        var bytes: [UInt8] = []
        func put(_ value: UInt32) { bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }
        func put(_ value: Double) { bytes += (0..<8).map { UInt8(truncatingIfNeeded: value.bitPattern >> (8 * UInt64($0))) } }
        [1, 1, 3, divisions].forEach(put)
        bytes += [UInt8](repeating: 0, count: 6 * 8)
        [primaries, gamma, gamut].forEach(put)
        put(minimum)
        put(maximum)
        return bytes
    }

    static func read(_ bytes: [UInt8]) throws -> CameraRawProfile { try CameraRawProfile(bytes, path: "p.xmp") }

    @Test func aValidTinyTableReads() throws {
        let payload = Self.payload()
        let profile = try Self.read(Self.xmp(key: MD5.hex(payload), text: Self.text(payload)))
        #expect(profile.table.divisions == 2 && profile.keyMatches)
        // Zero differences from the SDK's identity values, which for 2 points are 1 and 65536
        // wrapped to 0: black becomes 1/65535, white becomes black.
        #expect(profile.table.samples == [1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0])
        #expect(profile.table.apply(SIMD3(1, 1, 1)).max() < 1e-12)
    }

    @Test func aPresetWithoutATableIsNamed() {
        let preset = Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
             crs:PresetType="Normal" crs:Exposure2012="+0.50"/></rdf:RDF></x:xmpmeta>
            """.utf8)
        #expect(throws: CameraRawProfileError.noTable(path: "p.xmp", presetType: "Normal")) { try Self.read(preset) }
        let sidecar = Array("<x:xmpmeta><rdf:Description crs:WhiteBalance=\"As Shot\"/></x:xmpmeta>".utf8)
        #expect(throws: CameraRawProfileError.noTable(path: "p.xmp", presetType: nil)) { try Self.read(sidecar) }
    }

    @Test func aMissingTableIsNamed() {
        let bytes = Array("<rdf:Description crs:RGBTable=\"ABC\" crs:Table_ABD=\"00000\"/>".utf8)
        #expect(throws: CameraRawProfileError.missingTable(path: "p.xmp", key: "ABC")) { try Self.read(bytes) }
    }

    @Test func damagedMarkupIsRefused() {
        let bytes = Array("<rdf:Description crs:RGBTable=\"ABC".utf8)
        #expect(throws: CameraRawProfileError.damagedXMP(path: "p.xmp", what: "value of crs:RGBTable", offset: 30)) { try Self.read(bytes) }
    }

    @Test func deepNestingIsRefused() {
        let bytes = Array(String(repeating: "<a>", count: 300).utf8)
        #expect(throws: CameraRawProfileError.damagedXMP(path: "p.xmp", what: "element nested deeper than 256 levels", offset: 768)) {
            try Self.read(bytes)
        }
    }

    @Test func damagedTextIsRefused() {
        let payload = Self.payload()
        var text = Self.text(payload)
        text.insert("~", at: text.index(text.startIndex, offsetBy: 7))
        #expect(throws: CameraRawProfileError.damagedText(path: "p.xmp", reason: "character '~' at offset 7 is not in its base-85 alphabet")) {
            try Self.read(Self.xmp(key: "K", text: text))
        }
        #expect(throws: CameraRawProfileError.damagedText(path: "p.xmp", reason: "the five digits at offset 0 exceed 32 bits")) {
            try Self.read(Self.xmp(key: "K", text: "#####"))
        }
        #expect(throws: CameraRawProfileError.damagedText(path: "p.xmp", reason: "it ends with a lone digit")) {
            try Self.read(Self.xmp(key: "K", text: "000000"))
        }
    }

    @Test func truncatedAndDamagedStreamsAreRefused() {
        let payload = Self.payload()
        #expect(throws: CameraRawProfileError.compression(path: "p.xmp", reason: "end before the stream does (the text is cut short)")) {
            try Self.read(Self.xmp(key: "K", text: Self.text(payload, cut: 6)))
        }
        #expect(throws: CameraRawProfileError.compression(path: "p.xmp", reason: "hold 92 bytes where 120 are declared")) {
            try Self.read(Self.xmp(key: "K", text: Self.text(payload, declared: 120)))
        }
        let garbage = String(decoding: AdobeBase85.encode([100, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]), as: UTF8.self)
        #expect(throws: CameraRawProfileError.compression(path: "p.xmp", reason: "are not a valid zlib stream")) {
            try Self.read(Self.xmp(key: "K", text: garbage))
        }
    }

    @Test func bombsAndHugeDeclaredSizesCostNothing() {
        // 64 MiB of zeros compress to 64 kB: declared small, inflating stops at the declared size.
        let bomb = [UInt8](repeating: 0, count: 64 << 20)
        #expect(throws: CameraRawProfileError.compression(path: "p.xmp", reason: "hold more than the 100 bytes declared")) {
            try Self.read(Self.xmp(key: "K", text: Self.text(bomb, declared: 100)))
        }
        // Declared as 4 GiB - 1: refused before anything of that size is allocated.
        #expect(throws: CameraRawProfileError.declaredSize(path: "p.xmp", size: 0xFFFF_FFFF, largest: RGBTablePayload.largestSize)) {
            try Self.read(Self.xmp(key: "K", text: Self.text(bomb.prefix(1000).map { $0 }, declared: 0xFFFF_FFFF)))
        }
    }

    @Test func fieldsBeyondTheSDKsLimitsAreRefused() {
        let cases: [([UInt8], String)] = [
            (Self.payload(divisions: 33), "its 3D table declares 33 points per side; Camera Raw reads 2...32"),
            (Self.payload(divisions: 1), "its 3D table declares 1 points per side; Camera Raw reads 2...32"),
            (Self.payload(primaries: 5), "its table's primaries is 5; Camera Raw knows 0...4"),
            (Self.payload(gamma: 9), "its table's gamma is 9; Camera Raw knows 0...4"),
            (Self.payload(gamut: 2), "its table's gamut is 2; Camera Raw knows 0...1"),
            (Self.payload(minimum: 1.5), "its table's amount range 1.5...2.0 is not a minimum in 0...1 and a maximum of at least 1"),
            (Self.payload(maximum: .nan), "its table's amount range 0.0...nan is not a minimum in 0...1 and a maximum of at least 1"),
            (Array(Self.payload().prefix(60)), "its table holds 60 bytes where its header calls for 92"),
        ]
        for (payload, reason) in cases {
            #expect(throws: CameraRawProfileError.payload(path: "p.xmp", reason: reason)) {
                try Self.read(Self.xmp(key: "K", text: Self.text(payload)))
            }
        }
        var other = Self.payload()
        other[0] = 2
        #expect(throws: CameraRawProfileError.payload(path: "p.xmp", reason: "its table is of type 2, not an RGB table (1)")) {
            try Self.read(Self.xmp(key: "K", text: Self.text(other)))
        }
    }

    @Test func aKeyThatIsNotTheDigestIsAppliedWithAWarning() throws {
        let folder = try TemporaryDirectory()
        let payload = Self.payload()
        let path = folder.file("wrong-key.xmp")
        try Data(Self.xmp(key: "0123456789ABCDEF0123456789ABCDEF", text: Self.text(payload))).write(to: URL(fileURLWithPath: path))
        let look = try CameraRawProfileFormat().read(path: path, options: LUTReadOptions())
        #expect(look.hasCameraRawTable)
        #expect(look.notes.contains { $0.hasPrefix("warning: its table's key 0123456789ABCDEF0123456789ABCDEF is not the MD5") })
    }

    @Test func aFileLargerThanAnyProfileIsRefusedUnread() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("huge.xmp")
        try Data(count: CameraRawProfile.largestFile + 1).write(to: URL(fileURLWithPath: path))
        #expect(throws: CameraRawProfileError.fileTooLarge(path: path, bytes: CameraRawProfile.largestFile + 1, limit: CameraRawProfile.largestFile)) {
            try CameraRawProfileFormat().read(path: path, options: LUTReadOptions())
        }
    }

    @Test func aThirtyThreeCubeIsRefusedWithTheReason() {
        let format = CameraRawProfileFormat()
        #expect(throws: ConversionError.unsupportedSize(path: "p.xmp", size: 33, format: "a Camera Raw profile",
                                                        sizes: "2...32 points a side: Camera Raw reads no larger table", largestSize: 32)) {
            try format.validate(size: 33, bitDepth: nil, path: "p.xmp")
        }
    }
}
