import Foundation
import RunnectTestSupport

/// Headless Chromium, for tests that load a page in a real browser: `--dump-dom` (the DOM after
/// the page's scripts ran) and `--screenshot`. Each run has its own temporary profile and a time
/// limit; as root Chromium needs `--no-sandbox`.
struct HeadlessChromium {
    let executable: String

    /// The browser named by `$RUNNECT_CHROMIUM`, else the first of `chromium`,
    /// `chromium-browser`, `google-chrome` on the `PATH`; `nil` when none is installed
    /// (`scripts/setup.sh --test` installs Debian's `chromium`).
    static let installed: HeadlessChromium? = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["RUNNECT_CHROMIUM"], FileManager.default.isExecutableFile(atPath: path) {
            return HeadlessChromium(executable: path)
        }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders {
                let path = (folder as NSString).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: path) { return HeadlessChromium(executable: path) }
            }
        }
        return nil
    }()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The serialised DOM of `url` once its scripts ran.
    func dumpDOM(_ url: URL, windowSize: (Int, Int) = (1280, 900)) throws -> String {
        try run(["--dump-dom", url.absoluteString], windowSize: windowSize)
    }

    /// Saves a PNG of `url` to `file`.
    func screenshot(_ url: URL, to file: URL, windowSize: (Int, Int)) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: file)
        _ = try run(["--screenshot=\(file.path)", "--hide-scrollbars", url.absoluteString], windowSize: windowSize)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw Failure(description: "chromium wrote no screenshot at \(file.path)")
        }
    }

    private func run(_ arguments: [String], windowSize: (Int, Int), timeoutSeconds: Double = 60) throws -> String {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "runnect-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: profile) }
        let result = try ToolRun.run(
            [
                executable, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--mute-audio",
                "--user-data-dir=\(profile.path)", "--window-size=\(windowSize.0),\(windowSize.1)",
                // Lets the page settle (scripts, lazy images) before the DOM or the pixels are taken.
                "--virtual-time-budget=5000", "--run-all-compositor-stages-before-draw",
            ] + arguments, timeoutSeconds: timeoutSeconds)
        guard result.status == 0 else {
            throw Failure(
                description: "chromium exited with \(result.status) "
                    + "(killed after \(Int(timeoutSeconds)) s?): \(result.stderr.suffix(2000))")
        }
        return result.stdout
    }
}
