/// Where each lattice entry of a cube sits in an image LUT: a Hald CLUT, a square of tiles or a
/// strip of tiles. Red always runs along x, so the entries of one red line are neighbouring pixels.
///
/// For a cube of size N (entry p = r + N * g + N^2 * b, red fastest) in an image W pixels wide:
/// - `hald`: N = L^2, W = H = L^3 (L in 2...16); entry p is pixel p in raster order (`HaldLayout`).
/// - `tile`: N = L^2, W = H = L^3, an L x L grid of N x N tiles; blue chooses the tile in raster
///   order (tile column b mod L, tile row b div L), red runs along x and green down y inside a
///   tile: x = (b mod L) * N + r, y = (b div L) * N + g. The 512x512 "lookup" PNG of OBS's Apply
///   LUT filter, GPUImage and many ReShade and game-engine shaders (black at the top left).
/// - `strip`: N tiles of N x N side by side, W = N^2, H = N, for N in 2...256; x = b * N + r,
///   y = g (green grows downwards, black at the top left): Unreal Engine's 256x16 and 1024x32
///   colour-grading LUTs.
/// - `unityStrip`: the same strip with green growing upwards, y = N - 1 - g (black at the bottom
///   left): Unity's post-processing LUTs, whose shaders take green from the texture's v, which
///   Unity counts from the bottom row.
///
/// Hald and tile images have the same sizes (a 64-cube is 512x512 in both), so the size of a
/// square image does not tell them apart; the two strips differ only in their content too.
public struct ImageLUTLayout: Sendable, Equatable, CustomStringConvertible {
    /// The arrangements colorcube reads and writes.
    public enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        case hald
        case tile
        case strip
        case unityStrip = "unity-strip"

        /// What the arrangement is, for messages: "8x8 tiles" needs a size, so this is the kind.
        public var description: String {
            switch self {
            case .hald: "Hald CLUT"
            case .tile: "square of tiles"
            case .strip: "strip of tiles (Unreal)"
            case .unityStrip: "strip of tiles (Unity, green upwards)"
            }
        }

        /// True for the kinds whose image is square (Hald and tile), false for the strips.
        public var isSquare: Bool { self == .hald || self == .tile }

        /// True when a cube of `size` points per axis can be laid out this way.
        public func canHold(size: Int) -> Bool {
            (try? ImageLUTLayout(kind: self, cubeSize: size)) != nil
        }

        /// The sizes this kind holds, in words.
        public var sizeDescription: String {
            isSquare ? "4, 9, 16, ..., 256: a square of 2...16" : "2...256"
        }
    }

    public let kind: Kind
    /// Lattice points per axis, N.
    public let cubeSize: Int
    /// Image width in pixels.
    public let width: Int
    /// Image height in pixels.
    public let height: Int
    /// Tiles per row: L for a square of tiles (and the level of a Hald image), N for a strip.
    @usableFromInline let tilesPerRow: Int

    /// The layout of `kind` for a cube of `size`.
    /// - Throws: `CubeError.invalidSize` when `kind` cannot hold that size: Hald and tile need a
    ///   square L^2 with L in 2...16, strips 2...256.
    public init(kind: Kind, cubeSize size: Int) throws(CubeError) {
        self.kind = kind
        self.cubeSize = size
        switch kind {
        case .hald, .tile:
            let hald = try HaldLayout(cubeSize: size)
            width = hald.side
            height = hald.side
            tilesPerRow = hald.level
        case .strip, .unityStrip:
            guard ColorCube.sizeRange.contains(size) else { throw .invalidSize(size) }
            width = size * size
            height = size
            tilesPerRow = size
        }
    }

    /// The layout of `kind` whose image is `width` x `height` pixels, or nil when there is none.
    public init?(kind: Kind, width: Int, height: Int) {
        let size: Int
        switch kind {
        case .hald, .tile:
            guard width == height, let hald = HaldLayout(side: width) else { return nil }
            size = hald.cubeSize
        case .strip, .unityStrip:
            guard height >= ColorCube.sizeRange.lowerBound, height <= ColorCube.sizeRange.upperBound,
                  width == height * height else { return nil }
            size = height
        }
        guard let layout = try? ImageLUTLayout(kind: kind, cubeSize: size) else { return nil }
        self = layout
    }

    /// Every layout (of `kinds`, in their order) whose image is `width` x `height` pixels: none,
    /// one, or two when the image is square (Hald and tile) or a strip (both orientations).
    public static func candidates(width: Int, height: Int, kinds: [Kind] = Kind.allCases) -> [ImageLUTLayout] {
        kinds.compactMap { ImageLUTLayout(kind: $0, width: width, height: height) }
    }

    /// Pixels in the image.
    public var pixelCount: Int { width * height }

    /// How the cube is arranged, without the kind: "level 8", "8x8 tiles of 64x64", "32 tiles of 32x32".
    public var arrangement: String {
        switch kind {
        case .hald: "level \(tilesPerRow)"
        case .tile: "\(tilesPerRow)x\(tilesPerRow) tiles of \(cubeSize)x\(cubeSize)"
        case .strip, .unityStrip: "\(cubeSize) tiles of \(cubeSize)x\(cubeSize)"
        }
    }

    /// "tile layout, 8x8 tiles of 64x64".
    public var description: String {
        switch kind {
        case .hald: "Hald CLUT, \(arrangement)"
        case .tile: "tile layout, \(arrangement)"
        case .strip: "strip layout (Unreal), \(arrangement)"
        case .unityStrip: "strip layout (Unity, green upwards), \(arrangement)"
        }
    }

    /// The raster index (y * width + x) of the pixel holding lattice node (r, g, b).
    @inlinable
    public func pixelIndex(r: Int, g: Int, b: Int) -> Int {
        let n = cubeSize
        switch kind {
        case .hald:
            return r + n * g + n * n * b
        case .tile:
            let x = (b % tilesPerRow) * n + r, y = (b / tilesPerRow) * n + g
            return y * width + x
        case .strip:
            return g * width + b * n + r
        case .unityStrip:
            return (n - 1 - g) * width + b * n + r
        }
    }

    /// The pixel holding entry `index` (red fastest), and how many entries from there on sit in
    /// consecutive pixels: the rest of the image for Hald, the rest of the red line otherwise.
    @inlinable
    public func run(startingAt index: Int) -> (pixel: Int, count: Int) {
        let n = cubeSize
        if kind == .hald { return (index, n * n * n - index) }
        let r = index % n, line = index / n
        return (pixelIndex(r: r, g: line % n, b: line / n), n - r)
    }
}
