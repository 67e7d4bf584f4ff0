import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import ColorCubeImaging

/// Reference and Hald CLUT PNGs (.png): the image a user edits, read as a cube and written from one.
///
/// Any image format of `ImageCodecs` is read as a reference too (a Photoshop user may save it as
/// a 16-bit TIFF), recognised by content; only PNG is written. A lossily compressed reference
/// (JPEG, lossy WebP, HEIC) is read, and `Look.lossySource` says so, since its compression
/// noise becomes part of the look.
///
/// This is the format every image LUT is read through when nothing else is said: a square image
/// may also be a square of tiles and a W = H^2 image is a strip (see `ImageLUTLayout`), so the
/// reader takes the layout from `LUTReadOptions.imageLayout`, else from the image's size and
/// content (`ImageLUTLayoutDetector`), and the look's format is the layout's (`ImageLUT.format`).
///
/// Layout: see `HaldLayout`; entry p = r + N*g + N^2*b sits at x = p mod W, y = p div W. Reading
/// and writing are `ImageLUT`'s; the table stays a view on the decoded pixels (`ReferenceTable`).
public struct HaldFormat: LUTFileFormat {
    /// Bits per value a Hald PNG can have.
    public static let supportedBitDepths = ImageLUT.supportedBitDepths

    public init() {}

    public var name: String { "png" }
    /// 64: the 64 reference, 512x512 pixels.
    public var preferredSize: Int { 64 }
    public var displayName: String { "Hald CLUT PNG" }
    public var noun: String { "a Hald PNG" }
    public var extensions: [String] { ["png"] }
    public var bitDepths: [Int] { Self.supportedBitDepths }
    public var defaultBitDepth: Int? { 8 }
    public var clampsValues: Bool { true }
    public var sizeDescription: String { ImageLUTLayout.Kind.hald.sizeDescription }
    public var largestSize: Int? { nil }
    public var readsImages: Bool { true }

    public func canHold(size: Int) -> Bool {
        ImageLUTLayout.Kind.hald.canHold(size: size)
    }

    /// Any image colorcube decodes, by its signature.
    public func sniff(_ head: [UInt8]) -> Bool {
        ImageCodecs.sniff(probe: FileProbe(head: head))?.isReadable == true
    }

    /// Reads an image LUT in whichever layout `options.imageLayout` names, else its size and
    /// content show (Hald first).
    public func read(path: String, options: LUTReadOptions) throws -> Look {
        try ImageLUT.read(path: path, options: options, kinds: ImageLUTLayout.Kind.allCases)
    }

    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        try ImageLUT.write(table, kind: .hald, bitDepth: bitDepth ?? 8, to: path, displayPath: displayPath)
    }

    /// "Hald CLUT PNG, level 8, 16-bit".
    public func describe(_ look: Look) -> String {
        let table = look.plainTable
        let depth = (table as? ReferenceTable)?.image.bitDepth ?? 8
        let level = table.flatMap { try? HaldLayout(cubeSize: $0.size) }?.level ?? 0
        return "\(displayName), level \(level), \(depth)-bit"
    }
}
