#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Writes files so that a reader never sees a half-written one: the content goes to a hidden
/// temporary file in the destination's folder, which is renamed over the destination only once it
/// is complete. On any error the temporary file is removed and the destination is left as it was.
public enum AtomicFile {
    /// Runs `body` with the path of a fresh temporary file beside `path`, then renames it to `path`.
    ///
    /// The temporary name starts with a dot (folder walks skip it) and is unique per process and call.
    /// - Throws: `FileError.cannotCreate` when the folder does not accept new files, whatever `body`
    ///   throws, or `FileError.cannotRename`; `FileError.isAFolder`, before anything is written,
    ///   when `path` is an existing folder.
    public static func write<R>(to path: String, _ body: (String) throws -> R) throws -> R {
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw FileError.isAFolder(path: path)
        }
        let temporary = try createTemporary(beside: path)
        pending.withLock { _ = $0.insert(temporary) }
        defer { pending.withLock { _ = $0.remove(temporary) } }
        do {
            let result = try body(temporary)
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw FileError.cannotRename(from: temporary, to: path, reason: reason)
            }
            return result
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Temporary files being written right now.
    private static let pending = Mutex<Set<String>>([])

    /// Removes every temporary file still being written, for a process that is about to exit on an
    /// interrupt, so that no half-written file is left behind.
    public static func removeTemporaryFiles() {
        pending.withLock { paths in
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }

    private static func createTemporary(beside path: String) throws(FileError) -> String {
        let (folder, name) = FilePath.split(path)
        let prefix = folder.isEmpty ? "" : folder + "/"
        for _ in 0..<100 {
            let tag = String(UInt32.random(in: .min ... .max), radix: 36)
            let candidate = "\(prefix).\(name).\(getpid())-\(tag).tmp"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 {
                close(descriptor)
                return candidate
            }
            if errno != EEXIST {
                throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
        }
        throw .cannotCreate(path: path, reason: "no free temporary name")
    }
}
