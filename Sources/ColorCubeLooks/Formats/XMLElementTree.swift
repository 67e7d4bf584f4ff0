import ColorCubeCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML document read into memory as a tree of elements, each with the line it starts on: the
/// XML LUT formats (CLF, ASC CDL) parse with Foundation's `XMLParser` and then walk this tree.
///
/// Namespace prefixes are dropped from element names ("clf:LUT1D" is "LUT1D"). Bytes that are
/// not UTF-8, and NUL bytes, are refused before parsing. A document with a DOCTYPE is refused too: no LUT format uses one, and entity definitions are how XML
/// files expand without bound or reach outside files; external entities are never resolved.
final class XMLElementTree {
    let name: String
    let attributes: [String: String]
    /// The element's own character data (its children's are theirs).
    var text = ""
    var children: [XMLElementTree] = []
    /// 1-based line of the start tag.
    let line: Int

    init(name: String, attributes: [String: String], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    /// The first child called `name`.
    func child(_ name: String) -> XMLElementTree? {
        children.first { $0.name == name }
    }

    /// Every child called `name`.
    func children(_ name: String) -> [XMLElementTree] {
        children.filter { $0.name == name }
    }

    /// The attribute called `name`, matched without regard to case (files in the wild write
    /// `inBitDepth` and `inbitdepth`).
    func attribute(_ name: String) -> String? {
        if let value = attributes[name] { return value }
        let lowered = name.lowercased()
        return attributes.first { $0.key.lowercased() == lowered }?.value
    }

    /// Parses `bytes` (a whole file); `path` names it in errors.
    /// - Throws: `LUTFileError.malformed` with the line XMLParser stopped at for XML that is not
    ///   well formed, and for a DOCTYPE.
    static func parse(_ bytes: [UInt8], path: String) throws(LUTFileError) -> XMLElementTree {
        if let (line, offset) = invalidUTF8(bytes) {
            throw .malformed(path: path, line: line, reason: "byte \(offset + 1) is not UTF-8 text (or is a NUL); "
                + "XML LUT files are UTF-8")
        }
        if let line = doctypeLine(bytes) {
            throw .malformed(path: path, line: line, reason: "the file has a DOCTYPE; LUT files have none, and its "
                + "entity definitions are not expanded for safety")
        }
        let builder = Builder()
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = builder
        let succeeded = parser.parse()
        guard succeeded, builder.stack.isEmpty, let root = builder.root else {
            let line = max(builder.errorLine ?? parser.lineNumber, 1)
            let reason = builder.errorLine != nil || parser.parserError != nil
                ? "not well-formed XML: the parser stopped here (a tag not closed or closed twice, a stray '<' or '&', "
                    + "an attribute without quotes, or the file ends early)"
                : "not well-formed XML: the document ends inside an element or has no root element"
            throw .malformed(path: path, line: line, reason: reason)
        }
        return root
    }

    /// The line and offset of the first byte that is not part of valid UTF-8, or is NUL; nil when
    /// there is none. Checked before parsing because Foundation's XMLParser on Linux traps on
    /// element names that are not UTF-8 (found by fuzzing).
    private static func invalidUTF8(_ bytes: [UInt8]) -> (line: Int, offset: Int)? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0, line = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1 {
                    let byte = encoded.first ?? 0
                    if byte == 0 { return (line, offset) }
                    if byte == UInt8(ascii: "\n") { line += 1 }
                }
                offset += encoded.count
            case .error:
                return (line, offset)
            case .emptyInput:
                return nil
            }
        }
    }

    /// The line of `<!DOCTYPE` in `bytes`, or nil.
    private static func doctypeLine(_ bytes: [UInt8]) -> Int? {
        let marker = Array("<!DOCTYPE".utf8)
        var line = 1
        var index = 0
        while index + marker.count <= bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") { line += 1 }
            if byte == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "!") {
                var matches = true
                for offset in 2..<marker.count where bytes[index + offset] & 0xDF != marker[offset] {
                    matches = false
                    break
                }
                if matches { return line }
            }
            index += 1
        }
        return nil
    }

    /// Collects elements as XMLParser reports them.
    private final class Builder: NSObject, XMLParserDelegate {
        var root: XMLElementTree?
        var stack: [XMLElementTree] = []
        /// The line of the first error, taken when it is reported (the parser's own line number
        /// has moved on by the time `parse()` returns). XMLParser's error codes are libxml2's on
        /// Linux and its own on Apple platforms, so they are not put into words.
        var errorLine: Int?

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if errorLine == nil { errorLine = parser.lineNumber }
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            let localName = elementName.split(separator: ":").last.map(String.init) ?? elementName
            let element = XMLElementTree(name: localName, attributes: attributeDict, line: parser.lineNumber)
            if let parent = stack.last {
                parent.children.append(element)
            } else if root == nil {
                root = element
            }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            _ = stack.popLast()
        }
    }
}
