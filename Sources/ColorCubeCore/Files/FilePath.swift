/// Small path helpers on plain strings, shared by every module that names files.
public enum FilePath {
    /// Splits "a/b/c.png" into ("a/b", "c.png"); a bare name has an empty folder.
    public static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// The extension after the last dot of the file name, lower-cased, or "" when there is none.
    public static func pathExtension(_ path: String) -> String {
        let name = split(path).name
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// The file name without its extension.
    public static func stem(_ path: String) -> String {
        let name = split(path).name
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// `path` with its extension replaced by `newExtension` (no dot).
    public static func replacingExtension(of path: String, with newExtension: String) -> String {
        let (folder, _) = split(path)
        let stem = stem(path)
        let prefix = path.contains("/") ? (folder == "/" ? "/" : folder + "/") : ""
        return prefix + stem + "." + newExtension
    }
}
