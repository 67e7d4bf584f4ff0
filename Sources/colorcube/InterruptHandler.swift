#if canImport(Glibc)
import Glibc
#endif
import ColorCubeApplier
import ColorCubeCore

/// Ends the process cleanly on Ctrl-C or a termination request: the ffmpeg processes grading clips
/// are ended and the temporary files of outputs still being written are removed, so an interrupted
/// run leaves only complete outputs.
///
/// SIGINT and SIGTERM are blocked in every thread (threads inherit the mask of the thread that
/// creates them, so this runs first) and one thread waits for them with sigwait, outside signal
/// context, where removing files is safe.
enum InterruptHandler {
    /// Set when a signal has arrived: from then on the waiting thread ends the process.
    private static let received = Locked(false)

    /// Where the process would end on its own (the command finished or failed): while an
    /// interrupt is being handled, waits for the handler to end it instead. Ending the ffmpeg
    /// children makes the clip being graded fail; without this, that failure could exit with
    /// status 1 before the handler exits with 128 + the signal.
    static func yieldToInterrupt() {
        guard received.withLock({ $0 }) else { return }
        while true { pause() }
    }

    static func install() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let mask = signals
        let status = WorkerThread.start {
            var received: Int32 = 0
            var waited = mask
            sigwait(&waited, &received)
            Self.received.withLock { $0 = true }
            AtomicFile.removeTemporaryFiles()
            _exit(128 + received)
        }
        if status != 0 {
            // No waiter: unblock the signals again, so that an interrupt still ends the process
            // (without the clean-up) instead of being held forever.
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        }
    }
}
