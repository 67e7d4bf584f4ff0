import ColorCubeCore

/// The header fields and tags of an ICC profile that a matrix/TRC reader needs, read from its bytes
/// with every offset and length checked against the file before anything is read or allocated.
///
/// Layout (ICC.1, big-endian): a 128-byte header (profile class at byte 12, data colour space at
/// 16, PCS at 20, the signature "acsp" at 36, the rendering intent at 64), then a tag count and one
/// 12-byte entry per tag (signature, offset from the start of the file, size). A tag's data starts
/// with its type signature ("XYZ ", "curv", "para", "desc", "mluc") and four reserved bytes.
///
/// A tag is found as OpenColorIO finds it: the first entry with its signature, read by the rules
/// of its type; a tag whose type is not one of those five, or whose data runs past the end of the
/// file, reads as nothing (`value(of:)` is nil).
struct ICCTagTable {
    /// A tag's content, decoded by its type.
    enum Value {
        /// XYZType with one value: X, Y, Z as raw s15Fixed16 numbers (divide by 65536).
        case xyz(SIMD3<Int32>)
        /// curveType: its entries as raw 16-bit numbers (one entry is a u8Fixed8 gamma).
        case curve([UInt16])
        /// parametricCurveType: the function type and its parameters as raw s15Fixed16 numbers.
        case parametric(function: UInt16, parameters: [Int32])
        /// textDescriptionType or multiLocalizedUnicodeType: the ASCII (or English) text.
        case text(String)
    }

    /// One entry of the tag table.
    struct Entry {
        let signature: String
        let offset: Int
        let size: Int
    }

    /// The most tags a profile may have: OpenColorIO's limit, far above the dozen a display
    /// profile has, which keeps a hostile tag count from costing anything.
    static let maximumTags = 100
    /// The profile classes ICC.1 defines, with what they are in words.
    static let classes: [String: String] = [
        "scnr": "input (camera or scanner)", "mntr": "display", "prtr": "output (printer)", "link": "device link",
        "spac": "colour space conversion", "abst": "abstract", "nmcl": "named colour",
    ]

    let bytes: [UInt8]
    let deviceClass: String
    let colorSpace: String
    let connectionSpace: String
    let renderingIntent: UInt32
    let entries: [Entry]

    /// Reads the header and the tag table.
    /// - Throws: `LUTFileError.undecodable` (naming `path`) when the file is shorter than its header
    ///   and table, lacks the "acsp" signature, has more than `maximumTags` tags or none, or names a
    ///   profile class or rendering intent ICC.1 does not define.
    init(bytes: [UInt8], path: String) throws(LUTFileError) {
        self.bytes = bytes
        func fail(_ reason: String) -> LUTFileError { .undecodable(path: path, reason: reason) }
        guard bytes.count >= 132 else {
            throw fail("\(bytes.count) bytes is shorter than an ICC profile's 128-byte header and tag count")
        }
        guard Self.signature(bytes, at: 36) == "acsp" else {
            throw fail("not an ICC profile: the signature 'acsp' is not at byte 36")
        }
        deviceClass = Self.signature(bytes, at: 12)
        colorSpace = Self.signature(bytes, at: 16)
        connectionSpace = Self.signature(bytes, at: 20)
        renderingIntent = Self.uint32(bytes, at: 64)
        let count = Int(Self.uint32(bytes, at: 128))
        guard count <= Self.maximumTags else {
            throw fail("the profile has \(count) tags; colorcube reads profiles of at most \(Self.maximumTags)")
        }
        guard 132 + 12 * count <= bytes.count else {
            throw fail("the tag table of \(count) entries runs past the end of the file (\(bytes.count) bytes)")
        }
        entries = (0..<count).map { index in
            let base = 132 + 12 * index
            return Entry(signature: Self.signature(bytes, at: base), offset: Int(Self.uint32(bytes, at: base + 4)),
                         size: Int(Self.uint32(bytes, at: base + 8)))
        }
        guard Self.classes[deviceClass] != nil else {
            throw fail("unknown profile class '\(deviceClass)'")
        }
        guard renderingIntent <= 3 else {
            throw fail("unknown rendering intent \(renderingIntent) (ICC defines 0 to 3)")
        }
        guard !entries.isEmpty else { throw fail("the profile has no tags") }
    }

    /// True when the profile lists a tag with `signature`.
    func has(_ signature: String) -> Bool {
        entries.contains { $0.signature == signature }
    }

    /// The content of the first tag with `signature`, or nil when there is none, its type is not
    /// one this reader knows, or its data does not fit its size or the file.
    func value(of signature: String) -> Value? {
        guard let entry = entries.first(where: { $0.signature == signature }) else { return nil }
        let start = entry.offset, size = entry.size
        // The type signature and the reserved word; every type below needs at least these.
        guard start <= bytes.count - 8 else { return nil }
        switch Self.signature(bytes, at: start) {
        case "XYZ ":
            // Exactly one value: a size of 20 (up to 31 with padding).
            guard size >= 20, (size - 8) / 12 == 1, start + 20 <= bytes.count else { return nil }
            return .xyz(SIMD3((0..<3).map { Int32(bitPattern: Self.uint32(bytes, at: start + 8 + 4 * $0)) }))
        case "curv":
            guard size >= 12, start + 12 <= bytes.count else { return nil }
            let count = Int(Self.uint32(bytes, at: start + 8))
            // The entries are read up to the end of the file, whatever the tag's size says.
            guard count <= 65536, start + 12 + 2 * count <= bytes.count else { return nil }
            return .curve((0..<count).map { Self.uint16(bytes, at: start + 12 + 2 * $0) })
        case "para":
            guard size >= 16, start + 12 <= bytes.count else { return nil }
            // The parameter count follows from the tag's size, held in 16 bits as OpenColorIO holds it.
            let count = Int(UInt16(truncatingIfNeeded: (size - 12) / 4))
            guard start + 12 + 4 * count <= bytes.count else { return nil }
            let parameters = (0..<count).map { Int32(bitPattern: Self.uint32(bytes, at: start + 12 + 4 * $0)) }
            return .parametric(function: Self.uint16(bytes, at: start + 8), parameters: parameters)
        case "desc":
            guard size >= 12, start + 12 <= bytes.count else { return nil }
            let length = Int(Self.uint32(bytes, at: start + 8))
            guard start + 12 + length <= bytes.count else { return nil }
            return .text(Self.ascii(bytes[(start + 12)..<(start + 12 + length)].prefix { $0 != 0 }))
        case "mluc":
            return englishText(start: start, size: size).map(Value.text)
        default:
            return nil
        }
    }

    /// A multiLocalizedUnicodeType's text for the United States, else the United Kingdom, else
    /// the first English record, else the first record; characters beyond ASCII become "?".
    private func englishText(start: Int, size: Int) -> String? {
        guard size >= 16, start + 16 <= bytes.count else { return nil }
        let records = Int(Self.uint32(bytes, at: start + 8))
        guard Self.uint32(bytes, at: start + 12) == 12, 16 + 12 * records <= size,
              start + 16 + 12 * records <= bytes.count else { return nil }
        var chosen: (rank: Int, text: String)?
        for index in 0..<records {
            let base = start + 16 + 12 * index
            let language = Self.signature(bytes, at: base).prefix(2), country = Self.signature(bytes, at: base).suffix(2)
            let rank = country == "US" ? 0 : country == "GB" ? 1 : language == "en" ? 2 : index == 0 ? 3 : 4
            let length = Int(Self.uint32(bytes, at: base + 4)), offset = Int(Self.uint32(bytes, at: base + 8))
            guard rank < (chosen?.rank ?? 4), offset + length <= size, start + offset + length <= bytes.count else { continue }
            let units = (0..<(length / 2)).map { Self.uint16(bytes, at: start + offset + 2 * $0) }
            chosen = (rank, String(units.prefix { $0 != 0 }.map { $0 < 128 ? Character(Unicode.Scalar(UInt8($0))) : "?" }))
        }
        return chosen?.text
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    /// Four bytes as text, e.g. "mntr", "RGB "; bytes outside printable ASCII become "?".
    static func signature(_ bytes: [UInt8], at offset: Int) -> String {
        ascii(bytes[offset..<(offset + 4)])
    }

    private static func ascii(_ bytes: some Sequence<UInt8>) -> String {
        String(bytes.map { (32..<127).contains($0) ? Character(Unicode.Scalar($0)) : "?" })
    }
}
