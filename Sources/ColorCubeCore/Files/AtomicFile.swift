#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that a reader never sees a half-written one: the content goes to a hidden
/// temporary file in the destination's folder, which is flushed to disk and renamed over the
/// destination only once it is complete. On any error the temporary file is removed and the
/// destination is left as it was.
///
/// Temporary names say whose they are and which output they are for:
///
///     .NAME.colorcube-PID-TAG.tmp
///
/// where NAME is the output's file name, PID the writing process's id in decimal and TAG a random
/// number in base 36 (lower-case letters and digits). The leading dot hides them from folder walks.
/// A process killed outright (SIGKILL, a lost machine) leaves its temporary behind; the next run
/// that owns the output removes it with `removeStaleTemporaries(of:)`. The name of another output
/// never matches, even one that starts with the same characters.
public enum AtomicFile {
    /// The word between the output's name and the process id in every temporary name.
    public static let temporaryMarker = "colorcube"

    /// Runs `body` with the path of a fresh temporary file beside `path`, then makes the file durable
    /// (fsync) and renames it to `path`.
    ///
    /// The fsync before the rename means a crash of the machine (not only of the process) leaves
    /// either the old destination or the complete new one, never a renamed file whose blocks were
    /// not yet written.
    /// - Throws: `FileError.cannotCreate` when the folder does not accept new files, whatever `body`
    ///   throws, `FileError.cannotWrite` when the data cannot be flushed, or `FileError.cannotRename`;
    ///   `FileError.isAFolder`, before anything is written, when `path` is an existing folder.
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
            try flush(temporary, displayPath: path)
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

    /// The temporary name for an output named `name` (a file name, no folder).
    public static func temporaryName(for name: String, processID: Int32, tag: String) -> String {
        ".\(name).\(temporaryMarker)-\(processID)-\(tag).tmp"
    }

    /// True when `candidate` (a file name) is a temporary of the output named `name`: exactly
    /// `.NAME.colorcube-PID-TAG.tmp` with PID decimal digits and TAG base-36 digits.
    public static func isTemporary(_ candidate: String, of name: String) -> Bool {
        let prefix = ".\(name).\(temporaryMarker)-", suffix = ".tmp"
        guard candidate.count > prefix.count + suffix.count, candidate.hasPrefix(prefix), candidate.hasSuffix(suffix)
        else { return false }
        let middle = candidate.dropFirst(prefix.count).dropLast(suffix.count)
        let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        return parts[0].utf8.allSatisfy { (0x30...0x39).contains($0) }
            && parts[1].utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// Removes the temporaries that earlier writers of `path` left behind (processes killed before
    /// they could clean up), and returns their paths, sorted.
    ///
    /// Only names `isTemporary(_:of:)` accepts for `path`'s file name are touched: the output
    /// itself, other outputs and their temporaries stay. The caller must own `path`, that is, no
    /// other process may be writing it right now (in a sharded batch each output has one owner). A
    /// folder that does not exist or cannot be read has nothing to remove; a temporary that cannot
    /// be removed is left and not returned.
    @discardableResult
    public static func removeStaleTemporaries(of path: String) -> [String] {
        let (folder, name) = FilePath.split(path)
        guard !name.isEmpty, let directory = opendir(folder.isEmpty ? "." : folder) else { return [] }
        defer { closedir(directory) }
        let prefix = folder.isEmpty ? "" : (folder == "/" ? "/" : folder + "/")
        var removed: [String] = []
        while let entry = readdir(directory) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard isTemporary(entryName, of: name) else { continue }
            let candidate = prefix + entryName
            if unlink(candidate) == 0 { removed.append(candidate) }
        }
        return removed.sorted()
    }

    /// Temporary files being written right now.
    private static let pending = Locked<Set<String>>([])

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
        let prefix = folder.isEmpty ? "" : (folder == "/" ? "/" : folder + "/")
        for _ in 0..<100 {
            let tag = String(UInt32.random(in: .min ... .max), radix: 36)
            let candidate = prefix + temporaryName(for: name, processID: getpid(), tag: tag)
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

    /// Forces the temporary's data to the disk before it gets the final name.
    private static func flush(_ temporary: String, displayPath: String) throws(FileError) {
        let descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotWrite(path: displayPath, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        // EINVAL: the file lives somewhere that cannot sync (a pipe-backed or special file system);
        // there is nothing more to make durable.
        guard fsync(descriptor) == 0 || errno == EINVAL else {
            throw .cannotWrite(path: displayPath, reason: String(cString: strerror(errno)))
        }
    }
}
