import ColorCubeCore
import ColorCubeTransform

/// The Academy/ASC Common LUT Format (.clf): SMPTE ST 2136-1 and the pre-SMPTE v2 and v3 forms.
///
/// An XML `ProcessList` (attribute `compCLFversion` up to 3.0 or "ST2136-1:2024", or the older
/// `version` up to 2.0, never both; versions written MAJOR[.MINOR[.REVISION]]) with a non-empty
/// `id` holds operations applied in order, each with `inBitDepth` and `outBitDepth` (8i, 10i, 12i,
/// 16i, 16f, 32f; see `CLFBitDepth`), and each node's input depth must equal the previous node's
/// output depth:
/// - `LUT1D` with `<Array dim="N 1">` or `"N 3"` (outputs, evenly spaced inputs over 0...1);
///   entries `nan` read as 0 and `inf` (or beyond Float32) as the largest Float32 of their sign,
///   as OpenColorIO reads them (the look's notes say so);
///   `halfDomain="true"` takes 65536 entries, one per half-float bit pattern (inputs are the
///   half values themselves; entries at NaN and infinity patterns are ignored); `rawHalfs="true"`
///   writes outputs as half-float bit patterns (whole numbers 0...65535).
/// - `LUT3D` with `<Array dim="N N N 3">`, BLUE varying fastest (read into ColorCube's
///   red-fastest order), `interpolation` trilinear (the default) or tetrahedral, which the engine
///   uses unless told otherwise (`apply --interpolation`).
/// - Pre-SMPTE `IndexMap dim="N"` inside a LUT1D or LUT3D ("a@i b@j ...": input a reads entry
///   i): checked as OpenColorIO checks it (N from 2, N entries, values and indices increasing).
///   From CLF 2 (CTF 1.5 for a LUT1D, 1.7 for a LUT3D) a two-entry map is a clamping Range
///   before the table and a longer one is refused; older versions, and CLF 3, which dropped the
///   element, ignore it, as OpenColorIO does, and the look's notes say so.
/// - `Matrix` with `<Array dim="3 3">` or `"3 4"` (the fourth column is the offset; pre-SMPTE
///   "3 3 3" and "3 4 3" too), row by row, and OpenColorIO's RGBA forms "4 4" and "4 5" (the
///   alpha row ignored, the alpha column met by alpha 1); a pre-SMPTE file up to version 1.2
///   takes "3 3 3" alone, as OpenColorIO requires.
/// - `Range` with `minInValue`, `maxInValue`, `minOutValue`, `maxOutValue`: all four map and
///   clamp (unless `style="noClamp"`); a min pair alone or a max pair alone, whose in and out
///   values must then be equal, is a one-sided clamp.
/// - `Log` (`LogParams`), `Exponent` (`ExponentParams`), `ASC_CDL` (`SOPNode`, `SatNode`):
///   see `LogOp`, `ExponentOp`, `CDLOp`; params with `channel="R"` etc. apply to one channel,
///   without it to all three. A log's `base` defaults to 2; the basic log styles' `LogParams`
///   are ignored, as OpenColorIO ignores them. An Exponent without params has exponent 1.
/// - `Gamma` (`GammaParams`, with `gamma` or `exponent`): OpenColorIO's CTF name for an
///   Exponent, which it reads in a CLF too (not in one stating `compCLFversion` up to 2.0).
/// `Description`, `InputDescriptor`, `OutputDescriptor` and `Info` are metadata; the first
/// `Description` (else the list's `name`) is the look's title. SMPTE ST 2136-1's `Id` is metadata
/// too: one that is not a UUID URN is noted, as OpenColorIO warns of it (`IdElement`). Other
/// elements CLF does not define (vendor elements) are skipped, as OpenColorIO skips them, and
/// named in the notes;
/// operation names match without regard to case, as in OpenColorIO.
///
/// Refused, each naming the file, the element and its line: XML that is not well formed or has a
/// DOCTYPE, a ProcessList without an `id` (or with an empty one) or a version, one with no
/// operation, an OpenColorIO CTF operator its version has not (`CLFElements`), a missing or
/// unknown bit depth or one that does not follow from the previous node, a version above 3.0, array
/// dimensions that do not fit the node, more or fewer values than the dimensions call for, values
/// that are not finite numbers (outside a LUT1D), `halfDomain` or `rawHalfs` other than "true",
/// `hueAdjust` other than dw3, an `offset` on a basic Exponent, a Log, Exponent or Gamma in a
/// file whose version OpenColorIO reads none in (the article "Agreeing with OpenColorIO" lists
/// them), and parameters outside what the operation accepts.
public struct CLFFormat: LUTFileFormat {
    public init() {}

    public var name: String { "clf" }
    public var displayName: String { "CLF (Academy/ASC Common LUT Format)" }
    public var noun: String { "a CLF file" }
    public var extensions: [String] { ["clf"] }
    public var holdsChains: Bool { true }

    /// Every chain but one holding a step at part strength that does not fold into its own data
    /// (`StrengthOp.optimizedForm`): CLF has no node that mixes a step with its input.
    public func holdsExactly(_ transform: Transform) -> Bool {
        !transform.operations.contains { operation in
            (operation as? StrengthOp)?.optimizedForm.contains { $0 is StrengthOp } == true
        }
    }

    /// The largest 1D table read: a million entries.
    public static let largest1DSize = 1 << 20
    /// The highest `compCLFversion` and `version` accepted.
    public static let newestVersion = 3.0
    public static let newestLegacyVersion = 2.0

    /// XML whose first element is a `ProcessList`.
    public func sniff(_ head: [UInt8]) -> Bool {
        String(decoding: head, as: UTF8.self).contains("<ProcessList")
    }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        try Self.read(path: path, as: self, isCTF: false)
    }

    /// The look of the ProcessList at `path`, read by CLF's rules or (`isCTF`) CTF's, as `format`.
    static func read(path: String, as format: some LUTFileFormat, isCTF: Bool) throws -> Look {
        let root = try XMLElementTree.parse(try BinaryFile.readAll(path: path), path: path)
        var reader = CLFNodeReader(path: path, isCTF: isCTF)
        let transform = try reader.transform(of: root)
        var look = Look(transform: transform, format: format, title: reader.title)
        look.notes = reader.notes
        look.inputDescriptor = reader.inputDescriptor
        look.outputDescriptor = reader.outputDescriptor
        return look
    }

    public func writeChain(_ transform: Transform, to path: String, displayPath: String, title: String) throws {
        try CLFWriter.write(transform, to: path, displayPath: displayPath, title: title)
    }

    /// A plain cube is written as a one-node CLF.
    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        try CLFWriter.write(Transform([LUT3DOp(table: ColorCube(table))]), to: path, displayPath: displayPath, title: title)
    }

    public func describe(_ look: Look) -> String {
        let count = look.transform.operations.count
        return displayName + ", \(count) operation\(count == 1 ? "" : "s")"
    }
}
