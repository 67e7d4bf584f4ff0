import ColorCubeCore
import ColorCubeTransform

/// The pre-SMPTE IndexMap a LUT1D or LUT3D may hold.
extension CLFNodeReader {
    /// A pre-SMPTE IndexMap, read as OpenColorIO reads it: the operations to put before the table.
    ///
    /// The map is `dim` pairs "value@index" (spaces allowed around the @), values and indices
    /// increasing, one map per table. What it does depends on the version the file states:
    /// - CLF 2 and CTF from 1.5 (a LUT1D) or 1.7 (a LUT3D): a map of two pairs is a clamping
    ///   Range from the values (in the table's input bit depth) to the indices (over the table's
    ///   `entries`), put before the table; a longer map is refused.
    /// - Older CTF versions: checked, then ignored.
    /// - CLF 3 and CTF 2, which dropped the element: its pairs are counted, then it is ignored.
    /// The notes say when a map is ignored.
    mutating func indexMap(_ node: XMLElementTree, inDepth: CLFBitDepth, entries: Int) throws(LUTFileError) -> [any TransformOp] {
        let maps = node.children("IndexMap")
        guard let map = maps.first else { return [] }
        guard maps.count == 1 else {
            throw fail(maps[1], "a second IndexMap in one <\(node.name)>; a table has at most one: remove it")
        }
        guard let dimText = map.attribute("dim") else {
            throw missing(map, "attribute dim", hint: "it is the number of entries, e.g. dim=\"2\"")
        }
        guard let dim = TextLUTParsing.wholeNumber(dimText.trimmingWhitespace()), dim >= 2 else {
            throw fail(map, "dim \"\(dimText.excerpt)\" is not a number of entries (2 or more)")
        }
        let tokens = map.text.split { $0.separatesNumbers || $0 == "@" }
        guard tokens.count.isMultiple(of: 2) else {
            throw fail(map, "'\(map.text.trimmingWhitespace().excerpt)' is not pairs \"value@index\"")
        }
        guard tokens.count / 2 <= dim else {
            throw LUTFileError.malformed(path: path, line: map.line, defect: .wrongCount(what: "entries in <IndexMap> (its dim)", expected: dim, found: tokens.count / 2))
        }
        let dropped = ctfVersion >= (2, 0, 0)
        let fullForm = node.name == "LUT1D" ? (1, 5, 0) : (1, 7, 0)
        if !dropped {
            guard tokens.count / 2 == dim else {
                throw LUTFileError.malformed(path: path, line: map.line, defect: .wrongCount(what: "entries in <IndexMap> (its dim)", expected: dim, found: tokens.count / 2))
            }
        }
        var pairs: [(input: Double, index: Double)] = []
        for pair in 0..<(tokens.count / 2) {
            guard let input = Double(tokens[2 * pair]), let index = Double(tokens[2 * pair + 1]) else {
                throw fail(map, "'\(tokens[2 * pair].prefix(40))@\(tokens[2 * pair + 1].prefix(40))' is not \"value@index\"")
            }
            // Written so that NaN passes, as it passes OpenColorIO's check.
            if !dropped, let previous = pairs.last, previous.input >= input || previous.index >= index {
                throw fail(map, "'\(tokens[2 * pair].prefix(40))@\(tokens[2 * pair + 1].prefix(40))' does not follow the entry "
                    + "before it; values and indices must increase")
            }
            pairs.append((input, index))
        }
        let written = stride(from: 0, to: tokens.count, by: 2).map { "\(tokens[$0])@\(tokens[$0 + 1])" }.joined(separator: " ")
        guard !dropped, ctfVersion >= fullForm else {
            notes.append("line \(map.line): the IndexMap of the <\(node.name)> (\(written)) is ignored, as OpenColorIO ignores it in "
                + "\(dropped ? "CLF 3 and CTF 2, which dropped the element" : "a CTF before version \(fullForm.0).\(fullForm.1)")"
                + "; the table's entries are spread evenly over the input range")
            return []
        }
        guard pairs.count == 2 else {
            throw fail(map, "an IndexMap of \(pairs.count) entries; OpenColorIO applies two (the input range and the entries it "
                + "spans): resample the table over that range and remove the map")
        }
        let last = Double(entries - 1)
        do throws(TransformError) {
            return [try RangeOp(from: pairs[0].input / inDepth.scale, pairs[1].input / inDepth.scale,
                                to: pairs[0].index / last, pairs[1].index / last)]
        } catch {
            throw fail(map, error.description)
        }
    }
}
