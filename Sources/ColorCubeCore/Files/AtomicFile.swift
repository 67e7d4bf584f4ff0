#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that a reader never sees a half-written one: the content goes to a hidden
/// temporary file in the destination's folder, which is flushed to disk and renamed over the
/// destination only once it is complete. On any error the temporary file is removed and the
/// destination is left as it was. Every colorcube writer (images, LUT files, contact sheets,
/// references) goes through here, so what follows holds for all of them.
///
/// Temporary names say whose they are and which output they are for:
///
///     .NAME.colorcube-PID-TAG.tmp
///
/// where NAME is the output's file name, PID the writing process's id in decimal and TAG a random
/// number in base 36 (lower-case letters and digits). The leading dot hides them from folder walks.
///
/// Live writers and leftovers: the writer holds a lock on its temporary from creation to rename
/// (see `WriterLock`), and `removeStaleTemporaries(of:)` removes only temporaries nobody holds,
/// so a temporary whose writer is alive is never removed, by any run, on any host that sees the
/// lock; the leftovers of writers that were killed (SIGKILL, a lost machine) are removed by the
/// next write of the same output, or by a batch that owns it.
///
/// Two writers of one destination at once (two runs over one folder, a requeued task whose
/// predecessor still runs): both finish, and `Written.finishedElsewhere` tells the one that found
/// another writer's file already in place; `Overlap` says whether it then replaces that file or
/// keeps it.
public enum AtomicFile {
    /// The word between the output's name and the process id in every temporary name.
    public static let temporaryMarker = "colorcube"

    /// What a writer does when, with its own file complete, it finds that another writer has put
    /// a file at the destination since it began.
    public enum Overlap: Sendable, Equatable {
        /// Rename over it anyway: the last writer's file stands, as when a file is written twice
        /// in a row. For runs that overwrite their outputs.
        case replace
        /// Leave the other writer's file and discard this one: for runs that leave existing
        /// outputs untouched (`--skip-existing`), so a stopped and resumed run never replaces what
        /// its successor wrote.
        case keep
    }

    /// How a write ended, beside what its body returned.
    public struct Written<Value> {
        /// What the body returned.
        public var value: Value
        /// True when another writer put a file at the destination while this one was writing it
        /// (it appeared, or was replaced); with `Overlap.keep` that file was kept and this one's
        /// discarded.
        public var finishedElsewhere: Bool
        /// Leftovers of killed writers of the same destination, removed before writing.
        public var staleTemporariesRemoved: [String]
    }

    /// Runs `body` with the path of a fresh temporary file beside `path`, then makes the file durable
    /// (fsync) and renames it to `path`; a file another writer puts at `path` meanwhile is replaced.
    /// See `write(to:overlap:_:)`.
    public static func write<R>(to path: String, _ body: (String) throws -> R) throws -> R {
        try write(to: path, overlap: .replace, body).value
    }

    /// Runs `body` with the path of a fresh temporary file beside `path`, then makes the file durable
    /// (fsync) and renames it to `path`.
    ///
    /// First the leftovers of killed writers of `path` are removed (`removeStaleTemporaries(of:)`).
    /// The temporary is locked from its creation to its rename, so no other run removes it
    /// meanwhile, however long `body` takes. When, at the end, the file at `path` is not the one
    /// that was there when the write began (none, or another), another writer has finished it:
    /// `overlap` decides whether this write replaces it or is discarded, and the result says so.
    ///
    /// The fsync before the rename means a crash of the machine (not only of the process) leaves
    /// either the old destination or the complete new one, never a renamed file whose blocks were
    /// not yet written.
    /// - Throws: `FileError.cannotCreate` when the folder does not accept new files, whatever `body`
    ///   throws, `FileError.cannotWrite` when the data cannot be flushed, or `FileError.cannotRename`
    ///   with the reason in words (the temporary was removed by another program, a folder took the
    ///   name, the folder may not be changed); `FileError.isAFolder`, before anything is written,
    ///   when `path` is an existing folder.
    public static func write<R>(to path: String, overlap: Overlap, _ body: (String) throws -> R) throws -> Written<R> {
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw FileError.isAFolder(path: path)
        }
        let removed = removeStaleTemporaries(of: path)
        let before = FileIdentity(path: path)
        let (temporary, descriptor) = try createTemporary(beside: path)
        pending.withLock { _ = $0.insert(temporary) }
        // False once the temporary's name is found to lead elsewhere: then it is not this write's to remove.
        var ownsName = true
        defer {
            pending.withLock { _ = $0.remove(temporary) }
            // Closing releases the lock, so only after the rename or the removal.
            close(descriptor)
        }
        do {
            let value = try body(temporary)
            try flush(descriptor, displayPath: path)
            let ours = FileIdentity(descriptor: descriptor)
            guard let ours, let named = FileIdentity(path: temporary), named.isSameFile(as: ours) else {
                ownsName = false
                throw FileError.cannotRename(from: temporary, to: path,
                                             reason: RenameFailure.reason(ENOENT, temporary: temporary, destination: path))
            }
            let now = FileIdentity(path: path)
            let finishedElsewhere = now != nil && now != before
            if finishedElsewhere, overlap == .keep {
                unlink(temporary)
                return Written(value: value, finishedElsewhere: true, staleTemporariesRemoved: removed)
            }
            guard rename(temporary, path) == 0 else {
                let reason = RenameFailure.reason(errno, temporary: temporary, destination: path)
                unlink(temporary)
                throw FileError.cannotRename(from: temporary, to: path, reason: reason)
            }
            return Written(value: value, finishedElsewhere: finishedElsewhere, staleTemporariesRemoved: removed)
        } catch {
            if ownsName { unlink(temporary) }
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

    /// Removes the temporaries that dead writers of `path` left behind (processes killed before
    /// they could clean up), and returns their paths, sorted.
    ///
    /// Only names `isTemporary(_:of:)` accepts for `path`'s file name are looked at: the output
    /// itself, other outputs and their temporaries stay. Of those, only regular files that no
    /// writer holds locked are removed (see `WriterLock`): the temporary of a writer that is alive,
    /// in this process or another, on this host or another sharing the file system, is left, so any
    /// number of runs may call this for the same output at once. A folder that does not exist or
    /// cannot be read has nothing to remove; a temporary that cannot be opened, locked or removed is
    /// left and not returned.
    @discardableResult
    public static func removeStaleTemporaries(of path: String) -> [String] {
        let (folder, name) = FilePath.split(path)
        guard !name.isEmpty, let directory = opendir(folder.isEmpty ? "." : folder) else { return [] }
        defer { closedir(directory) }
        let prefix = folder.isEmpty ? "" : (folder == "/" ? "/" : folder + "/")
        // Entries are compared as bytes first, so a large folder costs little more than reading it.
        let namePrefix = Array(".\(name).\(temporaryMarker)-".utf8)
        var removed: [String] = []
        // The name is read up to its terminator in place: readdir's record may end right after it,
        // so a copy of the whole `d_name` field (256 bytes) would read past the record.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
        while let entry = readdir(directory) {
            let cName = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(cName), count: strlen(cName))
            let entryName: String? = bytes.starts(with: namePrefix) ? String(decoding: bytes, as: UTF8.self) : nil
            guard let entryName, isTemporary(entryName, of: name) else { continue }
            let candidate = prefix + entryName
            if removeIfAbandoned(candidate) { removed.append(candidate) }
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

    /// How long an empty temporary must stay unlocked before it counts as abandoned (see
    /// `removeIfAbandoned(_:)`).
    static let newbornGrace: Duration = .milliseconds(100)

    /// Removes `candidate` when it is a regular file that no writer holds; true when it did.
    ///
    /// A writer creates its temporary and locks it a moment later, before writing a byte. So an
    /// unlocked file with data in it is abandoned, but an unlocked empty one may be a newborn whose
    /// writer is about to lock it: that one is looked at again after `newbornGrace`, and removed
    /// only if it is still unlocked. (Should a writer be held up longer than that between the two
    /// steps, it finds its name gone and takes another; nothing fails.)
    private static func removeIfAbandoned(_ candidate: String) -> Bool {
        switch lockIfAbandoned(candidate) {
        case .held, .notAFile:
            return false
        case .abandoned(let descriptor, let empty):
            guard empty else { return unlinkHolding(descriptor, candidate) }
            close(descriptor)
            let grace = newbornGrace.components
            var pause = timespec(tv_sec: Int(grace.seconds), tv_nsec: Int(grace.attoseconds / 1_000_000_000))
            var remaining = timespec()
            while nanosleep(&pause, &remaining) != 0, errno == EINTR { pause = remaining }
            guard case .abandoned(let again, _) = lockIfAbandoned(candidate) else { return false }
            return unlinkHolding(again, candidate)
        }
    }

    /// What `lockIfAbandoned(_:)` found.
    private enum Probe {
        /// Unlocked: the descriptor holds the shared lock until closed; `empty` when it has no data.
        case abandoned(descriptor: Int32, empty: Bool)
        /// A live writer holds it, or the lock cannot be tested.
        case held
        /// Gone, not a regular file, or not readable.
        case notAFile
    }

    /// Opens `candidate` and takes the shared lock that only an abandoned temporary grants.
    private static func lockIfAbandoned(_ candidate: String) -> Probe {
        // Non-blocking: a pipe given a temporary's name must not hang the run; no link is followed.
        let descriptor = open(candidate, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .notAFile }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return .notAFile
        }
        guard WriterLock.isAbandoned(descriptor) else {
            close(descriptor)
            return .held
        }
        return .abandoned(descriptor: descriptor, empty: status.st_size == 0)
    }

    /// Removes `candidate` while `descriptor`, open on it, holds the shared lock, then closes it.
    private static func unlinkHolding(_ descriptor: Int32, _ candidate: String) -> Bool {
        defer { close(descriptor) }
        // The name may have been removed and reused between the open and the lock.
        guard let held = FileIdentity(descriptor: descriptor), let named = FileIdentity(path: candidate),
              named.isSameFile(as: held)
        else { return false }
        return unlink(candidate) == 0
    }

    /// Creates and locks a temporary file beside `path`; returns its path and the descriptor that
    /// holds the lock.
    private static func createTemporary(beside path: String) throws(FileError) -> (String, Int32) {
        let (folder, name) = FilePath.split(path)
        let prefix = folder.isEmpty ? "" : (folder == "/" ? "/" : folder + "/")
        for _ in 0..<100 {
            let tag = String(UInt32.random(in: .min ... .max), radix: 36)
            let candidate = prefix + temporaryName(for: name, processID: getpid(), tag: tag)
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else {
                if errno == EEXIST { continue }
                throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
            // Between the open and the lock a cleaner may have found the new file unlocked and
            // removed it; then the name no longer leads to this file, and another name is taken.
            // (Without lock support the write goes on unlocked, as it must on such a file system.)
            _ = WriterLock.hold(descriptor)
            if let held = FileIdentity(descriptor: descriptor), let named = FileIdentity(path: candidate),
               named.isSameFile(as: held) {
                return (candidate, descriptor)
            }
            close(descriptor)
        }
        throw .cannotCreate(path: path, reason: "no free temporary name")
    }

    /// Forces the temporary's data to the disk before it gets the final name. Any descriptor of the
    /// file will do: fsync writes out the file, whichever descriptor wrote it.
    private static func flush(_ descriptor: Int32, displayPath: String) throws(FileError) {
        // EINVAL: the file lives somewhere that cannot sync (a pipe-backed or special file system);
        // there is nothing more to make durable.
        guard fsync(descriptor) == 0 || errno == EINVAL else {
            throw .cannotWrite(path: displayPath, reason: String(cString: strerror(errno)))
        }
    }
}

extension AtomicFile.Written: Sendable where Value: Sendable {}
