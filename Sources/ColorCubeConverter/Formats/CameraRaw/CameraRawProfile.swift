import Foundation
import ColorCubeCore
import ColorCubeTransform

/// A Lightroom or Camera Raw profile as its .xmp holds it: the names Lightroom lists it under,
/// its table and the amount it opens at.
///
/// The table is found as Camera Raw finds it: `crs:RGBTable` gives a key, `crs:Table_<key>` the
/// text; the key should be the upper-case hex MD5 of the uncompressed payload, and Camera Raw
/// does not check it, so neither does reading (`keyMatches` says whether it is).
public struct CameraRawProfile: Sendable {
    /// `crs:Name`, the name Lightroom lists; nil when the file has none.
    public var name: String?
    /// `crs:Group`, the group Lightroom lists it in.
    public var group: String?
    /// `crs:UUID`.
    public var uuid: String?
    /// `crs:RGBTableAmount`: the amount the profile opens at, 1 when the file gives none.
    public var defaultAmount: Double
    /// The key `crs:RGBTable` names.
    public var key: String
    /// The MD5 of the payload, upper-case hex.
    public var digest: String
    /// The table and its conversions, at `defaultAmount`.
    public var table: RGBTableOp

    /// True when `key` is the payload's MD5, as Adobe's writers make it.
    public var keyMatches: Bool { key.uppercased() == digest }

    /// The largest .xmp read: a 32-point table's text is about 250 kB, develop settings add a
    /// few; a thousand times that is no profile.
    public static let largestFile = 16 << 20

    /// Reads a profile from its file's bytes; `path` names the file in errors.
    /// - Throws: `CameraRawProfileError` for damaged markup, a file without a table, a missing
    ///   table, damaged text, an impossible declared size, a damaged or cut zlib stream, or a
    ///   payload that breaks the SDK's limits.
    public init(_ bytes: [UInt8], path: String) throws(CameraRawProfileError) {
        // Two walks: the fields, then the table the key names (which may come first in the file).
        let fields = try Self.fields(bytes, path: path) { Self.scalarFields.contains($0) }
        guard let key = fields.value("crs:RGBTable")?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty else {
            throw .noTable(path: path, presetType: fields.value("crs:PresetType"))
        }
        guard let text = try Self.fields(bytes, path: path, wanted: { $0 == "crs:Table_" + key }).value("crs:Table_" + key) else {
            throw .missingTable(path: path, key: key)
        }
        let payload = try Self.payloadBytes(Array(text.utf8), path: path)
        let decoded: RGBTablePayload
        do { decoded = try RGBTablePayload(payload) } catch { throw .payload(path: path, reason: error.description) }
        name = fields.value("crs:Name")
        group = fields.value("crs:Group")
        uuid = fields.value("crs:UUID")
        defaultAmount = fields.value("crs:RGBTableAmount").flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            .flatMap { $0.isFinite ? $0 : nil } ?? 1
        self.key = key
        digest = MD5.hex(payload)
        do {
            table = try RGBTableOp(dimensions: decoded.dimensions, divisions: decoded.divisions, samples: decoded.samples,
                                   primaries: decoded.primaries, gamma: decoded.gamma, gamut: decoded.gamut,
                                   amountRange: decoded.minimumAmount...max(decoded.maximumAmount, 1),
                                   amount: defaultAmount)
        } catch {
            throw .payload(path: path, reason: error.description)
        }
    }

    /// The properties read besides the table.
    private static let scalarFields: Set<String> = ["crs:RGBTable", "crs:PresetType", "crs:Name", "crs:Group", "crs:UUID", "crs:RGBTableAmount"]

    /// The `wanted` properties of the XMP in `bytes`.
    private static func fields(_ bytes: [UInt8], path: String, wanted: (String) -> Bool) throws(CameraRawProfileError) -> XMPFields {
        do { return try XMPFields(bytes, wanted: wanted) } catch {
            switch error {
            case .unclosed(let what, let offset): throw .damagedXMP(path: path, what: what, offset: offset)
            case .tooDeep(let offset): throw .damagedXMP(path: path, what: "element nested deeper than \(XMPFields.deepest) levels", offset: offset)
            }
        }
    }

    /// The uncompressed payload of a table's text: base 85, then a little-endian size, then zlib.
    /// The size is checked against the largest payload before anything of that size is allocated,
    /// and inflating stops there, so a bomb costs no more than a real table.
    static func payloadBytes(_ text: [UInt8], path: String) throws(CameraRawProfileError) -> [UInt8] {
        let binary: [UInt8]
        do { binary = try AdobeBase85.decode(text[...]) } catch {
            switch error {
            case .character(let character, let offset):
                throw .damagedText(path: path, reason: "character \(Self.shown(character)) at offset \(offset) is not in its base-85 alphabet")
            case .overflow(let offset):
                throw .damagedText(path: path, reason: "the five digits at offset \(offset) exceed 32 bits")
            case .strayDigit:
                throw .damagedText(path: path, reason: "it ends with a lone digit")
            }
        }
        guard binary.count >= 5 else {
            throw .damagedText(path: path, reason: "it holds \(binary.count) bytes, too few for a size and a zlib stream")
        }
        let size = Int(binary[0]) | Int(binary[1]) << 8 | Int(binary[2]) << 16 | Int(binary[3]) << 24
        guard size <= RGBTablePayload.largestSize else {
            throw .declaredSize(path: path, size: size, largest: RGBTablePayload.largestSize)
        }
        do {
            return try Zlib.inflate(binary[4...], size: size)
        } catch {
            switch error {
            case .truncated: throw .compression(path: path, reason: "end before the stream does (the text is cut short)")
            case .tooLong: throw .compression(path: path, reason: "hold more than the \(size) bytes declared")
            case .tooShort(let produced): throw .compression(path: path, reason: "hold \(produced) bytes where \(size) are declared")
            case .damaged: throw .compression(path: path, reason: "are not a valid zlib stream")
            case .noMemory: throw .compression(path: path, reason: "could not be inflated (out of memory)")
            }
        }
    }

    /// A byte as a user reads it: the character, or its hex value when not printable.
    private static func shown(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + String(byte, radix: 16, uppercase: true)
    }
}
