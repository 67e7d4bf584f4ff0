import ColorCubeCore
import ColorCubeTransform

/// One LUT file format: how to recognise it, read it and write it, and what it can hold.
///
/// Every format colorcube knows is one conforming type and one entry in a table: formats that need
/// nothing but Swift live in this module's `Formats` folder and `LUTFormats.portable`; those that
/// need the image codecs or Little CMS in ColorCubeConverter's, listed in its `LUTFormats.all`.
/// `LUTReader`, `LUTWriter` and the commands' help texts ask the tables. A new format is a new
/// conforming type and one more line in the table of its module.
public protocol LUTFileFormat: Sendable {
    /// The name `convert --format` takes and messages use: "raw", "cube", "3dl", "png", "icc".
    var name: String { get }
    /// What the format is, for `info`: "raw Core Image data (RGBA Float32)".
    var displayName: String { get }
    /// The format with its article, for sentences: "a Hald PNG", "an ICC device link".
    var noun: String { get }
    /// File extensions, lower case and without the dot; the first is the one written.
    var extensions: [String] { get }
    /// Bits per value a writer may be asked for; empty when the format has one fixed precision.
    var bitDepths: [Int] { get }
    /// The bit depth written when none is asked for; nil when `bitDepths` is empty.
    var defaultBitDepth: Int? { get }
    /// True when values are stored as integers in 0...1, so values outside that range clamp.
    var clampsValues: Bool { get }
    /// The lattice sizes the format holds, in words ("2...256").
    var sizeDescription: String { get }
    /// The largest size when every size from 2 up to it is held; nil when the sizes are not one
    /// range (a Hald image holds only squares).
    var largestSize: Int? { get }
    /// The lattice size a look made from scratch gets in this format (`learn`): 33, the usual
    /// size of text and ICC LUTs, unless the format says otherwise.
    var preferredSize: Int { get }

    /// True when a cube of `size` points per axis can be written.
    func canHold(size: Int) -> Bool
    /// True when `head`, the first bytes of a file (up to 4096), shows it is in this format.
    /// Formats without a signature answer false; they are found by extension only.
    func sniff(_ head: [UInt8]) -> Bool
    /// Reads the file at `path` (already known to be in this format).
    /// - Throws: `FileError.cannotOpen` when the file cannot be read, the format's errors (each
    ///   naming `path`) when its content is not usable.
    func read(path: String, options: LUTReadOptions) throws -> Look
    /// True when the format holds no cube but writes the looks it can hold as they are
    /// (`writeChain`: an .spi1d, an ASC CDL), so a cube size asked for does not apply.
    var writesLooksWithoutCube: Bool { get }
    /// True when the look is an image decoded through the image codecs (Hald, tile and strip
    /// PNGs): its decoding is fuzzed and limited as images are.
    var readsImages: Bool { get }
    /// True when the format holds a whole chain (1D and 3D LUTs, matrices, ...), so `writeChain`
    /// writes a look without baking it; false for formats that hold one plain cube.
    var holdsChains: Bool { get }
    /// True when `writeChain` writes `transform` as it is, with nothing baked: always for a
    /// format that `holdsChains`; for others, the chains their syntax has room for (a .cube's
    /// 1D shaper then 3D table, a .csp's pre-LUT then 3D table). `LUTWriter` asks this first.
    func holdsExactly(_ transform: Transform) -> Bool
    /// Writes `transform` as a chain to `path` (created or truncated); only for transforms
    /// `holdsExactly` accepts. `displayPath` names the file in errors.
    func writeChain(_ transform: Transform, to path: String, displayPath: String, title: String) throws
    /// Writes `table` to `path` (created or truncated; `LUTWriter` makes it atomic); `displayPath`
    /// names the file in errors. `title` goes where the format has one; `bitDepth` is one of
    /// `bitDepths`, or nil for the default. Callers check `validate` first.
    func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws
    /// The format line `info` prints for `look` read in this format.
    func describe(_ look: Look) -> String
}

extension LUTFileFormat {
    public var bitDepths: [Int] { [] }
    public var defaultBitDepth: Int? { nil }
    public var clampsValues: Bool { false }
    public var sizeDescription: String { "2...256" }
    public var largestSize: Int? { ColorCube.sizeRange.upperBound }
    public var preferredSize: Int { 33 }

    public func canHold(size: Int) -> Bool { ColorCube.sizeRange.contains(size) }
    public func sniff(_ head: [UInt8]) -> Bool { false }
    public func describe(_ look: Look) -> String { displayName }
    public var holdsChains: Bool { false }
    public func holdsExactly(_ transform: Transform) -> Bool { holdsChains }
    public var readsImages: Bool { false }
    public var writesLooksWithoutCube: Bool { false }
    public func writeChain(_ transform: Transform, to path: String, displayPath: String, title: String) throws {
        throw LUTFileError.cannotHold(path: displayPath, format: noun, holds: "one plain cube", given: "a chain")
    }

    /// Checks, before any file is created, that this format can hold a cube of `size` at
    /// `bitDepth` (nil: the default).
    /// - Throws: `ConversionError.bitDepth` for a bit depth the format does not have,
    ///   `.unsupportedSize` (whose remedy is resampling) for a size it cannot hold, `.readOnly` for
    ///   a format that holds no cube at all; each names `path`.
    public func validate(size: Int, bitDepth: Int?, path: String) throws(ConversionError) {
        if let bitDepth, !bitDepths.contains(bitDepth) {
            throw .bitDepth(BitDepthError(path: path, format: noun, asked: bitDepth, allowed: bitDepths))
        }
        if !canHold(size: size) {
            // A format that holds no cube at all (a 1D table, a matrix) is read only: resampling
            // would not help.
            if holdsNoCube {
                if writesLooksWithoutCube { throw .notACube(path: path, format: noun, holds: sizeDescription) }
                throw .readOnly(path: path, format: noun, holds: sizeDescription)
            }
            throw .unsupportedSize(path: path, size: size, format: noun, sizes: sizeDescription, largestSize: largestSize)
        }
    }

    /// True when the format holds no cube of any size (a 1D table, a matrix, a CDL).
    private var holdsNoCube: Bool { largestSize == nil && !ColorCube.sizeRange.contains(where: canHold) }

    /// True when a cube can be written in the format (what `learn` and baking make).
    public var writesCubes: Bool { !holdsNoCube }

    /// True when colorcube writes the format: it holds a cube, or writes the looks it can hold as
    /// they are. False for the formats only read (a `.spimtx` matrix, a Discreet 1D table).
    public var isWritable: Bool { !holdsNoCube || writesLooksWithoutCube }

    /// True when `other` is the same format.
    public func isSame(as other: any LUTFileFormat) -> Bool {
        name == other.name
    }
}
