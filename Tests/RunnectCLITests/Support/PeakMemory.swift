import Foundation
import RunnectTestSupport

/// Runs the built `runnect` and reads its peak resident memory from `wait4(2)`.
///
/// The child is forked by a small Python process, not spawned from the test process: Swift's
/// `Process` and `posix_spawn` start children with `CLONE_VM`, and Linux then counts the test
/// process's own high-water mark (hundreds of MiB, shared memory until `exec`) as the child's
/// peak. A child of a real `fork()` starts from the fork's small copy.
enum PeakMemory {
    struct Result {
        var status: Int32
        /// Peak resident set size, KiB.
        var peakKiB: Int
    }

    static var present: Bool { ExternalTool.path("python3") != nil }

    private static let script = """
        import os, sys
        out = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        pid = os.fork()
        if pid == 0:
            os.dup2(out, 1)
            os.dup2(out, 2)
            os.execv(sys.argv[2], sys.argv[2:])
        _, status, usage = os.wait4(pid, 0)
        print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
        """

    /// Standard output and error go to a file in `folder`.
    static func run(_ arguments: [String], folder: URL) throws -> Result {
        let log = folder.appendingPathComponent("peak-output.txt").path
        let result = try ToolRun.run(["python3", "-c", script, log, RunnectProcess.executable.path] + arguments)
        let fields = result.stdout.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard result.status == 0, fields.count == 2 else {
            throw ToolFailure(description: "peak memory of \(arguments): \(result.stdout) \(result.stderr)")
        }
        return Result(status: Int32(fields[0]), peakKiB: fields[1])
    }
}
