#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creating folders, with errors that name the folder and give the system's reason.
public enum Folders {
    /// True when `path` exists and is a folder (links followed).
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates `path` and any missing parents, like `mkdir -p`.
    /// - Throws: `FileError.cannotCreate` naming the folder that could not be made.
    public static func create(_ path: String) throws(FileError) {
        guard !path.isEmpty, !exists(path) else { return }
        let parent = FilePath.split(path).folder
        if !parent.isEmpty, parent != path { try create(parent) }
        guard mkdir(path, 0o777) == 0 || (errno == EEXIST && exists(path)) else {
            let reason = errno == EEXIST || errno == ENOTDIR ? "a file of that name is in the way" : String(cString: strerror(errno))
            throw .cannotCreate(path: path, reason: reason)
        }
    }
}
