/// Errors in reading a LUT file whose bytes could be read; each case names the file and, for text
/// formats, the line. (A file that cannot be opened or read is a `FileError.cannotOpen`.)
public enum LUTFileError: ColorCubeError, Equatable {
    /// A text LUT that breaks its format's rules at `line` (1-based), in the way `defect` says.
    case malformed(path: String, line: Int, defect: Defect)
    /// Raw cube data whose length is not size^3 * 16 bytes for a size in 2...256.
    case wrongLength(path: String, bytes: Int)
    /// A binary LUT whose content its decoder cannot parse (an ICC profile Little CMS rejects).
    case undecodable(path: String, reason: String)
    /// A file whose format cannot be told from its extension or content; `readable` lists the
    /// extensions that can be read (".cube", ".bin/.raw", ...).
    case unknownFormat(path: String, readable: [String])
    /// A file that is valid but holds something colorcube cannot use as a look.
    case unsupported(path: String, reason: String)
    /// A look that `format` (its noun: "a .cube") cannot be written as: it holds `holds` ("a 1D
    /// table"), the look is `given` ("a cube", or the look's operations).
    case cannotHold(path: String, format: String, holds: String, given: String)

    /// A malformed file whose defect has no case of its own, said in words.
    public static func malformed(path: String, line: Int, reason: String) -> LUTFileError {
        .malformed(path: path, line: line, defect: .other(reason))
    }

    /// What is wrong at the line of a malformed file: a case of its own where a caller or a test
    /// branches on it (a value that is not a number, a size out of range, a count that does not
    /// match, a part that is missing), words otherwise.
    public enum Defect: Equatable, Sendable, CustomStringConvertible {
        /// `field` ("LUT_3D_SIZE", "<Slope>", "value 4") is written `text`, which is not a finite
        /// number.
        case notFinite(field: String, text: String)
        /// `field` is written `text`, which is not a whole number.
        case notWhole(field: String, text: String)
        /// `field` is the whole number written `text`, outside `range`.
        case outOfRange(field: String, text: String, range: ClosedRange<Int>)
        /// `found` of `what` where the format calls for `expected`. `what` is the words that follow
        /// the number: "values (red green blue)", "numbers after LUT_3D_SIZE", "numbers in <Slope>".
        case wrongCount(what: String, expected: Int, found: Int)
        /// The file ends after `found` of `what` ("data lines"); `calledFor` ("LUT_3D_SIZE 33", "a
        /// shaper of 17 values") calls for `expected`.
        case endsEarly(what: String, found: Int, expected: Int, calledFor: String)
        /// `part` ("attribute id", "<Slope>", "the 'Length n' line") is missing from `container`
        /// (an XML element, "<SOPNode>"; nil for the file); `hint`, when given, says where it goes
        /// or what it holds.
        case missing(part: String, container: String?, hint: String?)
        /// Anything else.
        case other(String)

        public var description: String {
            switch self {
            case .notFinite(let field, let text): "\(field): '\(text)' is not a finite number"
            case .notWhole(let field, let text): "\(field): '\(text)' is not a whole number"
            case .outOfRange(let field, let text, let range): "\(field) \(text) is outside \(range.lowerBound)...\(range.upperBound)"
            case .wrongCount(let what, let expected, let found): "expected \(expected) \(what), found \(found)"
            case .endsEarly(let what, let found, let expected, let calledFor):
                "the file ends after \(found) \(what); \(calledFor) calls for \(expected)"
            case .missing(let part, let container, let hint):
                (container.map { $0 + ": " } ?? "") + "\(part) is missing" + (hint.map { "; " + $0 } ?? "")
            case .other(let reason): reason
            }
        }
    }

    public var path: String? {
        switch self {
        case .malformed(let path, _, _), .wrongLength(let path, _), .undecodable(let path, _),
             .unknownFormat(let path, _), .unsupported(let path, _), .cannotHold(let path, _, _, _):
            path
        }
    }

    public var description: String {
        switch self {
        case .malformed(let path, let line, let defect):
            "\(path), line \(line): \(defect)"
        case .wrongLength(let path, let bytes):
            "\(path): \(bytes) bytes is not raw cube data (expected size^3 * 16 bytes, "
                + "e.g. 4,194,304 for a 64-cube); was it written as RGBA Float32?"
        case .undecodable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .unknownFormat(let path, let readable):
            "\(path): unknown LUT format; colorcube reads \(Self.list(readable)) files"
        case .unsupported(let path, let reason):
            "\(path): \(reason)"
        case .cannotHold(let path, let format, let holds, let given):
            "\(path): \(format) holds \(holds), not \(given)"
        }
    }

    /// "a, b and c".
    private static func list(_ items: [String]) -> String {
        guard let last = items.last else { return "no" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }
}
