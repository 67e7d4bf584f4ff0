import ColorCubeConverter
import ColorCubeLooks
import ColorCubeCore
import ColorCubeTransform
import Foundation

/// How a look is named on the command line: one LUT file, or a chain of files joined by `+`
/// (`log-to-rec709.cube+grade.cc`), applied left to right with no intermediate file. A file whose
/// own name holds a `+` is read as that file when it exists.
enum LookSpec {
    /// The separator between the files of a chain.
    static let separator: Character = "+"

    /// The help text's description of a LOOK argument.
    static let help = "any LUT file (" + FormatArgument.readableList + "), or several joined by + to chain them; "
        + "space:FROM,TO in a chain converts between two colour spaces"

    /// The files `spec` names, in order (conversions between colour spaces left out).
    static func paths(_ spec: String) -> [String] {
        elements(spec).filter { (try? conversion($0)) == nil }
    }

    /// The files and conversions of `spec`, in order.
    static func elements(_ spec: String) -> [String] {
        if !spec.contains(separator) || FileManager.default.fileExists(atPath: spec) { return [spec] }
        return spec.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
    }

    /// Reads every file of `spec` and chains them (see `Look.init(chain:)`).
    /// - Throws: `CommandFailure` for an empty name in a chain; the reader's errors otherwise.
    static func read(_ spec: String, options: LUTReadOptions) throws -> Look {
        let files = elements(spec)
        if files.contains(where: \.isEmpty) {
            throw CommandFailure("\(spec): a chain of looks needs a file name on each side of every +")
        }
        var previousTarget: ColorSpace?
        return Look(chain: try files.map { file in
            if let (source, target) = try conversion(file) {
                previousTarget = target
                return try Look(conversionFrom: source, to: target)
            }
            let look = try LUTReader.read(path: file, options: options)
            if isDisplayProfile(look), previousTarget?.gamut != Gamut.xyzD65 {
                Diagnostics.warning("\(file) is an ICC display profile: read as OpenColorIO reads it, it takes CIE XYZ (D65) "
                    + "to the display's codes, so on a picture's RGB it moves colours without meaning; to see a picture as "
                    + "that display shows it, chain a conversion to XYZ first: "
                    + "\(conversionPrefix)srgb_rec709_display,lin_ciexyzd65_display+\(file)")
            }
            previousTarget = nil
            return look
        })
    }

    /// True for an ICC profile of a display (not a device link): a transform from XYZ, not a look.
    private static func isDisplayProfile(_ look: Look) -> Bool {
        look.format.isSame(as: DeviceLinkFormat()) && look.plainTable == nil
    }

    /// The prefix of a chain element that names a colour space conversion rather than a file:
    /// `space:FROM,TO` (`space:srgb_tx,slog3_sgamut3cine`).
    static let conversionPrefix = "space:"

    /// The two spaces of a `space:FROM,TO` element, nil for a file name.
    /// - Throws: `CommandFailure` for an element without two names; `ColorSpaceError` for an unknown one.
    static func conversion(_ element: String) throws -> (ColorSpace, ColorSpace)? {
        guard element.lowercased().hasPrefix(conversionPrefix), !FileManager.default.fileExists(atPath: element) else { return nil }
        let names = element.dropFirst(conversionPrefix.count).split(separator: ",", omittingEmptySubsequences: false)
        guard names.count == 2, names.allSatisfy({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw CommandFailure("\(element.prefix(80)): a conversion in a chain is space:FROM,TO, two colour spaces "
                + "separated by a comma (colorcube spaces lists them)")
        }
        return (try ColorSpaces.lookUp(String(names[0])), try ColorSpaces.lookUp(String(names[1])))
    }
}
