import Foundation

/// Dithering for a 16-bit picture stored with fewer bits (a JPEG or WebP of a 16-bit grade): each
/// sample becomes `floor(v * top / 65535 + t)` with a threshold `t` in (0, 1) from a fixed tile, so
/// a smooth gradient's local means keep their fractions of a code instead of banding.
///
/// Deterministic: the tile is built by a fixed procedure, with no random seed, so reruns are
/// byte-identical. Safe for exact codes: a sample that is already a code of the smaller depth
/// (an 8-bit picture widened by 257) stays that code, and so does a colour the look left within
/// its own precision of a code it was graded from (`DitherTile.dithered(_:original:x:y:)`).
public enum Dither: String, CaseIterable, Sendable {
    /// Rounding to the nearest code (the writers' own).
    case none
    /// An 8x8 Bayer matrix: cheap, with a visible cross-hatch in flat gradients.
    case ordered
    /// A 64x64 blue-noise tile (void and cluster): no pattern the eye picks out.
    case blueNoise = "blue-noise"

    /// The picture's 16-bit samples moved to the values a writer storing `bits` per sample rounds
    /// to the dithered codes (`k * 65535 / top`, rounded). Nothing changes for `.none`, for 8-bit
    /// pictures, or for 16 bits.
    /// - Parameters:
    ///   - original: the picture's samples before the look (same size and channels), or nil: a
    ///     sample the look left within `lookPrecision` of an original that is a code keeps that
    ///     code (see `DitherTile.dithered(_:original:x:y:)`).
    ///   - lookPrecision: the look's own precision in output units (`Transform.nodePrecision()`).
    public func apply(to image: inout RasterImage, storedBits bits: Int, original: PixelStorage? = nil,
                      lookPrecision: Double = 0) {
        guard bits < 16, var tile = self.tile, case .sixteen(var samples) = image.pixels else { return }
        let top = Float((1 << bits) - 1), scale = top / 65535
        tile.unmovedTolerance = DitherTile.tolerance(lookPrecision: lookPrecision, codes: top)
        let channels = image.channels, width = image.width
        image.pixels = .eight([])
        func write(_ originalCode: (Int) -> Float) {
            for pixel in 0..<(image.width * image.height) {
                let x = pixel % width, y = pixel / width
                for channel in 0..<min(channels, 3) {
                    let index = pixel * channels + channel
                    let value = tile.dithered(Float(samples[index]) * scale, original: originalCode(index), x: x, y: y)
                    let code = min(max(value.rounded(), 0), top)
                    samples[index] = UInt16((code / scale).rounded())
                }
            }
        }
        switch original {
        case .eight(let codes)? where codes.count == samples.count && bits == 8:
            write { Float(codes[$0]) }
        case .sixteen(let codes)? where codes.count == samples.count:
            write { Float(codes[$0]) * scale }
        default:
            write { _ in .nan }
        }
        image.pixels = .sixteen(samples)
    }

    /// The tile of thresholds, for code that rounds its own samples (a clip's frames); nil for
    /// `.none`.
    public var tile: DitherTile? {
        switch self {
        case .none: nil
        case .ordered: DitherTile(side: 8, thresholds: Self.bayer)
        case .blueNoise: DitherTile(side: 64, thresholds: Self.blueNoiseTile)
        }
    }

    /// The tile for codes up to `top` (255 for 8 bits) of a look of precision `lookPrecision`
    /// (`Transform.nodePrecision()`); nil for `.none`.
    public func tile(lookPrecision: Double, top: Int) -> DitherTile? {
        guard var tile = self.tile else { return nil }
        tile.unmovedTolerance = DitherTile.tolerance(lookPrecision: lookPrecision, codes: Float(top))
        return tile
    }

    /// Thresholds (i + 0.5) / 64 of the 8x8 Bayer matrix, row by row.
    static let bayer: [Double] = {
        var matrix = [0]
        var side = 1
        while side < 8 {
            var next = [Int](repeating: 0, count: 4 * side * side)
            for y in 0..<side {
                for x in 0..<side {
                    let v = 4 * matrix[y * side + x]
                    next[y * 2 * side + x] = v
                    next[y * 2 * side + x + side] = v + 2
                    next[(y + side) * 2 * side + x] = v + 3
                    next[(y + side) * 2 * side + x + side] = v + 1
                }
            }
            matrix = next
            side *= 2
        }
        return matrix.map { (Double($0) + 0.5) / 64 }
    }()

    /// A 64x64 blue-noise tile by Ulichney's void-and-cluster method, thresholds (rank + 0.5) / 4096.
    static let blueNoiseTile: [Double] = {
        let side = 64, count = side * side
        let sigma = 1.9
        // The Gaussian energy every set pixel adds around it (toroidal distances).
        var kernel = [Double](repeating: 0, count: count)
        for dy in 0..<side {
            for dx in 0..<side {
                let x = Double(min(dx, side - dx)), y = Double(min(dy, side - dy))
                kernel[dy * side + dx] = exp(-(x * x + y * y) / (2 * sigma * sigma))
            }
        }
        var energy = [Double](repeating: 0, count: count)
        var set = [Bool](repeating: false, count: count)
        func add(_ p: Int, _ sign: Double) {
            let px = p % side, py = p / side
            for i in 0..<count {
                let dx = (i % side - px + side) % side, dy = (i / side - py + side) % side
                energy[i] += sign * kernel[dy * side + dx]
            }
        }
        func tightestCluster() -> Int { (0..<count).filter { set[$0] }.max { energy[$0] < energy[$1] } ?? 0 }
        func largestVoid() -> Int { (0..<count).filter { !set[$0] }.min { energy[$0] < energy[$1] } ?? 0 }
        // A fixed, evenly spread start (a tenth of the pixels), relaxed until stable.
        var p = 0
        for _ in 0..<(count / 10) {
            set[p] = true
            add(p, 1)
            p = (p + 1031) % count
        }
        for _ in 0..<count {
            let cluster = tightestCluster()
            set[cluster] = false
            add(cluster, -1)
            let void = largestVoid()
            if void == cluster {
                set[cluster] = true
                add(cluster, 1)
                break
            }
            set[void] = true
            add(void, 1)
        }
        let initial = set, initialEnergy = energy
        let ones = set.filter { $0 }.count
        var rank = [Int](repeating: 0, count: count)
        // Ranks below the start: remove the tightest clusters one by one.
        for r in stride(from: ones - 1, through: 0, by: -1) {
            let cluster = tightestCluster()
            set[cluster] = false
            add(cluster, -1)
            rank[cluster] = r
        }
        set = initial
        energy = initialEnergy
        // Ranks above: fill the largest voids one by one.
        for r in ones..<count {
            let void = largestVoid()
            set[void] = true
            add(void, 1)
            rank[void] = r
        }
        return rank.map { (Double($0) + 0.5) / Double(count) }
    }()
}

/// A square tile of dithering thresholds, repeated over a picture: a value `v` (in codes) becomes
/// the code `floor(v + t)` for the threshold `t` at its position, instead of `floor(v + 0.5)`.
public struct DitherTile: Sendable {
    /// The tile's width and height, a power of two.
    public let side: Int
    /// `side - 1`, to wrap positions into the tile.
    @usableFromInline let mask: Int
    /// `t - 0.5` for each position, row by row: what is added to a value before rounding it.
    @usableFromInline let offsets: [Float]

    init(side: Int, thresholds: [Double]) {
        precondition(side > 0 && side & (side - 1) == 0 && thresholds.count == side * side)
        self.side = side
        mask = side - 1
        offsets = thresholds.map { Float($0 - 0.5) }
    }

    /// What to add to a value at column `x`, row `y` before rounding it to the nearest code.
    @inlinable @inline(__always)
    public func offset(x: Int, y: Int) -> Float {
        offsets.withUnsafeBufferPointer { $0[(y & mask) &* (mask &+ 1) &+ (x & mask)] }
    }

    /// How far from a whole code a value may be and still count as that code (left undithered):
    /// arithmetic in Float puts an exact code a few millionths off, and an identity look must
    /// return it.
    @inlinable public static var exactCodeTolerance: Float { 1.0 / 256 }

    /// How far (in codes) a graded value may stand from the code it was graded from and still be
    /// that code: the look's precision at this depth, plus `exactCodeTolerance`. The default is
    /// the latter alone, for a look as precise as its arithmetic.
    public var unmovedTolerance: Float = exactCodeTolerance

    /// `unmovedTolerance` for a look of precision `lookPrecision` (in output units, 0...1 the full
    /// range) written with codes up to `codes`.
    public static func tolerance(lookPrecision: Double, codes: Float) -> Float {
        Float(max(lookPrecision, 0)) * codes + exactCodeTolerance
    }

    /// `value` (in codes) dithered at column `x`, row `y`, before rounding to nearest: a value
    /// within `exactCodeTolerance` of a code is that code.
    @inlinable @inline(__always)
    public func dithered(_ value: Float, x: Int, y: Int) -> Float {
        abs(value - value.rounded()) <= Self.exactCodeTolerance ? value : value + offset(x: x, y: y)
    }

    /// `value` (in codes), graded from `original` (in codes; NaN when unknown), dithered at column
    /// `x`, row `y`, before rounding to nearest. A look cannot be more precise than its nodes: when
    /// `original` is a code and the look left the value within `unmovedTolerance` of it, the
    /// look left that colour where it was, and the value is that code, undithered.
    @inlinable @inline(__always)
    public func dithered(_ value: Float, original: Float, x: Int, y: Int) -> Float {
        let code = original.rounded()
        if abs(original - code) <= Self.exactCodeTolerance, abs(value - original) <= unmovedTolerance { return code }
        return dithered(value, x: x, y: y)
    }
}
