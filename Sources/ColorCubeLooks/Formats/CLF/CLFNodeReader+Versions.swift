import ColorCubeCore

/// The version rules of a ProcessList, as OpenColorIO 2.6 reads them: which attribute states
/// the version, the newest accepted, and whether the file reads as a CLF or as OpenColorIO's CTF.
extension CLFNodeReader {
    /// The SMPTE ST 2136-1 `compCLFversion`, accepted as OpenColorIO accepts it.
    private static let smpteVersion = "ST2136-1:2024"

    /// The SMPTE ST 2136-1 namespace: as the root's `xmlns`, it states CLF 3 by itself.
    static let smpteNamespace = "http://www.smpte-ra.org/ns/2136-1/2024"

    /// The newest major version of a CTF `<Info>` element OpenColorIO reads.
    private static let newestInfoVersion = 2

    /// Checks a .ctf's `<Info version="...">` as OpenColorIO does: its leading whole number (the
    /// minor version is for tracking alone) must be there and at most `newestInfoVersion`.
    func checkInfoVersion(_ root: XMLElementTree) throws(LUTFileError) {
        guard isCTF, let info = root.child("Info"), let text = info.attribute("version") else { return }
        var rest = Substring(text.trimmingWhitespace())
        var sign = 1
        if let first = rest.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        // Nine digits at most: any longer number is refused as too new all the same.
        let digits = rest.prefix { $0.isASCII && $0.isNumber }.prefix(9)
        guard let magnitude = Int(digits) else {
            throw fail(info, "version \"\(text.excerpt)\" is not a version number; write MAJOR.MINOR, e.g. 2.0")
        }
        guard sign * magnitude <= Self.newestInfoVersion else {
            throw fail(info, "version \(text.excerpt) is newer than the Info version OpenColorIO reads (\(Self.newestInfoVersion).x)")
        }
    }

    /// Checks the version as OpenColorIO does: `MAJOR[.MINOR[.REVISION]]` in digits alone (no
    /// sign, space or exponent), up to 3.0 for `compCLFversion` (or the SMPTE name) and up to
    /// 2.0 for the pre-SMPTE `version`; the two attributes never together. The SMPTE namespace
    /// states CLF 3 by itself, and never with the pre-SMPTE `version`.
    mutating func checkVersion(_ root: XMLElementTree, smpteNamespace: Bool) throws(LUTFileError) {
        let smpte = root.attribute("compCLFversion"), legacy = root.attribute("version")
        if smpte != nil, legacy != nil {
            throw fail(root, "it states both compCLFversion and the pre-SMPTE version; keep compCLFversion and remove version")
        }
        if smpteNamespace {
            guard legacy == nil else {
                throw fail(root, "its namespace is SMPTE ST 2136-1's, which states CLF 3, and it states the pre-SMPTE version too; "
                    + "remove version")
            }
            if smpte == nil {
                // The namespace alone: CLF 3 (the reader's defaults).
                statedVersion = "the SMPTE ST 2136-1 namespace"
                return
            }
        }
        statedVersion = smpte.map { "compCLFversion=\"\($0.excerpt)\"" } ?? legacy.map { "version=\"\($0.excerpt)\"" } ?? ""
        if let text = smpte {
            guard text != Self.smpteVersion else { return }
            guard let version = Self.versionNumbers(text) else {
                throw fail(root, "compCLFversion \"\(text.excerpt)\" is not a version number; write MAJOR[.MINOR[.REVISION]], e.g. 3.0")
            }
            guard (version.0, version.1) <= (Int(CLFFormat.newestVersion), 0) else {
                throw fail(root, "compCLFversion \(text.excerpt) is newer than CLF \(Int(CLFFormat.newestVersion)), the newest known")
            }
            readsAsCLF = version != (0, 0, 0)
            ctfVersion = version <= (2, 0, 0) ? (1, 7, 0) : (2, 0, 0)
        } else if let text = legacy {
            guard let version = Self.versionNumbers(text) else {
                throw fail(root, "version \"\(text.excerpt)\" is not a version number; write MAJOR[.MINOR[.REVISION]], e.g. 1.2")
            }
            if isCTF {
                guard version <= CTFFormat.newestVersion else {
                    let newest = CTFFormat.newestVersion
                    throw fail(root, "version \(text.excerpt) is newer than CTF \(newest.0).\(newest.1), the newest OpenColorIO reads")
                }
            } else if (version.0, version.1) > (Int(CLFFormat.newestLegacyVersion), 0) {
                throw fail(root, "version \(text.excerpt) is newer than the pre-SMPTE CLF versions (up to 2.0); "
                    + "SMPTE files state compCLFversion")
            }
            legacyVersion = version
            readsAsCLF = false
            ctfVersion = version
        } else if isCTF {
            // OpenColorIO reads a CTF that states no version as CTF 1.2.
            legacyVersion = (1, 2, 0)
            readsAsCLF = false
            ctfVersion = (1, 2, 0)
            statedVersion = "no version (read as version=\"1.2\")"
        } else {
            throw missing(root, "attribute compCLFversion (or the pre-SMPTE version)")
        }
    }

    /// The numbers of `MAJOR[.MINOR[.REVISION]]` (digits only; absent ones are 0), or nil.
    static func versionNumbers(_ text: String) -> (Int, Int, Int)? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        let numbers = parts.compactMap { (part) -> Int? in
            guard part.utf8.count <= 9 else { return nil }
            return TextLUTParsing.wholeNumber(part)
        }
        guard numbers.count == parts.count else { return nil }
        return (numbers[0], numbers.count > 1 ? numbers[1] : 0, numbers.count > 2 ? numbers[2] : 0)
    }
}
