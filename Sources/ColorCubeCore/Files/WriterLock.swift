#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The advisory lock that tells a live writer's temporary file from a dead writer's leftover.
///
/// A writer holds an exclusive `flock` on its temporary from just after creating it until it has
/// renamed or removed it. A cleaner removes a temporary only while it holds a shared lock on it,
/// which it gets only when no writer holds the exclusive one. The kernel drops a process's locks
/// when the process ends, however it ends (SIGKILL included), so a killed writer's temporary can be
/// removed at once, while a stopped (SIGSTOP), swapped-out or merely slow writer keeps its lock for
/// as long as it lives: age says nothing about whether a writer is alive.
///
/// Why `flock` and not `fcntl` record locks: a POSIX record lock belongs to the process, and the
/// process loses it as soon as it closes *any* descriptor of the file (the image codecs open and
/// close the temporary by its name), and it never conflicts with locks of the same process (a
/// cleaning thread would take its neighbour's live temporary for a leftover). A `flock` lock
/// belongs to the open file description: other descriptors of the file do not release it, and two
/// descriptors of one process conflict like two processes. The descriptor is opened close-on-exec,
/// so a child process (an encoder) never inherits, and outlives, the lock.
///
/// On NFS, Linux clients (since 2.6.12) send `flock` to the server as a lock on the whole file
/// (NLM for NFSv3, the protocol's own locks for NFSv4), so writers and cleaners on different hosts
/// see each other's locks; an exclusive lock there needs a descriptor open for writing, a shared
/// one a descriptor open for reading, which is what the writer and the cleaner use. The server
/// keeps a host's locks while the host lives, stopped processes included; it drops the locks of a
/// crashed host when its lease runs out (NFSv4, 90 s by default) or when it reboots (NFSv3), and
/// until then that host's temporaries are left for a later run. Mounts with `local_lock=flock` or
/// `local_lock=all` (and NFSv3 `nolock`) keep locks on each host, so hosts cannot see each other's
/// writers there. Where the file system has no locks at all (`ENOLCK`), writers go on unlocked and
/// cleaners leave every temporary, since they cannot tell a live writer from a dead one.
enum WriterLock {
    /// Takes the writer's exclusive lock on `descriptor` (open for writing), waiting while a cleaner
    /// holds its shared lock for the instant it takes to test and remove a file.
    /// - Returns: false when the file system does not support locks; then the write goes on unlocked.
    static func hold(_ descriptor: Int32) -> Bool {
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    /// True when no writer holds `descriptor`'s file (open for reading) locked: the writer that made
    /// it has ended without renaming or removing it. The shared lock taken to find out stays until
    /// `descriptor` is closed, so no writer can take the file meanwhile.
    static func isAbandoned(_ descriptor: Int32) -> Bool {
        while flock(descriptor, LOCK_SH | LOCK_NB) != 0 {
            // EWOULDBLOCK: a live writer holds it; ENOLCK and the rest: cannot tell, so leave it.
            if errno != EINTR { return false }
        }
        return true
    }
}
