import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import ColorCubeImaging

/// Image LUTs in the layouts game engines and streaming tools use (.png): a square of tiles (OBS,
/// ReShade, GPUImage: a 64-cube as 8x8 tiles of 64x64 in 512x512) and strips (Unreal: a 16-cube
/// as 256x16, a 32-cube as 1024x32; Unity: the same with green growing upwards). One value of
/// this type per layout; see `ImageLUTLayout` for where each entry sits.
///
/// Reading and writing are `ImageLUT`'s, as for Hald PNGs: 8 or 16 bits, any image codec read by
/// content, only PNG written. A .png is read through `HaldFormat`, which finds the layout by size
/// and content; a reader handed this format reads its layout unless `LUTReadOptions.imageLayout`
/// names another.
public struct ImageLUTFormat: LUTFileFormat {
    /// The layout this format reads and writes: `.tile`, `.strip` or `.unityStrip` (`.hald` is
    /// `HaldFormat`'s).
    public let kind: ImageLUTLayout.Kind

    public init(_ kind: ImageLUTLayout.Kind) {
        self.kind = kind
    }

    /// "tile", "strip", "unity-strip".
    public var name: String { kind.rawValue }
    /// 64 (512x512) for tiles, 32 (1024x32) for strips, the sizes the engines' neutral LUTs have.
    public var preferredSize: Int { kind.isSquare ? 64 : 32 }
    public var displayName: String {
        switch kind {
        case .hald, .tile: "tile LUT PNG"
        case .strip: "strip LUT PNG (Unreal)"
        case .unityStrip: "strip LUT PNG (Unity)"
        }
    }
    public var noun: String {
        switch kind {
        case .hald, .tile: "a tile LUT PNG"
        case .strip: "a strip LUT PNG"
        case .unityStrip: "a Unity strip LUT PNG"
        }
    }
    public var extensions: [String] { ["png"] }
    public var bitDepths: [Int] { ImageLUT.supportedBitDepths }
    public var defaultBitDepth: Int? { 8 }
    public var clampsValues: Bool { true }
    public var sizeDescription: String { kind.sizeDescription }
    public var largestSize: Int? { kind.isSquare ? nil : ColorCube.sizeRange.upperBound }
    public var readsImages: Bool { true }

    public func canHold(size: Int) -> Bool {
        kind.canHold(size: size)
    }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        try ImageLUT.read(path: path, options: options, kinds: [kind])
    }

    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        try ImageLUT.write(table, kind: kind, bitDepth: bitDepth ?? 8, to: path, displayPath: displayPath)
    }

    /// "tile LUT PNG, 8x8 tiles of 64x64, 8-bit".
    public func describe(_ look: Look) -> String {
        guard let table = look.plainTable as? ReferenceTable else { return displayName }
        return "\(displayName), \(table.layout.arrangement), \(table.image.bitDepth)-bit"
    }
}
