#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A stand-in for a live writer: a file holding some data, open and locked the way `AtomicFile`
/// locks its temporaries (an exclusive `flock`), until `release()` or deinit. A `flock` held on one
/// descriptor conflicts with every other open of the file, in this process or another, so code
/// under test sees it exactly as it would see another run's writer.
final class HeldTemporary {
    let path: String
    private var descriptor: Int32

    init(_ path: String, contents: String = "half written") throws {
        self.path = path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            throw CocoaError(.fileLocking)
        }
    }

    /// Ends the stand-in writer without removing its file, as a killed process would.
    func release() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    deinit { release() }
}
