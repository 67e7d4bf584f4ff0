import ColorCubeCore

/// Why an .xmp file gives no Camera Raw profile table; each case names the file and says what
/// was found.
public enum CameraRawProfileError: ColorCubeError, Equatable {
    /// The file is larger than any profile (`limit` bytes): not a profile, or a hostile one.
    case fileTooLarge(path: String, bytes: Int, limit: Int)
    /// The XMP's markup breaks off: `what` opened at byte `offset` never closes.
    case damagedXMP(path: String, what: String, offset: Int)
    /// An XMP without `crs:RGBTable`: a develop preset or a sidecar (`presetType` as it says, if
    /// it says).
    case noTable(path: String, presetType: String?)
    /// `crs:RGBTable` names a key whose `crs:Table_<key>` is not in the file.
    case missingTable(path: String, key: String)
    /// The table's text is not Adobe's base 85: `reason` says where.
    case damagedText(path: String, reason: String)
    /// The text's first four bytes declare an uncompressed size outside what a table can be.
    case declaredSize(path: String, size: Int, largest: Int)
    /// The zlib stream after the size is cut short, damaged, or holds another amount than declared.
    case compression(path: String, reason: String)
    /// The payload breaks the SDK's rules (`RGBTablePayload.Defect`, in words).
    case payload(path: String, reason: String)
    /// An amount asked of a profile's table outside the range the profile allows.
    case amount(asked: Double, range: ClosedRange<Double>)

    public var path: String? {
        switch self {
        case .fileTooLarge(let path, _, _), .damagedXMP(let path, _, _), .noTable(let path, _), .missingTable(let path, _), .damagedText(let path, _),
             .declaredSize(let path, _, _), .compression(let path, _), .payload(let path, _):
            path
        case .amount: nil
        }
    }

    public var description: String {
        switch self {
        case .fileTooLarge(let path, let bytes, let limit):
            "\(path) is \(bytes) bytes; a Camera Raw profile is at most \(limit) (a 32-point table's text is about 250 kB), so this is not one"
        case .damagedXMP(let path, let what, let offset):
            "\(path): damaged XMP: the \(what) opened at byte \(offset) never closes"
        case .noTable(let path, let presetType):
            "\(path) holds no RGB table (crs:RGBTable)"
                + (presetType.map { ": it is a Camera Raw preset of type \"\($0.prefix(40))\"" } ?? ": it is a develop preset or sidecar")
                + ", whose settings colorcube does not apply; give a Lightroom or Camera Raw profile that carries a table"
        case .missingTable(let path, let key):
            "\(path): crs:RGBTable names the table \(key.prefix(40)), but crs:Table_\(key.prefix(40)) is not in the file; the profile is incomplete"
        case .damagedText(let path, let reason):
            "\(path): its table's text is damaged (\(reason)); copy the profile again from its source"
        case .declaredSize(let path, let size, let largest):
            "\(path): its table declares \(size) bytes uncompressed; a Camera Raw table holds at most \(largest), so the file is damaged or hostile"
        case .compression(let path, let reason):
            "\(path): its table's compressed data \(reason); copy the profile again from its source"
        case .payload(let path, let reason):
            "\(path): \(reason)"
        case .amount(let asked, let range):
            "an amount of \(Int((asked * 100).rounded()))% is outside the profile's range, "
                + "\(Int((range.lowerBound * 100).rounded()))% to \(Int((range.upperBound * 100).rounded()))%"
        }
    }
}
