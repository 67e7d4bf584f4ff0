import ColorCubeCore
import ColorCubeTransform

/// Houdini LUTs (.lut), read as OpenColorIO reads them. The extension is shared with Discreet
/// 1D LUTs (`Discreet1DLFormat`); the content tells them apart (see `sniff`).
///
/// Header lines, keyword then values, up to a line `LUT:`: `Version`, `Format`, `Type` (`3D`,
/// `3D+1D` or `C`), `From lo hi`, `To lo hi`, `Black b`, `White w`, `Length n` (and a second
/// length, the pre-LUT's, for `3D+1D`); all are required. Then blocks of numbers in braces, each
/// named before its `{`: `RGB { ... }` (type C: n values, one curve for all channels over
/// `From`), `Pre { ... }` (type 3D+1D: the pre-LUT, over `From`) and the lattice, `{ ... }` or
/// `3D { ... }` (n^3 lines "r g b", red fastest, over 0...1). `To`, `Black` and `White` are read
/// and not applied, as in OpenColorIO.
public struct HoudiniLUTFormat: TextTransformFormat {
    public init() {}

    public var name: String { "houdini" }
    public var displayName: String { ".lut (Houdini)" }
    public var noun: String { "a Houdini .lut" }
    public var extensions: [String] { ["lut"] }

    public func read(path: String, options: LUTReadOptions) throws -> Look {
        try readTransform(path: path)
    }

    /// Text whose first word is `Version` (Discreet 1D LUTs start with `LUT:` or a number).
    public func sniff(_ head: [UInt8]) -> Bool { TextLUTParsing.head(head, startsWith: "Version") }

    /// Writes `table` as a type 3D Houdini LUT: the header, then `LUT:` and the lattice in
    /// `3D { }`, red fastest.
    public func write(_ table: some CubeTable, to path: String, displayPath: String, title: String, bitDepth: Int?) throws {
        let writer = TextLineWriter(file: try OutputFile(path: path, displayPath: displayPath))
        try writer.append("Version\t\t3\nFormat\t\tany\nType\t\t3D\nFrom\t\t0.0 1.0\nTo\t\t0.0 1.0\n"
            + "Black\t\t0\nWhite\t\t1\nLength\t\t\(table.size)\nLUT:\n3D {\n")
        try table.forEachChunk { _, entries in
            for entry in entries { try writer.appendFixedLine(entry.x, entry.y, entry.z) }
        }
        try writer.append("}\n")
        try writer.close()
    }

    /// Parses Houdini LUT text; `path` names the file in errors.
    /// - Throws: `LUTFileError.malformed` with the line of the first problem: a missing or
    ///   malformed header keyword, an unknown type, a size out of range, a block without its
    ///   `{`, a value that is not a finite number, a value outside a block, a block that is
    ///   missing or holds the wrong count of values.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LUTFileError) -> Transform {
        var scanner = TextLineScanner(bytes)
        var header: [String: (values: [String], line: Int)] = [:]
        var sawLUT = false
        while scanner.nextLine() {
            guard scanner.tokenCount > 0 else { continue }
            let key = scanner.keyword(scanner.token(0))
            if key == "LUT:" { sawLUT = true; break }
            header[key] = (scanner.tokens.dropFirst().map(scanner.string), scanner.lineNumber)
        }
        let headerEnd = scanner.endOfFileLine
        guard sawLUT else {
            throw .malformed(path: path, line: headerEnd, defect: .missing(part: "the 'LUT:' line", container: nil, hint: "it ends the header"))
        }
        func item(_ key: String, count: ClosedRange<Int>) throws(LUTFileError) -> (values: [String], line: Int) {
            let name = key.prefix(1) + key.dropFirst().lowercased()
            guard let found = header[key] else {
                throw .malformed(path: path, line: headerEnd, defect: .missing(
                    part: "the '\(name)' line", container: nil, hint: "the header needs Version, Format, Type, From, To, Black, White and Length"))
            }
            guard count.contains(found.values.count) else {
                let expected = count.contains(1) ? 1 : count.lowerBound
                let what = count.count == 1 ? "values after '\(name)'" : "values after '\(name)' (or \(count.upperBound))"
                throw .malformed(path: path, line: found.line, defect: .wrongCount(what: what, expected: expected, found: found.values.count))
            }
            return found
        }
        func number(_ text: String, _ key: String, line: Int) throws(LUTFileError) -> Double {
            guard let value = Double(text), value.isFinite else {
                throw .malformed(path: path, line: line, defect: .notFinite(field: key, text: text.excerpt))
            }
            return value
        }
        _ = try item("VERSION", count: 1...1)
        _ = try item("FORMAT", count: 1...1)
        let type = try item("TYPE", count: 1...1)
        let kind = type.values[0].lowercased()
        guard ["3d", "3d+1d", "c"].contains(kind) else {
            throw .malformed(path: path, line: type.line, reason: "Type \(type.values[0]) is not one colorcube reads (3D, 3D+1D or C)")
        }
        let fromItem = try item("FROM", count: 2...2)
        let from = (try number(fromItem.values[0], "From", line: fromItem.line), try number(fromItem.values[1], "From", line: fromItem.line))
        for key in ["TO"] {
            let found = try item(key, count: 2...2)
            for value in found.values { _ = try number(value, "To", line: found.line) }
        }
        for key in ["BLACK", "WHITE"] {
            let found = try item(key, count: 1...1)
            _ = try number(found.values[0], key, line: found.line)
        }
        let lengthItem = try item("LENGTH", count: kind == "3d+1d" ? 2...2 : 1...2)
        var lengths: [Int] = []
        for (index, text) in lengthItem.values.enumerated() {
            let range = kind != "c" && index == 0 ? ColorCube.sizeRange : TextLUTParsing.lengthRange
            guard let value = TextLUTParsing.wholeNumber(text) else {
                throw .malformed(path: path, line: lengthItem.line, defect: .notWhole(field: "Length", text: text.excerpt))
            }
            guard range.contains(value) else {
                throw .malformed(path: path, line: lengthItem.line,
                                 defect: .outOfRange(field: "Length", text: text.excerpt, range: range))
            }
            lengths.append(value)
        }

        // The blocks: words across lines, as Houdini and OpenColorIO read them.
        var blocks: [String: (values: [Double], line: Int)] = [:]
        var current: String?
        var pendingName: (name: String, line: Int)?
        // Type C's length may be up to a million entries: only a lattice size (2...256) is cubed.
        let cubeCount = kind == "c" ? 0 : lengths[0] * lengths[0] * lengths[0] * 3
        while scanner.nextLine() {
            for index in 0..<scanner.tokenCount {
                let token = scanner.token(index)
                let word = scanner.string(token)
                let line = scanner.lineNumber
                if current != nil {
                    if word == "}" { current = nil; continue }
                    guard let name = current else { continue }
                    let value = try TextLUTParsing.number(scanner, index, path: path, what: "\(name) block")
                    let limit = name == "3d" ? cubeCount : TextLUTParsing.lengthRange.upperBound
                    guard blocks[name, default: ([], line)].values.count < limit else {
                        throw .malformed(path: path, line: line, reason: "the \(name) block holds more values than its length calls for")
                    }
                    blocks[name, default: ([], line)].values.append(value)
                } else if word == "{" {
                    let name = pendingName?.name ?? "3d"
                    pendingName = nil
                    current = name
                    blocks[name] = ([], line)
                } else if pendingName == nil {
                    pendingName = (word.lowercased(), line)
                } else {
                    throw .malformed(path: path, line: line, reason: "'\(word)' after block name '\(pendingName?.name ?? "")': a block name is followed by '{'")
                }
            }
        }
        let end = scanner.endOfFileLine
        if current != nil { throw .malformed(path: path, line: end, reason: "a block is not closed with '}'") }
        if let pendingName { throw .malformed(path: path, line: pendingName.line, reason: "'\(pendingName.name)' is not followed by a '{' block") }
        func block(_ name: String, count: Int, label: String) throws(LUTFileError) -> [Double] {
            guard let found = blocks[name] else {
                throw .malformed(path: path, line: end,
                                 defect: .missing(part: "the \(label) block", container: nil, hint: "Type \(type.values[0]) needs one"))
            }
            guard found.values.count == count else {
                throw .malformed(path: path, line: found.line, defect: .wrongCount(
                    what: "values in the \(label) block (the header's Length)", expected: count, found: found.values.count))
            }
            return found.values
        }
        let inputRange = min(from.0, from.1)...max(from.0, from.1)
        func curve(_ values: [Double]) throws(LUTFileError) -> LUT1DOp {
            try TextLUTParsing.operation(path: path, line: fromItem.line) { () throws(TransformError) in
                let curve = try Curve(inputs: .uniform(inputRange), outputs: from.1 > from.0 ? values : values.reversed())
                return try LUT1DOp(curves: [curve, curve, curve])
            }
        }
        switch kind {
        case "c":
            return Transform([try curve(try block("rgb", count: lengths[0], label: "RGB { }"))])
        default:
            var operations: [any TransformOp] = []
            if kind == "3d+1d" { operations.append(try curve(try block("pre", count: lengths[1], label: "Pre { }"))) }
            let values = try block("3d", count: cubeCount, label: "3D { }")
            var rgba = [Float](repeating: 1, count: values.count / 3 * 4)
            for node in 0..<(values.count / 3) {
                for channel in 0..<3 { rgba[node * 4 + channel] = Float(values[node * 3 + channel]) }
            }
            operations.append(LUT3DOp(table: try TextLUTParsing.cube(redFastest: rgba, size: lengths[0], path: path, line: end)))
            return Transform(operations)
        }
    }
}
