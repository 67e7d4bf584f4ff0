/// The fields of an XMP packet that a Camera Raw profile is read from: every attribute (the
/// first of each name, entities decoded) and the default text of `rdf:Alt` properties written as
/// elements (`<crs:Name><rdf:Alt><rdf:li>text</rdf:li>...`).
///
/// Not a general XML parser: it walks tags and quoted values, which is all XMP's RDF needs here,
/// and refuses a tag or value that never closes, or elements nested deeper than `deepest`. Only the
/// names the caller wants are kept, so a file of a million attributes costs no more than its bytes.
struct XMPFields {
    /// Attribute values by qualified name ("crs:RGBTable"), the first occurrence of each.
    private(set) var attributes: [String: String] = [:]
    /// The first `rdf:li` text of each element-form property, by the property's name ("crs:Name").
    private(set) var alternatives: [String: String] = [:]

    /// Why bytes are not XMP this reader can walk.
    enum Defect: Error, Equatable {
        /// A tag, comment or quoted value opened at this byte offset never ends.
        case unclosed(what: String, offset: Int)
        /// An element opened at this byte offset is nested deeper than `deepest`.
        case tooDeep(offset: Int)
    }

    /// The deepest nesting read (XMP's RDF nests a few levels).
    static let deepest = 256

    /// - Parameter wanted: the property names to keep ("crs:RGBTable").
    init(_ bytes: [UInt8], wanted: (String) -> Bool) throws(Defect) {
        var stack: [String] = []
        var index = 0
        let count = bytes.count
        func find(_ pattern: [UInt8], from start: Int) -> Int? {
            guard pattern.count <= count else { return nil }
            var at = start
            while at + pattern.count <= count {
                if bytes[at] == pattern[0], bytes[at..<(at + pattern.count)].elementsEqual(pattern) { return at }
                at += 1
            }
            return nil
        }
        func isNameByte(_ byte: UInt8) -> Bool {
            !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<"))
        }
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let end = find([UInt8(ascii: "<")], from: index) ?? count
                if stack.count >= 3, stack[stack.count - 1] == "rdf:li", stack[stack.count - 2] == "rdf:Alt",
                   alternatives[stack[stack.count - 3]] == nil, wanted(stack[stack.count - 3]) {
                    alternatives[stack[stack.count - 3]] = Self.decodeEntities(bytes[index..<end])
                }
                index = end
                continue
            }
            let start = index
            if bytes[index...].starts(with: Array("<!--".utf8)) {
                guard let end = find(Array("-->".utf8), from: index + 4) else { throw .unclosed(what: "comment", offset: start) }
                index = end + 3
                continue
            }
            if index + 1 < count, bytes[index + 1] == UInt8(ascii: "?") || bytes[index + 1] == UInt8(ascii: "!") {
                guard let end = find([UInt8(ascii: ">")], from: index) else { throw .unclosed(what: "tag", offset: start) }
                index = end + 1
                continue
            }
            let closing = index + 1 < count && bytes[index + 1] == UInt8(ascii: "/")
            index += closing ? 2 : 1
            let nameStart = index
            while index < count, isNameByte(bytes[index]) { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            var selfClosing = false
            while true {
                guard index < count else { throw .unclosed(what: "tag <\(name.prefix(40))", offset: start) }
                let byte = bytes[index]
                if byte == UInt8(ascii: ">") { index += 1; break }
                if byte == UInt8(ascii: "/") { selfClosing = true; index += 1; continue }
                if !isNameByte(byte) { index += 1; continue }
                let attributeStart = index
                while index < count, isNameByte(bytes[index]) { index += 1 }
                let attribute = String(decoding: bytes[attributeStart..<index], as: UTF8.self)
                while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
                guard index < count, bytes[index] == UInt8(ascii: "=") else { continue }
                index += 1
                while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
                guard index < count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                    throw .unclosed(what: "value of \(attribute.prefix(40))", offset: index)
                }
                let quote = bytes[index]
                guard let end = find([quote], from: index + 1) else { throw .unclosed(what: "value of \(attribute.prefix(40))", offset: index) }
                if attributes[attribute] == nil, wanted(attribute) { attributes[attribute] = Self.decodeEntities(bytes[(index + 1)..<end]) }
                index = end + 1
            }
            if closing {
                if let at = stack.lastIndex(of: name) { stack.removeSubrange(at...) }
            } else if !selfClosing {
                guard stack.count < Self.deepest else { throw .tooDeep(offset: start) }
                stack.append(name)
            }
        }
    }

    /// The first value of a property, as an attribute or an element's `rdf:Alt` default.
    func value(_ name: String) -> String? { attributes[name] ?? alternatives[name] }

    /// XML text with the five named entities and numeric references decoded.
    static func decodeEntities(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            if let value = named[String(entity)] {
                result += value
            } else if entity.hasPrefix("#"), let code = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : UInt32(entity.dropFirst()),
                      let scalar = Unicode.Scalar(code) {
                result.unicodeScalars.append(scalar)
            } else {
                result += rest[amp...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
