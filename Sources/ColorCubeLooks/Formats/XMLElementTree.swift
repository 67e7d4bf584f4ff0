import ColorCubeCore

/// An element of an XML document read into memory, with the line it starts on: the XML LUT
/// formats (CLF, ASC CDL) parse a file with `parse(_:path:)` and then walk these elements.
///
/// The document is read by `XMLScanner`, colorcube's own non-validating XML 1.0 reader, not by
/// Foundation's `XMLParser`: on Linux that one crashes on some well-formed input (a processing
/// instruction without data) and stops at a size limit it does not state. The elements live in
/// one flat table (`XMLDocument`, 36 bytes an element), so freeing a deep document never recurses, and an element's
/// text is decoded only when asked for.
///
/// Namespace prefixes are dropped from element names ("clf:LUT1D" is "LUT1D"). A document with a
/// DOCTYPE is refused: no LUT format uses one, and entity definitions are how XML files expand
/// without bound or reach outside files.
struct XMLElementTree {
    fileprivate let document: XMLDocument
    fileprivate let index: Int

    /// The element's name without its namespace prefix.
    var name: String { document.names[Int(document.nodes[index].name)] }

    /// 1-based line of the start tag.
    var line: Int { Int(document.nodes[index].line) }

    /// The attributes, by name (when a name is repeated, which XML forbids, the scanner has already refused the file).
    var attributes: [String: String] {
        Dictionary(document.attributes(of: index).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The element's own character data (its children's are theirs), with references decoded.
    var text: String { document.text(of: index) }

    /// The child elements, in document order.
    var children: [XMLElementTree] {
        var found: [XMLElementTree] = []
        var child = document.nodes[index].firstChild
        while child >= 0 {
            found.append(XMLElementTree(document: document, index: Int(child)))
            child = document.nodes[Int(child)].nextSibling
        }
        return found
    }

    /// The first child called `name`.
    func child(_ name: String) -> XMLElementTree? {
        var child = document.nodes[index].firstChild
        while child >= 0 {
            if document.names[Int(document.nodes[Int(child)].name)] == name {
                return XMLElementTree(document: document, index: Int(child))
            }
            child = document.nodes[Int(child)].nextSibling
        }
        return nil
    }

    /// Every child called `name`.
    func children(_ name: String) -> [XMLElementTree] {
        children.filter { $0.name == name }
    }

    /// The attribute called `name`, matched without regard to case (files in the wild write
    /// `inBitDepth` and `inbitdepth`).
    func attribute(_ name: String) -> String? {
        let attributes = document.attributes(of: index)
        if let pair = attributes.first(where: { $0.name == name }) { return pair.value }
        let lowered = name.lowercased()
        return attributes.first { $0.name.lowercased() == lowered }?.value
    }

    /// The last attribute called one of `names` (any case), with the name as written: where a
    /// format takes two spellings of one parameter, a reader that lets a later attribute
    /// overwrite an earlier one (OpenColorIO) keeps this one.
    func lastAttribute(among names: [String]) -> (name: String, value: String)? {
        let lowered = Set(names.map { $0.lowercased() })
        return document.attributes(of: index).last { lowered.contains($0.name.lowercased()) }
    }

    /// Parses `bytes` (a whole file); `path` names it in errors. The root element is returned.
    /// - Throws: `LUTFileError.malformed` with the line and what is wrong for XML that is not
    ///   well formed, for a DOCTYPE, for bytes that are not UTF-8, and for a document past
    ///   `XMLScanner.maxDepth` or `XMLScanner.maxElements`.
    static func parse(_ bytes: [UInt8], path: String) throws(LUTFileError) -> XMLElementTree {
        var scanner = XMLScanner(bytes: bytes)
        do throws(XMLScanner.Failure) {
            let document = try scanner.scan()
            return XMLElementTree(document: document, index: 0)
        } catch {
            throw .malformed(path: path, line: error.line, reason: error.reason)
        }
    }
}

/// The elements of one XML document in a flat table: element 0 is the root; each element links
/// to its first child and its next sibling by index. A node is 36 bytes: its name is an index into
/// `names` (a document has few distinct names), its attributes a run in `attributeStore`.
final class XMLDocument {
    struct Node {
        var name: Int32
        /// The node's attributes: `attributeStore[attributeStart..<attributeStart + attributeCount]`.
        var attributeStart: Int32
        var attributeCount: Int32
        var line: Int32
        var firstChild: Int32 = -1
        var lastChild: Int32 = -1
        var nextSibling: Int32 = -1
        /// The element's character data while it is one run of plain bytes (no references, no
        /// CDATA, not split by a child or comment): `textStart..<textEnd` of the file.
        var textStart: Int32 = 0
        var textEnd: Int32 = 0
        /// Else the index of its decoded text in `decodedTexts`.
        var decodedText: Int32 = -1
    }

    let bytes: [UInt8]
    var nodes: [Node] = []
    var names: [String] = []
    var nameIndex: [String: Int32] = [:]
    var attributeStore: [(name: String, value: String)] = []
    var decodedTexts: [String] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The index of `name` in `names`, added when new.
    func intern(_ name: String) -> Int32 {
        if let index = nameIndex[name] { return index }
        let index = Int32(names.count)
        names.append(name)
        nameIndex[name] = index
        return index
    }

    func attributes(of index: Int) -> ArraySlice<(name: String, value: String)> {
        let node = nodes[index]
        let start = Int(node.attributeStart)
        return attributeStore[start..<(start + Int(node.attributeCount))]
    }

    func text(of index: Int) -> String {
        let node = nodes[index]
        if node.decodedText >= 0 { return decodedTexts[Int(node.decodedText)] }
        return String(decoding: bytes[Int(node.textStart)..<Int(node.textEnd)], as: UTF8.self)
    }
}
