import Foundation
import ColorCubeCore

/// A progress line on standard error (files done / total, images per second, time left), drawn
/// only when standard error is a terminal and redrawn at most five times a second.
///
/// Batch workers report from their own threads: the counts sit behind a `Locked` lock, which also keeps
/// one line from being drawn over another.
final class ProgressLine: Sendable {
    private struct State {
        var done = 0
        var lastDrawn = Date.distantPast
        var visible = false
    }

    private let total: Int
    private let enabled: Bool
    private let start = Date()
    private let state = Locked(State())

    init(total: Int, enabled: Bool = isatty(2) == 1) {
        self.total = total
        self.enabled = enabled && total > 1
    }

    func advance() {
        state.withLock { state in
            state.done += 1
            guard enabled else { return }
            let now = Date()
            guard now.timeIntervalSince(state.lastDrawn) >= 0.2 || state.done == total else { return }
            state.lastDrawn = now
            let elapsed = now.timeIntervalSince(start)
            let rate = elapsed > 0 ? Double(state.done) / elapsed : 0
            let remaining = rate > 0 ? Int((Double(total - state.done) / rate).rounded()) : 0
            let eta = String(format: "%d:%02d", remaining / 60, remaining % 60)
            Diagnostics.write("\r\u{1B}[K\(state.done)/\(total) images  \(String(format: "%.1f", rate))/s  ETA \(eta)")
            state.visible = true
        }
    }

    func clear() {
        state.withLock { state in
            guard state.visible else { return }
            Diagnostics.write("\r\u{1B}[K")
            state.visible = false
        }
    }
}
