import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation

/// How a look is named in words, on the command line and in the studio page alike: one LUT file,
/// or a chain of steps joined by `+` (`log-to-rec709.cube+grade.cc`), applied left to right with no
/// intermediate file. A step is a file, optionally at part strength (`film.cube@0.6`,
/// `film.cube@60%`: `out = in + 0.6 * (film(in) - in)`, see `StrengthOp`), or a conversion
/// between two colour spaces (`space:FROM,TO`).
///
/// A file whose own name holds a `+` or an `@` is read as that file when it exists: the whole
/// name for `+`, one step's name for `@`.
public enum LookSpec {
    /// The separator between the steps of a chain.
    public static let separator: Character = "+"
    /// The separator between a step and its strength.
    public static let strengthMark: Character = "@"
    /// The prefix of a step that names a colour space conversion rather than a file:
    /// `space:FROM,TO` (`space:srgb_tx,slog3_sgamut3cine`).
    public static let conversionPrefix = "space:"

    /// One step of a chain as written.
    public enum Step: Sendable, Equatable {
        /// A LUT file, and the strength it is applied at (1 for full).
        case file(path: String, strength: Double)
        /// A conversion between two colour spaces (their names as written), at a strength.
        case conversion(from: String, to: String, strength: Double)
    }

    /// The files `spec` names, in order (conversions between colour spaces and strengths left out).
    public static func paths(_ spec: String) -> [String] {
        elements(spec).compactMap { element in
            guard case .file(let path, _)? = try? step(element) else { return nil }
            return path
        }
    }

    /// The steps of `spec` as written, split at every `+` unless `spec` is an existing file.
    public static func elements(_ spec: String) -> [String] {
        if !spec.contains(separator) || FileManager.default.fileExists(atPath: spec) { return [spec] }
        return spec.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
    }

    /// Reads every file of `spec` and chains them (see `Look.init(chain:)`), each step at its strength.
    /// - Parameter reader: reads one file (default: `LUTReader` with `options`); a front end that
    ///   reads the same files again and again passes one that keeps what it read.
    /// - Throws: `LookSpecError` for an empty step, a strength or conversion that does not parse;
    ///   `ColorSpaceError` for an unknown space; the reader's errors otherwise.
    public static func read(_ spec: String, options: LUTReadOptions, reader: ((String) throws -> Look)? = nil) throws -> Look {
        let elements = elements(spec)
        if elements.contains(where: \.isEmpty) { throw LookSpecError.emptyStep(spec: spec) }
        var previousTarget: ColorSpace?
        return Look(chain: try elements.map { element in
            var look: Look, strength: Double
            switch try step(element) {
            case .file(let path, let s):
                (look, strength) = (try reader?(path) ?? LUTReader.read(path: path, options: options), s)
                // An ICC display profile takes XYZ: on a picture's RGB, unless a conversion to XYZ comes first.
                if look.format.isSame(as: DeviceLinkFormat()), look.plainTable == nil, previousTarget?.gamut != Gamut.xyzD65 {
                    look.displayProfileOnRGB = path
                }
                previousTarget = nil
            case .conversion(let from, let to, let s):
                let target = try ColorSpaces.lookUp(to)
                (look, strength) = (try Look(conversionFrom: try ColorSpaces.lookUp(from), to: target), s)
                previousTarget = target
            }
            guard strength < 1 else { return look }
            var mixed = look
            mixed.transform = Transform([try StrengthOp(look.transform, strength: strength)])
            return mixed
        })
    }

    /// One step of a chain: an existing file as it is named, else its name and strength
    /// (`name@0.6`, `name@60%`), a conversion when the name starts with `space:`.
    /// - Throws: `LookSpecError` for a strength or a conversion that does not parse.
    public static func step(_ element: String) throws(LookSpecError) -> Step {
        if FileManager.default.fileExists(atPath: element) { return .file(path: element, strength: 1) }
        var name = element, strength = 1.0
        if let mark = element.lastIndex(of: strengthMark) {
            name = String(element[..<mark])
            let text = String(element[element.index(after: mark)...])
            guard !name.isEmpty, let value = parseStrength(text) else {
                throw .badStrength(step: element, text: text)
            }
            strength = value
        }
        guard name.lowercased().hasPrefix(conversionPrefix), !FileManager.default.fileExists(atPath: name) else {
            return .file(path: name, strength: strength)
        }
        let names = name.dropFirst(conversionPrefix.count).split(separator: ",", omittingEmptySubsequences: false)
        guard names.count == 2, names.allSatisfy({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw .badConversion(step: element)
        }
        return .conversion(from: String(names[0]), to: String(names[1]), strength: strength)
    }

    /// A strength as written after `@`: a number from 0 to 1 (`0.6`) or a percentage (`60%`).
    public static func parseStrength(_ text: String) -> Double? {
        let percent = text.hasSuffix("%")
        let digits = percent ? String(text.dropLast()) : text
        // Digits and one point only: no signs, exponents, "nan" or "inf".
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              digits.filter({ $0 == "." }).count <= 1, let value = Double(digits) else { return nil }
        let strength = percent ? value / 100 : value
        return (0...1).contains(strength) ? strength : nil
    }

    /// The text of one step: `path`, `path@0.6` below full strength (the shortest decimal that
    /// reads back as `strength`).
    public static func text(path: String, strength: Double) -> String {
        strength >= 1 ? path : path + String(strengthMark) + "\(strength)"
    }
}
