/// colorcube's XML 1.0 reader for LUT files: checks that a document is well formed (as expat,
/// which OpenColorIO uses, does) and builds its `XMLDocument`, in one pass without recursion.
///
/// What it reads: an optional byte-order mark and XML declaration, comments, processing
/// instructions (skipped), elements with attributes, character data with the five predefined
/// and numeric character references, and CDATA sections. What it refuses: a DOCTYPE (no LUT
/// format has one; entity definitions are how XML bombs expand), bytes that are not UTF-8 or are
/// control characters XML forbids, and documents past its limits, `maxDepth` nested elements,
/// `maxElements` elements and `maxAttributes` attributes in all, each stated in the message. External entities do not exist for it.
struct XMLScanner {
    /// Elements nested deeper than this are refused. LUT files nest 3 to 6 deep.
    static let maxDepth = 256
    /// Documents with more elements than this are refused (a .ccc of 100,000 corrections has
    /// 700,000); it bounds the table at 36 MB whatever the file.
    static let maxElements = 1_000_000
    /// Documents with more attributes than this are refused (that .ccc has 100,000): with the
    /// element limit, it keeps a hostile document's table under 60 MB.
    static let maxAttributes = 500_000

    /// Where and why the document is not read.
    struct Failure: Error {
        let line: Int
        let reason: String
    }

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    private let document: XMLDocument
    /// The open elements, innermost last.
    private var open: [Int32] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.document = XMLDocument(bytes: bytes)
    }

    /// Reads the whole document.
    mutating func scan() throws(Failure) -> XMLDocument {
        try checkEncoding()
        // Every element starts with '<': reserving that many nodes (at most the limit) spares
        // the table's growth from holding an old and a new copy at once.
        var opens = 0
        for byte in bytes where byte == UInt8(ascii: "<") { opens += 1 }
        document.nodes.reserveCapacity(min(opens, Self.maxElements))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        if starts(with: "<?xml"), position + 5 < bytes.count, Self.isSpace(bytes[position + 5]) {
            try skipProcessingInstruction()
        }
        // Prolog, root, then what may follow it.
        var sawRoot = false
        while true {
            skipSpaces()
            guard position < bytes.count else { break }
            guard bytes[position] == UInt8(ascii: "<") else {
                throw fail(sawRoot ? "text after the root element's end; a document has one root element"
                                   : "text before the root element; the document must start with '<'")
            }
            if starts(with: "<!--") {
                try skipComment()
            } else if starts(with: "<?") {
                try skipProcessingInstruction()
            } else if starts(with: "<!") {
                if startsIgnoringCase(with: "<!DOCTYPE") {
                    throw fail("the file has a DOCTYPE; LUT files have none, and its entity definitions are not "
                        + "expanded for safety")
                }
                throw fail("'<!' that starts no comment; a CDATA section is allowed only inside an element")
            } else if sawRoot {
                throw fail("a second root element; a document has one root element")
            } else {
                try scanRoot()
                sawRoot = true
            }
        }
        guard sawRoot else { throw fail("the document has no root element") }
        return document
    }

    // MARK: Elements

    /// The root element and everything inside it.
    private mutating func scanRoot() throws(Failure) {
        try startTag()
        while !open.isEmpty {
            guard position < bytes.count else {
                let node = document.nodes[Int(open[open.count - 1])]
                throw Failure(line: Int(node.line), reason: "not well-formed XML: the file ends inside "
                    + "<\(document.names[Int(node.name)])>, opened on this line and never closed")
            }
            if bytes[position] != UInt8(ascii: "<") {
                try characterData()
            } else if starts(with: "</") {
                try endTag()
            } else if starts(with: "<!--") {
                try skipComment()
            } else if starts(with: "<![CDATA[") {
                try cdata()
            } else if starts(with: "<?") {
                try skipProcessingInstruction()
            } else if starts(with: "<!") {
                throw fail(startsIgnoringCase(with: "<!DOCTYPE")
                    ? "a DOCTYPE inside an element" : "'<!' that starts no comment or CDATA section")
            } else {
                try startTag()
            }
        }
    }

    /// `<name attributes>` or `<name attributes/>`, at '<'.
    private mutating func startTag() throws(Failure) {
        let tagLine = line
        position += 1
        let qualified = try name(of: "element")
        var attributes: [(name: String, value: String)] = []
        while true {
            let hadSpace = skipSpaces()
            guard position < bytes.count else { throw fail("the file ends inside the start tag <\(qualified)>") }
            let byte = bytes[position]
            if byte == UInt8(ascii: ">") || (byte == UInt8(ascii: "/") && starts(with: "/>")) { break }
            guard hadSpace else { throw fail("in <\(qualified)>: expected a space, '>' or '/>', found \(Self.show(byte))") }
            let attribute = try name(of: "attribute")
            skipSpaces()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw fail("in <\(qualified)>: the attribute \(attribute) has no '=' and value")
            }
            position += 1
            skipSpaces()
            let value = try attributeValue(of: attribute)
            if attributes.contains(where: { $0.name == attribute }) {
                throw fail("in <\(qualified)>: the attribute \(attribute) is given twice")
            }
            attributes.append((attribute, value))
        }
        let selfClosing = bytes[position] == UInt8(ascii: "/")
        position += selfClosing ? 2 : 1

        guard document.nodes.count < Self.maxElements else {
            throw Failure(line: line, reason: "the document has more than \(Self.maxElements) elements, colorcube's limit for XML looks")
        }
        guard open.count < Self.maxDepth else {
            throw Failure(line: line, reason: "elements nest more than \(Self.maxDepth) deep, colorcube's limit for XML looks "
                + "(LUT files nest a few levels)")
        }
        let localName = qualified.split(separator: ":").last.map(String.init) ?? qualified
        let index = Int32(document.nodes.count)
        document.nodes.append(XMLDocument.Node(name: document.intern(localName),
                                               attributeStart: Int32(document.attributeStore.count),
                                               attributeCount: Int32(attributes.count), line: Int32(clamping: tagLine)))
        guard document.attributeStore.count + attributes.count <= Self.maxAttributes else {
            throw Failure(line: line, reason: "the document has more than \(Self.maxAttributes) attributes, colorcube's limit for XML looks")
        }
        document.attributeStore.append(contentsOf: attributes)
        if let parent = open.last {
            let parentIndex = Int(parent)
            if document.nodes[parentIndex].lastChild >= 0 {
                document.nodes[Int(document.nodes[parentIndex].lastChild)].nextSibling = index
            } else {
                document.nodes[parentIndex].firstChild = index
            }
            document.nodes[parentIndex].lastChild = index
        }
        if !selfClosing { open.append(index) }
    }

    /// `</name>`, at '<'; it must close the innermost open element.
    private mutating func endTag() throws(Failure) {
        position += 2
        let closed = try name(of: "element")
        skipSpaces()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
            throw fail("the end tag </\(closed)> is not closed with '>'")
        }
        position += 1
        guard let innermost = open.last else { throw fail("the end tag </\(closed)> closes nothing") }
        let node = document.nodes[Int(innermost)]
        let localName = closed.split(separator: ":").last.map(String.init) ?? closed
        let openName = document.names[Int(node.name)]
        // Compared without prefixes as stored; a prefix mismatch alone is not worth a refusal.
        guard localName == openName else {
            throw fail("the end tag </\(closed)> does not match <\(openName)>, opened on line \(node.line)")
        }
        open.removeLast()
    }

    /// An XML name (letters, digits, '_', ':', '-', '.', and any non-ASCII character; not
    /// starting with a digit, '-' or '.').
    private mutating func name(of kind: String) throws(Failure) -> String {
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        guard position > start else {
            throw fail(position < bytes.count
                ? "expected an \(kind) name, found \(Self.show(bytes[position]))"
                : "the file ends where an \(kind) name was expected")
        }
        let first = bytes[start]
        if first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (first >= 0x30 && first <= 0x39) {
            throw fail("an \(kind) name cannot start with \(Self.show(first))")
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// A quoted attribute value with references decoded, at the quote.
    private mutating func attributeValue(of attribute: String) throws(Failure) -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
            throw fail("the value of the attribute \(attribute) is not in quotes")
        }
        let quote = bytes[position]
        position += 1
        var value: [UInt8] = []
        while true {
            guard position < bytes.count else { throw fail("the file ends inside the value of the attribute \(attribute)") }
            let byte = bytes[position]
            if byte == quote { position += 1; break }
            if byte == UInt8(ascii: "<") { throw fail("'<' inside the value of the attribute \(attribute); write &lt;") }
            if byte == UInt8(ascii: "&") {
                try reference(into: &value)
                continue
            }
            if byte == UInt8(ascii: "\n") { line += 1 }
            // Attribute-value normalisation: white space characters become spaces.
            value.append(Self.isSpace(byte) ? UInt8(ascii: " ") : byte)
            position += 1
        }
        return String(decoding: value, as: UTF8.self)
    }

    // MARK: Character data

    /// Text up to the next '<' (or the end), added to the innermost element.
    private mutating func characterData() throws(Failure) {
        let start = position
        var plain = true
        var blank = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") { break }
            if byte == UInt8(ascii: "&") {
                plain = false
                blank = false
            } else if byte == UInt8(ascii: "\n") {
                line += 1
            } else if byte == UInt8(ascii: "]"), starts(with: "]]>") {
                throw fail("']]>' in text outside a CDATA section; write ]]&gt;")
            } else if !Self.isSpace(byte) {
                blank = false
            }
            position += 1
        }
        // White space between elements carries nothing the LUT readers use.
        if blank { return }
        if plain {
            appendText(start: start, end: position, decoded: nil)
            return
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(position - start)
        let end = position
        position = start
        while position < end {
            if bytes[position] == UInt8(ascii: "&") {
                try reference(into: &decoded)
            } else {
                decoded.append(bytes[position])
                position += 1
            }
        }
        appendText(start: start, end: end, decoded: decoded)
    }

    /// `<![CDATA[ ... ]]>`: its bytes are text as they are.
    private mutating func cdata() throws(Failure) {
        let startLine = line
        position += 9
        let start = position
        while position < bytes.count, !starts(with: "]]>") {
            if bytes[position] == UInt8(ascii: "\n") { line += 1 }
            position += 1
        }
        guard position < bytes.count else { throw fail("the CDATA section opened on line \(startLine) is not closed with ']]>'") }
        appendText(start: start, end: position, decoded: Array(bytes[start..<position]))
        position += 3
    }

    /// Adds a run of text to the innermost open element: as a range of the file while it is its
    /// only plain run, else decoded into a string of its own.
    private mutating func appendText(start: Int, end: Int, decoded: [UInt8]?) {
        guard let innermost = open.last else { return }
        let index = Int(innermost)
        let node = document.nodes[index]
        if decoded == nil, node.decodedText < 0, node.textStart == node.textEnd {
            document.nodes[index].textStart = Int32(start)
            document.nodes[index].textEnd = Int32(end)
            return
        }
        let addition = String(decoding: decoded ?? Array(bytes[start..<end]), as: UTF8.self)
        if node.decodedText >= 0 {
            document.decodedTexts[Int(node.decodedText)] += addition
        } else {
            document.decodedTexts.append(document.text(of: index) + addition)
            document.nodes[index].decodedText = Int32(document.decodedTexts.count - 1)
        }
    }

    /// `&name;` or `&#N;` or `&#xH;` at '&', appended as UTF-8.
    private mutating func reference(into output: inout [UInt8]) throws(Failure) {
        let start = position + 1
        var end = start
        while end < bytes.count, end - start <= 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > start else {
            throw fail("a '&' that starts no reference; write &amp; for an ampersand")
        }
        let body = String(decoding: bytes[start..<end], as: UTF8.self)
        let scalar: Unicode.Scalar?
        switch body {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "apos": scalar = "'"
        case "quot": scalar = "\""
        default:
            if body.hasPrefix("#x") {
                scalar = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if body.hasPrefix("#") {
                scalar = UInt32(body.dropFirst(1), radix: 10).flatMap(Unicode.Scalar.init)
            } else {
                throw fail("the entity &\(body.prefix(12)); is not defined (XML defines &lt; &gt; &amp; &apos; &quot;)")
            }
        }
        guard let scalar, Self.isAllowed(scalar) else {
            throw fail("&\(body.prefix(12)); is not a character XML allows")
        }
        output.append(contentsOf: String(scalar).utf8)
        position = end + 1
    }

    // MARK: Markup that carries nothing

    private mutating func skipComment() throws(Failure) {
        let startLine = line
        position += 4
        while position < bytes.count {
            if starts(with: "--") {
                guard starts(with: "-->") else { throw fail("'--' inside a comment (XML allows it only in '-->')") }
                position += 3
                return
            }
            if bytes[position] == UInt8(ascii: "\n") { line += 1 }
            position += 1
        }
        throw fail("the comment opened on line \(startLine) is not closed with '-->'")
    }

    /// `<?target data?>`, data optional; the target is checked, the data skipped.
    private mutating func skipProcessingInstruction() throws(Failure) {
        let startLine = line
        let isDeclaration = position == 0 || (position == 3 && bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        position += 2
        let target = try name(of: "processing instruction")
        if target.lowercased() == "xml" && !isDeclaration {
            throw fail("an XML declaration ('<?xml ...?>') is allowed only at the very start of the file")
        }
        while position < bytes.count {
            if starts(with: "?>") {
                position += 2
                return
            }
            if bytes[position] == UInt8(ascii: "\n") { line += 1 }
            position += 1
        }
        throw fail("the processing instruction <?\(target.prefix(40)) opened on line \(startLine) is not closed with '?>'")
    }

    // MARK: Bytes

    /// Refuses bytes that are not UTF-8 and the control characters XML 1.0 forbids (NUL among them).
    private func checkEncoding() throws(Failure) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0, line = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1, let byte = encoded.first {
                    if byte == UInt8(ascii: "\n") {
                        line += 1
                    } else if byte < 0x20 && byte != 0x09 && byte != 0x0D {
                        throw Failure(line: line, reason: "byte \(offset + 1) is a control character (\(byte)) that XML "
                            + "does not allow; is this a text file?")
                    }
                }
                offset += encoded.count
            case .error:
                throw Failure(line: line, reason: "byte \(offset + 1) is not UTF-8 text; XML LUT files are UTF-8")
            case .emptyInput:
                return
            }
        }
    }

    @discardableResult
    private mutating func skipSpaces() -> Bool {
        let start = position
        while position < bytes.count, Self.isSpace(bytes[position]) {
            if bytes[position] == UInt8(ascii: "\n") { line += 1 }
            position += 1
        }
        return position > start
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return text.withUTF8Buffer { marker in
            for offset in 0..<count where bytes[position + offset] != marker[offset] { return false }
            return true
        }
    }

    private func startsIgnoringCase(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return text.withUTF8Buffer { marker in
            for offset in 0..<count where Self.upper(bytes[position + offset]) != Self.upper(marker[offset]) { return false }
            return true
        }
    }

    private func fail(_ reason: String) -> Failure {
        Failure(line: line, reason: "not well-formed XML: " + reason)
    }

    private static func upper(_ byte: UInt8) -> UInt8 {
        byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"),
             UInt8(ascii: "."), 0x80...0xFF:
            true
        default:
            false
        }
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// A byte as a message shows it: 'x' for printable ASCII, else its value.
    private static func show(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
    }
}
