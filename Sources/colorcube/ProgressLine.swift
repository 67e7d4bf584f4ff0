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
        /// The clip whose frames are shown and when its first frame was done.
        var clip: (name: String, start: Date)?
    }

    private let total: Int
    private let enabled: Bool
    /// Standard error is a terminal: clip frames are shown even for a single file.
    private let terminal: Bool
    private let start = Date()
    private let state = Locked(State())

    init(total: Int, enabled: Bool = isatty(2) == 1) {
        self.total = total
        self.enabled = enabled && total > 1
        terminal = enabled
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

    /// Shows a clip's frames: done / total, frames per second, time left. Drawn for a single clip
    /// too; at most five times a second.
    func frames(of name: String, done: Int, total: Int?) {
        state.withLock { state in
            guard terminal else { return }
            let now = Date()
            if state.clip?.name != name { state.clip = (name, now) }
            guard now.timeIntervalSince(state.lastDrawn) >= 0.2 else { return }
            state.lastDrawn = now
            let elapsed = now.timeIntervalSince(state.clip?.start ?? now)
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            var line = "\r\u{1B}[K\(name): \(done)\(total.map { "/\($0)" } ?? "") frames  \(String(format: "%.1f", rate)) fps"
            if let total, rate > 0, total >= done {
                let remaining = Int((Double(total - done) / rate).rounded())
                line += String(format: "  ETA %d:%02d", remaining / 60, remaining % 60)
            }
            if self.total > 1 { line += "  (\(state.done)/\(self.total) files)" }
            Diagnostics.write(line)
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
