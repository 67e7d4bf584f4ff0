import ColorCubeCore

/// The tables of LUT formats: the one place that lists them.
///
/// `portable` holds the formats this module reads and writes with nothing but Swift and
/// Foundation (text, XML and raw Core Image data); ColorCubeConverter's `LUTFormats.all` adds the
/// formats that need the image codecs or Little CMS. A table's order is the order messages and
/// help texts list its formats in, and the order content sniffing tries them in.
public enum LUTFormats {
    /// Every format that needs no C library, each once.
    public static let portable: [any LUTFileFormat] = [
        RawCubeFormat(),
        CubeTextFormat(),
        ThreeDLFormat(),
        Spi1DFormat(),
        Spi3DFormat(),
        SpiMtxFormat(),
        CinespaceFormat(),
        HoudiniLUTFormat(),
        Discreet1DLFormat(),
        NukeVFFormat(),
        PandoraFormat(),
        CLFFormat(),
        CTFFormat(),
        ASCCDLFormat(.ccc),
        ASCCDLFormat(.cdl),
        ASCCDLFormat(.cc),
    ]

    /// "a, b, c or d" (with `joinedBy` "or"), "a and b", "a".
    public static func list(_ items: [String], joinedBy word: String) -> String {
        guard let last = items.last else { return "" }
        guard items.count > 1 else { return last }
        return items.dropLast().joined(separator: ", ") + " \(word) " + last
    }
}

/// Look-ups in a table of formats (`LUTFormats.portable`, ColorCubeConverter's `LUTFormats.all`).
extension Array where Element == any LUTFileFormat {
    /// The format `convert --format` calls `name` ("raw", "cube", "3dl", "png", "icc"), or nil.
    public func named(_ name: String) -> (any LUTFileFormat)? {
        first { $0.name == name.lowercased() }
    }

    /// The format whose extensions include `pathExtension` (any case, without the dot), or nil.
    public func forExtension(_ pathExtension: String) -> (any LUTFileFormat)? {
        let lowered = pathExtension.lowercased()
        return first { $0.extensions.contains(lowered) }
    }

    /// The format `path`'s extension names, or nil. When formats share the extension (.lut is
    /// Houdini's and Discreet's), the one whose `sniff` accepts the file's first bytes, else the
    /// first in table order.
    public func forPath(_ path: String) -> (any LUTFileFormat)? {
        let lowered = FilePath.pathExtension(path).lowercased()
        let candidates = filter { $0.extensions.contains(lowered) }
        if candidates.count > 1, let head = BinaryFile.readPrefix(path: path, count: 4096),
           let match = candidates.first(where: { $0.sniff(head) }) {
            return match
        }
        return candidates.first
    }

    /// The format the first 4096 bytes of `path` show, or nil (also when it cannot be read).
    public func sniff(path: String) -> (any LUTFileFormat)? {
        guard let head = BinaryFile.readPrefix(path: path, count: 4096) else { return nil }
        return first { $0.sniff(head) }
    }

    /// The names `--format` takes, in table order.
    public var names: [String] { map(\.name) }

    /// Every format's extensions with dots, "/" between a format's own: ".bin/.raw", ".cube", ...;
    /// each group once, where formats share one (the image LUT layouts' .png).
    public var extensionGroups: [String] {
        var seen: Set<String> = []
        return compactMap { format in
            let fresh = format.extensions.filter { seen.insert($0).inserted }
            return fresh.isEmpty ? nil : fresh.map { "." + $0 }.joined(separator: "/")
        }
    }
}
