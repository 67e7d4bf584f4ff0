/// Where each lattice entry sits in a Hald CLUT image (and in colorcube's reference PNGs, which are
/// Hald CLUTs).
///
/// A Hald image of level L holds a cube of size N = L^2 in a square image of side W = L^3 = N * L.
/// Entry index p = r + N * g + N^2 * b (red fastest) sits at pixel x = p mod W, y = p div W.
public struct HaldLayout: Sendable, Equatable {
    /// Hald level L, 2...16.
    public let level: Int

    /// The cube sizes colorcube generates references for: levels 2, 4, 8 and 16.
    public static let referenceSizes = [4, 16, 64, 256]
    /// The Hald levels any reader accepts: cubes of 4 (level 2) up to 256 (level 16).
    public static let levelRange = 2...16

    /// - Throws: `CubeError.invalidSize` when `level` is outside 2...16.
    public init(level: Int) throws(CubeError) {
        guard Self.levelRange.contains(level) else { throw .invalidSize(level * level) }
        self.level = level
    }

    /// The layout for a cube size that is a perfect square L^2 with L in 2...16.
    /// - Throws: `CubeError.invalidSize` for any other size.
    public init(cubeSize: Int) throws(CubeError) {
        let level = Self.integerSquareRoot(cubeSize)
        guard level * level == cubeSize, Self.levelRange.contains(level) else { throw .invalidSize(cubeSize) }
        self.level = level
    }

    /// The layout whose image is `side` x `side` pixels, or nil when no Hald level has that side.
    public init?(side: Int) {
        guard let level = Self.levelRange.first(where: { $0 * $0 * $0 == side }) else { return nil }
        self.level = level
    }

    /// Lattice points per axis, L^2.
    public var cubeSize: Int { level * level }
    /// Image width and height in pixels, L^3.
    public var side: Int { level * level * level }

    /// Pixel (x, y) of entry index `index`.
    @inlinable
    public func position(ofEntry index: Int) -> (x: Int, y: Int) {
        (index % side, index / side)
    }

    private static func integerSquareRoot(_ value: Int) -> Int {
        guard value > 0 else { return 0 }
        var root = Int(Double(value).squareRoot())
        while root * root > value { root -= 1 }
        while (root + 1) * (root + 1) <= value { root += 1 }
        return root
    }
}
