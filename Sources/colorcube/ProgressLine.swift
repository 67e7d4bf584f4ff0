import Foundation

/// A progress line on standard error (files done / total, images per second, time left), drawn
/// only when standard error is a terminal and redrawn at most five times a second.
final class ProgressLine {
    private let total: Int
    private let enabled: Bool
    private let start = Date()
    private var done = 0
    private var lastDrawn = Date.distantPast
    private var visible = false

    init(total: Int, enabled: Bool = isatty(2) == 1) {
        self.total = total
        self.enabled = enabled && total > 1
    }

    func advance() {
        done += 1
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) >= 0.2 || done == total else { return }
        lastDrawn = now
        let elapsed = now.timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let remaining = rate > 0 ? Int((Double(total - done) / rate).rounded()) : 0
        let eta = String(format: "%d:%02d", remaining / 60, remaining % 60)
        Diagnostics.write("\r\u{1B}[K\(done)/\(total) images  \(String(format: "%.1f", rate))/s  ETA \(eta)")
        visible = true
    }

    func clear() {
        guard visible else { return }
        Diagnostics.write("\r\u{1B}[K")
        visible = false
    }
}
