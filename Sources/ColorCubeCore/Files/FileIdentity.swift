#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a name or a descriptor stands for, and which version of it: device, inode and
/// modification time. Two identities are equal only when they are the same file, unchanged in
/// between as far as its time stamp tells.
///
/// `AtomicFile` compares them to tell that a name still belongs to the file it holds open (a
/// cleaner may have removed the name) and that a destination was replaced by another writer.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let modifiedSeconds: Int64
    let modifiedNanoseconds: Int64
    /// True for a regular file (not a folder, link, pipe or device).
    let isRegularFile: Bool

    /// The identity of what `path` names, without following a final link; nil when nothing does.
    init?(path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The identity of the file open on `descriptor`; nil when it cannot be asked.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    private init(_ status: stat) {
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        #if canImport(Darwin)
        modifiedSeconds = Int64(status.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(status.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
        #endif
        isRegularFile = (status.st_mode & S_IFMT) == S_IFREG
    }

    /// True when both are the same file (device and inode), whatever happened to its contents.
    func isSameFile(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode
    }
}
