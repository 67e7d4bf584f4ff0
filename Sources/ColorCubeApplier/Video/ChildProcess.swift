#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ColorCubeCore

/// A program run as a child process (ffmpeg, ffprobe), with its standard input and output on
/// descriptors the caller chooses and its standard error kept in an unlinked temporary file, so a
/// chatty child never blocks on a full pipe and nothing is left on disk.
///
/// The child starts with an empty signal mask and default signal actions: colorcube blocks SIGINT
/// and SIGTERM in every thread for its interrupt handler, and a child must not inherit that.
/// Every running child is listed, so that an interrupted colorcube can end them all
/// (`terminateAll()`) before it removes its temporary files.
final class ChildProcess: Sendable {
    let pid: pid_t
    let program: String
    private let errorFile: Int32

    /// Starts `executable` with `arguments` (argv[1...]).
    /// - Parameters:
    ///   - input, output: descriptors that become the child's standard input and output; nil
    ///     gives it /dev/null.
    /// - Throws: `VideoError.cannotStart` with the system's reason.
    init(executable: String, arguments: [String], input: Int32? = nil, output: Int32? = nil) throws(VideoError) {
        program = FilePath.split(executable).name
        var template = Array("/tmp/colorcube-stderr-XXXXXX".utf8CString)
        let errorFile = Self.running.withLock { _ in
            let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
            if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            return descriptor
        }
        guard errorFile >= 0 else { throw .cannotStart(program: program, reason: String(cString: strerror(errno))) }
        _ = template.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { unlink($0) } }
        self.errorFile = errorFile

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, errorFile, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        // The child list is locked across the spawn, so an interrupt cannot fall between the
        // child's birth and its listing.
        let status = Self.running.withLock { running in
            // Once the children have been ended for an exit, none is started any more: it
            // would outlive colorcube.
            guard !running.stopped else { return ECANCELED }
            let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            if status == 0 { running.pids.insert(pid) }
            return status
        }
        guard status == 0 else {
            close(errorFile)
            throw .cannotStart(program: program, reason: String(cString: strerror(status)))
        }
        self.pid = pid
    }

    deinit {
        close(errorFile)
    }

    /// Waits for the child to end.
    /// - Returns: its exit status, or 128 + the signal that ended it.
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { break }
        }
        Self.running.withLock { _ = $0.pids.remove(pid) }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Ends the child at once (SIGKILL); `wait()` must still be called.
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// What the child wrote to standard error, up to the last `limit` bytes.
    func errorOutput(limit: Int = 16_384) -> String {
        let end = lseek(errorFile, 0, SEEK_END)
        guard end > 0 else { return "" }
        let start = max(0, Int(end) - limit)
        var buffer = [UInt8](repeating: 0, count: Int(end) - start)
        let count = buffer.withUnsafeMutableBytes { pread(errorFile, $0.baseAddress, $0.count, off_t(start)) }
        return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
    }

    /// The last non-empty line of standard error, for a one-line reason.
    func lastErrorLine() -> String? {
        errorOutput().split(whereSeparator: \.isNewline).last.map {
            String($0).trimmingCharacters()
        }
    }

    /// A pipe whose ends are closed on exec (children get theirs by dup2). Made under the lock
    /// that spawns take, so no child started meanwhile by another thread inherits an end, which
    /// would keep the pipe open after its user closed it.
    /// - Returns: the read end and the write end.
    static func makePipe() throws(VideoError) -> [Int32] {
        var descriptors: [Int32] = [0, 0]
        let status = running.withLock { _ in
            let status = pipe(&descriptors)
            if status == 0 {
                _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
                _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
            }
            return status
        }
        guard status == 0 else { throw .cannotStart(program: "ffmpeg", reason: String(cString: strerror(errno))) }
        return descriptors
    }

    /// Children not yet waited for.
    private static let running = Locked(Children())

    /// The children not yet waited for, and whether starting more is refused.
    private struct Children {
        var pids: Set<pid_t> = []
        var stopped = false
    }

    /// Kills every running child and reaps it: for a process about to exit on an interrupt, so that
    /// no encoder goes on writing a file that is being removed.
    static func terminateAll() {
        running.withLock { running in
            running.stopped = true
            for pid in running.pids { _ = Glibc.kill(pid, SIGKILL) }
            for pid in running.pids {
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
            }
            running.pids.removeAll()
        }
    }

    /// Runs `executable` to its end and returns its exit status, standard output and standard
    /// error: for ffprobe and short queries.
    static func capture(executable: String, arguments: [String]) throws(VideoError) -> (status: Int32, output: [UInt8], errors: String) {
        let descriptors = try makePipe()
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: executable, arguments: arguments, output: descriptors[1])
        } catch {
            close(descriptors[0])
            close(descriptors[1])
            throw error
        }
        close(descriptors[1])
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptors[0], $0.baseAddress, $0.count) }
            if count > 0 {
                output += chunk.prefix(count)
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(descriptors[0])
        let status = child.wait()
        return (status, output, child.errorOutput())
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    func trimmingCharacters() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
