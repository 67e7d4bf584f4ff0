import ColorCubeCore
import ColorCubeTransform

/// Autodesk's Common Transform Format (.ctf): the XML `ProcessList` OpenColorIO reads with its CLF
/// reader, by CTF's rules, and writes the operators CLF has no node for in. Written by
/// `CTFWriter` (version 2, or 2.5 for a hue curve): every chain colorcube reads, HLG's system
/// gamma and OpenColorIO's fixed functions, exposure-contrast and grading operators included.
///
/// Everything `CLFFormat` reads reads here the same way, with these differences, each as
/// OpenColorIO 2.6 has it:
/// - The version is the root's `version` (MAJOR[.MINOR[.REVISION]], up to `newestVersion`);
///   a ProcessList that states none is read as version 1.2. A `compCLFversion` makes the file a
///   CLF, read as `CLFFormat` reads it.
/// - The version decides what a node may be: before 1.3 a Matrix takes `dim="3 3 3"` alone and
///   there is no `Log` or `ASC_CDL`; before 1.5 a Gamma has no alpha parameters; before 2.0 a
///   Gamma or Exponent has the basic and monCurve styles alone.
/// - `InverseLUT1D` (a LUT1D's content, its entries in units of `inBitDepth`) reads as the 1D
///   table OpenColorIO bakes its exact inverse into by default (`CTFInverseTable`); `InverseLUT3D`
///   as the lattice it bakes (`TransformInverter.openColorIOInverse(of:)`); either next to the
///   table it undoes as the clamp OpenColorIO's optimiser leaves.
/// - `Reference path="..."` reads the named file (any format colorcube reads), inverted when
///   `inverted="true"`, relative paths starting from the folder of the first file read
///   (`CTFReference`); cycles, missing files and `alias` references are refused.
/// - `ExposureContrast` reads into an `ExposureContrastOp` (every style; a file stating
///   `compCLFversion` has none). `FixedFunction` (from version 2.0) and its deprecated forms
///   `Function` (1.6) and `ACES` (1.5, with `ACESParams`) read into a `FixedFunctionOp`: the
///   BT.2100 surround, HSV, HSY, xyY, u'v'Y, L*u*v*, PQ, GammaLog, DoubleLog, ACES RedMod and
///   Glow (of ACES 0.3 and 0.7, and of 1.0), DarkToDim10, GamutComp13 and ACES 2.0 styles (the
///   output transform, JMh, tone scale with chroma compression, gamut compression): every style
///   OpenColorIO 2.6 has. Neither is scaled by integer bit depths.
/// - Each CTF operator has the first version OpenColorIO reads it in (its `CTFOperator` in `CLFElements`); a file read
///   as a CLF (one stating `compCLFversion`, whatever its extension) holds `ACES` and `Reference`
///   alone, and a `.clf` stating a pre-SMPTE `version` holds the others, as OpenColorIO reads it.
/// - The grading operators `GradingPrimary`, `GradingTone`, `GradingRGBCurve` (from 2.0) and
///   `GradingHueCurve` (2.5) read into a `GradingPrimaryOp`, `GradingToneOp`, `GradingRGBCurveOp`
///   and `GradingHueCurveOp` (each style, each direction), with OpenColorIO's checks; a
///   `DynamicParameter` is applied with the values the file gives.
/// Elements neither format defines are skipped, as OpenColorIO skips them, and named in the notes.
public struct CTFFormat: LUTFileFormat {
    public init() {}

    public var name: String { "ctf" }
    public var displayName: String { "CTF (Autodesk Common Transform Format)" }
    public var noun: String { "a CTF file" }
    public var extensions: [String] { ["ctf"] }
    public var holdsChains: Bool { true }

    /// The newest CTF `version` OpenColorIO 2.6 reads (major, minor, revision).
    public static let newestVersion = (2, 6, 0)

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        try CLFFormat.read(path: path, as: self, isCTF: true)
    }

    public func writeChain(_ transform: Transform, to path: String, displayPath: String, title: String) throws {
        try CTFWriter.write(transform, to: path, displayPath: displayPath, title: title)
    }

    /// A plain cube is written as a one-node CTF.
    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        try CTFWriter.write(Transform([LUT3DOp(table: ColorCube(table))]), to: path, displayPath: displayPath, title: title)
    }

    public func describe(_ look: Look) -> String {
        let count = look.transform.operations.count
        return displayName + ", \(count) operation\(count == 1 ? "" : "s")"
    }
}
