import ColorCubeCore

/// The attributes, numbers and arrays every element reader takes its values from, each refused
/// with the element and line when it is missing or not a finite number.
extension CLFNodeReader {
    /// The number in attribute `name`, or `fallback` when absent.
    func number(_ element: XMLElementTree, _ name: String, default fallback: Double? = nil) throws(LUTFileError) -> Double {
        guard let text = element.attribute(name) else {
            guard let fallback else { throw missing(element, "attribute \(name)") }
            return fallback
        }
        return try number(element, name, text: text)
    }

    /// `text`, the value of attribute `name`, as a finite number.
    func number(_ element: XMLElementTree, _ name: String, text: String) throws(LUTFileError) -> Double {
        guard let value = Double(text.trimmingWhitespace()), value.isFinite else {
            throw .malformed(path: path, line: element.line, defect: .notFinite(field: "<\(element.name)> \(name)", text: text.excerpt))
        }
        return value
    }

    func optionalNumber(_ element: XMLElementTree, _ name: String) throws(LUTFileError) -> Double? {
        element.attribute(name) == nil ? nil : try number(element, name)
    }

    /// Exactly `expected` whitespace-separated finite numbers from `element`'s text; the values are
    /// counted before any is stored, so a short declaration never makes a long file allocate.
    func numbers(_ element: XMLElementTree, expected: Int) throws(LUTFileError) -> [Double] {
        try numbers(element, expected: expected, readingNonFinite: false).values
    }

    /// `numbers(_:expected:)`, where `readingNonFinite` reads a 1D table's entries that are not
    /// finite Float32 values as OpenColorIO reads them (`nan` as 0, `inf` and values beyond
    /// Float32 as the largest Float32 of their sign, a numeral that overflows Double, such as
    /// 1e999, as 0) and counts them.
    func numbers(_ element: XMLElementTree, expected: Int,
                         readingNonFinite: Bool) throws(LUTFileError) -> (values: [Double], nonFinite: Int) {
        var values: [Double] = []
        var nonFinite = 0
        // Each value takes at least two bytes ("0 "): a short text reserves no more than it holds.
        values.reserveCapacity(min(expected, element.text.utf8.count / 2 + 1))
        let tokens = element.text.split(whereSeparator: \.separatesNumbers)
        guard tokens.count == expected else {
            throw .malformed(path: path, line: element.line,
                             defect: .wrongCount(what: "values in <\(element.name)> (its dimensions)", expected: expected, found: tokens.count))
        }
        for token in tokens {
            guard let parsed = Double(token), readingNonFinite || parsed.isFinite else {
                throw .malformed(path: path, line: element.line,
                                 defect: .notFinite(field: "<\(element.name)> value \(values.count + 1)", text: String(token.prefix(40))))
            }
            var value = parsed
            if readingNonFinite, !(abs(value) <= TextLUTParsing.largestTableEntry) {
                let largest = TextLUTParsing.largestTableEntry
                value = TextLUTParsing.nonFiniteEntry(token) ?? (value.isFinite ? (value < 0 ? -largest : largest) : 0)
                nonFinite += 1
            }
            values.append(value)
        }
        return (values, nonFinite)
    }

    /// The `Array` child's dimensions, accepted by `check` (`shapes` describes them for the
    /// message), and its `count(dims)` values; the dimensions are checked before any value is read.
    func array(_ node: XMLElementTree, describe shapes: String, readingNonFinite: Bool = false,
                       check: ([Int]) -> Bool, count: ([Int]) -> Int) throws(LUTFileError)
        -> (dims: [Int], values: [Double], element: XMLElementTree, nonFinite: Int) {
        guard let array = node.child("Array") else { throw missing(node, "<Array>", hint: "it holds the values") }
        guard let dimText = array.attribute("dim") else { throw missing(array, "attribute dim", hint: "it should be \(shapes)") }
        let dims = dimText.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map { Int($0) ?? -1 }
        guard !dims.isEmpty, dims.allSatisfy({ $0 >= 0 }), check(dims) else {
            throw fail(array, "dim \"\(dimText)\" does not fit a <\(node.name)>; it should be \(shapes)")
        }
        let (values, nonFinite) = try numbers(array, expected: count(dims), readingNonFinite: readingNonFinite)
        return (dims, values, array, nonFinite)
    }

    /// Which channels a params element applies to; `alpha` accepts `A`, which applies to none
    /// (colorcube's looks have no alpha).
    func channels(_ element: XMLElementTree, alpha: Bool = false) throws(LUTFileError) -> [Int] {
        switch element.attribute("channel")?.uppercased() {
        case nil: return [0, 1, 2]
        case "R": return [0]
        case "G": return [1]
        case "B": return [2]
        case "A" where alpha: return []
        case let other?: throw fail(element, "channel \"\(other)\" is not R, G or B")
        }
    }

    /// The children called `name`, matched without regard to case as OpenColorIO matches them.
    func parameters(_ node: XMLElementTree, _ name: String) -> [XMLElementTree] {
        let lowered = name.lowercased()
        return node.children.filter { $0.name.lowercased() == lowered }
    }

    func style(_ node: XMLElementTree) throws(LUTFileError) -> String {
        guard let style = node.attribute("style") else { throw missing(node, "attribute style") }
        return style
    }
}
