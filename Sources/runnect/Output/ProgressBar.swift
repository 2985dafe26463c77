import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A one-line progress bar on standard error, drawn only when standard error is a terminal (so
/// nothing lands in a pipe or a log), at most ten times a second.
final class ProgressBar {
    private let total: Int
    private let unit: String
    private let enabled: Bool
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false

    /// - Parameter unit: What is counted, plural (`files`, `courses`).
    init(total: Int, unit: String = "files", enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = total
        self.unit = unit
        self.enabled = enabled && total > 1
    }

    /// Redraws with `done` of `total` finished; `detail` follows the counts (e.g. courses added).
    func update(done: Int, detail: String) {
        guard enabled, done == total || !drawn || Date().timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = Date()
        let width = 24
        let filled = total > 0 ? width * done / total : width
        let elapsed = Date().timeIntervalSince(started)
        // No rate from the first fraction of a second: 1 item in 3 µs is not a rate.
        let rate = elapsed > 0.25 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? RunnerFormatting.eta(seconds: Double(total - done) / rate) : "–"
        let bar =
            String(repeating: "=", count: filled) + (filled < width ? ">" : "")
            + String(repeating: " ", count: max(0, width - filled - 1))
        let counts = detail.isEmpty ? "" : " · \(detail)"
        let line = String(
            format: "\r[%@] %d/%d %@%@ · %.0f %@/s · ETA %@\u{1B}[K",
            bar as NSString, done, total, unit as NSString, counts as NSString, rate,
            unit as NSString, eta as NSString)
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    /// Clears the line so that what is printed next starts clean; the next update draws again.
    func clear() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        drawn = false
    }
}

private enum RunnerFormatting {
    static func eta(seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
            : String(format: "%d:%02d", s / 60, s % 60)
    }
}
