import ColorCubeCore

/// SMPTE ST 2136-1's `<Id>`: metadata naming the ProcessList, a UUID URN ("urn:uuid:" and
/// 8-4-4-4-12 hexadecimal digits, either case; spaces around it allowed). Any other value is
/// read as OpenColorIO 2.6 reads it: the look is applied, and a note names the value and says
/// it is not an ST 2136-1 Id.
struct IdElement: CLFElement {
    var name: String { "Id" }
    var isMetadata: Bool { true }

    func readMetadata(_ node: XMLElementTree, with reader: inout CLFNodeReader) throws(LUTFileError) {
        let value = node.text.trimmingWhitespace()
        guard !Self.isUUIDURN(value) else { return }
        // A UUID URN is 45 characters: quote that much of a wrong one whole.
        let shown = value.count > 64 ? value.prefix(64) + "..." : value
        reader.notes.append("line \(node.line): <Id> \"\(shown)\" is not a SMPTE ST 2136-1 Id, which is \"urn:uuid:\" "
            + "and a UUID (e.g. urn:uuid:123e4567-e89b-12d3-a456-426614174000); the look is read all the same, as OpenColorIO reads it")
    }

    /// True for "urn:uuid:" followed by five groups of 8, 4, 4, 4 and 12 hexadecimal digits
    /// separated by hyphens.
    static func isUUIDURN(_ text: String) -> Bool {
        let prefix = "urn:uuid:"
        guard text.hasPrefix(prefix) else { return false }
        let groups = text.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
    }
}
