/// Matrix/TRC ICC profiles written byte by byte for tests: a 128-byte header, the tag table and
/// the tags, each tag's data starting on a multiple of 4 bytes. Every field can be set wrong on
/// purpose (a class, a rendering intent, a tag of the wrong type).
struct ICCTestProfile {
    /// One tone curve tag.
    enum Curve {
        /// A curveType of one entry: a u8Fixed8 gamma (2.2 is 563).
        case gamma(UInt16)
        /// A curveType of these 16-bit entries.
        case table([UInt16])
        /// A parametricCurveType of this function type and parameters (rounded to s15Fixed16).
        case parametric(UInt16, [Double])
    }

    var deviceClass = "mntr"
    var colorSpace = "RGB "
    var connectionSpace = "XYZ "
    var signature = "acsp"
    var renderingIntent: UInt32 = 0
    /// The rXYZ, gXYZ and bXYZ colorants: sRGB's primaries adapted to D50 (as Little CMS writes them).
    var colorants: [SIMD3<Double>] = [SIMD3(0.436066, 0.222488, 0.013916), SIMD3(0.385147, 0.716873, 0.097076),
                                      SIMD3(0.143066, 0.060608, 0.714096)]
    var curves: [Curve] = [.gamma(563), .gamma(563), .gamma(563)]
    var description: String? = "colorcube test display"
    /// Tags added after the others, as (signature, data starting with the type signature).
    var extraTags: [(String, [UInt8])] = []
    /// Tags left out, by signature.
    var leftOut: Set<String> = []

    /// The profile's bytes.
    var bytes: [UInt8] {
        var tags: [(String, [UInt8])] = []
        if let description {
            tags.append(("desc", Self.text("desc") + Self.word(0) + Self.word(UInt32(description.utf8.count + 1))
                + Array(description.utf8) + [0]))
        }
        for (name, xyz) in zip(["rXYZ", "gXYZ", "bXYZ"], colorants) {
            tags.append((name, Self.text("XYZ ") + Self.word(0) + [xyz.x, xyz.y, xyz.z].flatMap { Self.fixed($0) }))
        }
        for (name, curve) in zip(["rTRC", "gTRC", "bTRC"], curves) {
            tags.append((name, Self.encode(curve)))
        }
        tags = tags.filter { !leftOut.contains($0.0) } + extraTags
        var table: [UInt8] = Self.word(UInt32(tags.count)), data: [UInt8] = []
        let start = 128 + 4 + 12 * tags.count
        for (name, body) in tags {
            table += Self.text(name) + Self.word(UInt32(start + data.count)) + Self.word(UInt32(body.count))
            data += body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
        }
        var header = [UInt8](repeating: 0, count: 128)
        func put(_ bytes: [UInt8], at offset: Int) { header.replaceSubrange(offset..<(offset + bytes.count), with: bytes) }
        put(Self.word(UInt32(128 + table.count + data.count)), at: 0)
        put(Self.word(0x0210_0000), at: 8)
        put(Self.text(deviceClass), at: 12)
        put(Self.text(colorSpace), at: 16)
        put(Self.text(connectionSpace), at: 20)
        put(Self.text(signature), at: 36)
        put(Self.word(renderingIntent), at: 64)
        put(Self.fixed(0.9642) + Self.fixed(1) + Self.fixed(0.8249), at: 68)
        return header + table + data
    }

    static func encode(_ curve: Curve) -> [UInt8] {
        switch curve {
        case .gamma(let value):
            return text("curv") + word(0) + word(1) + half(value)
        case .table(let entries):
            return text("curv") + word(0) + word(UInt32(entries.count)) + entries.flatMap(half)
        case .parametric(let function, let parameters):
            return text("para") + word(0) + half(function) + half(0) + parameters.flatMap(fixed)
        }
    }

    static func text(_ signature: String) -> [UInt8] { Array(signature.utf8.prefix(4)) }
    static func word(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func half(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    /// s15Fixed16: the value times 65536, rounded.
    static func fixed(_ value: Double) -> [UInt8] { word(UInt32(bitPattern: Int32((value * 65536).rounded()))) }
}
