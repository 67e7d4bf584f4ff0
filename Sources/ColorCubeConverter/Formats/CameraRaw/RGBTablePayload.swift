import ColorCubeTransform

/// The binary payload of a Camera Raw RGB table, little-endian throughout:
///
///     uint32 type (1: RGB table), version (1), dimensions (1 or 3), divisions
///     uint16 × 3 per point: red, green, blue, each as its difference (mod 2^16) from the identity
///            value of its index, round(i · 65535 / (divisions − 1)); points with the blue index
///            varying fastest (a 1D table: one index for all three)
///     uint32 primaries (0...4), gamma (0...4), gamut (0...1)
///     float64 minimum amount (0...1), maximum amount (at least 1)
///     uint32 flags (optional)
///
/// Stored zlib-compressed behind its size (uint32), in `AdobeBase85` text.
struct RGBTablePayload: Equatable {
    var dimensions: Int
    var divisions: Int
    /// Three values per point, identity differences added back, blue fastest.
    var samples: [UInt16]
    var primaries: RGBTablePrimaries
    var gamma: RGBTableGamma
    var gamut: RGBTableGamut
    var minimumAmount: Double
    var maximumAmount: Double
    var flags: UInt32?

    /// The bytes of the header, the samples and the fields after them, for `dimensions` and
    /// `divisions`, without and with the flags.
    static func sizes(dimensions: Int, divisions: Int) -> (plain: Int, withFlags: Int) {
        let points = dimensions == 3 ? divisions * divisions * divisions : divisions
        let plain = 16 + 6 * points + 12 + 16
        return (plain, plain + 4)
    }

    /// The largest payload the SDK reads: a 32-point 3D table with flags.
    static let largestSize = sizes(dimensions: 3, divisions: RGBTableOp.largest3D).withFlags
    /// The smallest: a 2-point 1D table without.
    static let smallestSize = sizes(dimensions: 1, divisions: 2).plain

    /// Why bytes are not a payload; each case carries the field and what it held.
    enum Defect: Error, Equatable, CustomStringConvertible {
        case notRGBTable(type: UInt32)
        case version(UInt32)
        case dimensions(UInt32)
        case divisions(UInt32, dimensions: Int)
        case size(found: Int, expected: Int)
        case field(name: String, value: UInt32, largest: Int)
        case amounts(minimum: Double, maximum: Double)

        var description: String {
            switch self {
            case .notRGBTable(let type): "its table is of type \(type), not an RGB table (1)"
            case .version(let version): "its table is version \(version); colorcube reads version 1"
            case .dimensions(let dimensions): "its table has \(dimensions) dimensions; Camera Raw's have 1 or 3"
            case .divisions(let divisions, let dimensions):
                "its \(dimensions)D table declares \(divisions) points per side; Camera Raw reads 2...\(dimensions == 3 ? RGBTableOp.largest3D : RGBTableOp.largest1D)"
            case .size(let found, let expected): "its table holds \(found) bytes where its header calls for \(expected)"
            case .field(let name, let value, let largest): "its table's \(name) is \(value); Camera Raw knows 0...\(largest)"
            case .amounts(let minimum, let maximum):
                "its table's amount range \(minimum)...\(maximum) is not a minimum in 0...1 and a maximum of at least 1"
            }
        }
    }

    /// The identity value of index `i` of `divisions` (the SDK's rounding: half up), kept to 16
    /// bits as the SDK keeps it: for 2 divisions the last index's 65536 wraps to 0, and every
    /// reader and writer of the format measures its differences from that.
    static func identity(_ i: Int, divisions: Int) -> UInt16 {
        UInt16(truncatingIfNeeded: (i * 0xFFFF + divisions / 2) / (divisions - 1))
    }

    /// Reads a payload; every field is checked before the samples are allocated.
    init(_ bytes: [UInt8]) throws(Defect) {
        func uint32(_ at: Int) -> UInt32 {
            guard at + 4 <= bytes.count else { return 0 }
            return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        guard bytes.count >= 16 else { throw .size(found: bytes.count, expected: Self.smallestSize) }
        guard uint32(0) == 1 else { throw .notRGBTable(type: uint32(0)) }
        guard uint32(4) == 1 else { throw .version(uint32(4)) }
        let dimensions = uint32(8), divisions = uint32(12)
        guard dimensions == 1 || dimensions == 3 else { throw .dimensions(dimensions) }
        let largest = dimensions == 3 ? RGBTableOp.largest3D : RGBTableOp.largest1D
        guard divisions >= 2, divisions <= UInt32(largest) else { throw .divisions(divisions, dimensions: Int(dimensions)) }
        let dims = Int(dimensions), divs = Int(divisions)
        let sizes = Self.sizes(dimensions: dims, divisions: divs)
        guard bytes.count >= sizes.plain else { throw .size(found: bytes.count, expected: sizes.plain) }
        let points = dims == 3 ? divs * divs * divs : divs
        let identities = (0..<divs).map { Self.identity($0, divisions: divs) }
        var samples = [UInt16](repeating: 0, count: 3 * points)
        for point in 0..<points {
            let indices = dims == 3 ? [point / (divs * divs), point / divs % divs, point % divs] : [point, point, point]
            for channel in 0..<3 {
                let at = 16 + 6 * point + 2 * channel
                let delta = UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
                samples[3 * point + channel] = delta &+ identities[indices[channel]]
            }
        }
        self.dimensions = dims
        self.divisions = divs
        self.samples = samples
        let after = 16 + 6 * points
        guard let primaries = RGBTablePrimaries(rawValue: uint32(after)) else {
            throw .field(name: "primaries", value: uint32(after), largest: RGBTablePrimaries.allCases.count - 1)
        }
        guard let gamma = RGBTableGamma(rawValue: uint32(after + 4)) else {
            throw .field(name: "gamma", value: uint32(after + 4), largest: RGBTableGamma.allCases.count - 1)
        }
        guard let gamut = RGBTableGamut(rawValue: uint32(after + 8)) else {
            throw .field(name: "gamut", value: uint32(after + 8), largest: RGBTableGamut.allCases.count - 1)
        }
        (self.primaries, self.gamma, self.gamut) = (primaries, gamma, gamut)
        func float64(_ at: Int) -> Double {
            Double(bitPattern: UInt64(uint32(at)) | UInt64(uint32(at + 4)) << 32)
        }
        minimumAmount = float64(after + 12)
        maximumAmount = float64(after + 20)
        // Written as the SDK checks it, so NaN is refused too.
        guard minimumAmount >= 0, minimumAmount <= 1, maximumAmount >= 1 else {
            throw .amounts(minimum: minimumAmount, maximum: maximumAmount)
        }
        flags = bytes.count >= sizes.withFlags ? uint32(sizes.plain) : nil
    }

    /// A payload of `samples` (three per point, blue fastest).
    init(dimensions: Int, divisions: Int, samples: [UInt16], primaries: RGBTablePrimaries, gamma: RGBTableGamma,
         gamut: RGBTableGamut, minimumAmount: Double, maximumAmount: Double) {
        self.dimensions = dimensions
        self.divisions = divisions
        self.samples = samples
        self.primaries = primaries
        self.gamma = gamma
        self.gamut = gamut
        self.minimumAmount = minimumAmount
        self.maximumAmount = maximumAmount
        flags = nil
    }

    /// The payload's bytes.
    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        func put(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) } }
        func put(_ value: Double) {
            let bits = value.bitPattern
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        }
        for value in [1, 1, dimensions, divisions] { put(UInt32(value)) }
        let identities = (0..<divisions).map { Self.identity($0, divisions: divisions) }
        for point in 0..<(samples.count / 3) {
            let indices = dimensions == 3
                ? [point / (divisions * divisions), point / divisions % divisions, point % divisions]
                : [point, point, point]
            for channel in 0..<3 {
                let delta = samples[3 * point + channel] &- identities[indices[channel]]
                bytes.append(UInt8(truncatingIfNeeded: delta))
                bytes.append(UInt8(truncatingIfNeeded: delta >> 8))
            }
        }
        put(primaries.rawValue)
        put(gamma.rawValue)
        put(gamut.rawValue)
        put(minimumAmount)
        put(maximumAmount)
        if let flags, flags != 0 { put(flags) }
        return bytes
    }
}
