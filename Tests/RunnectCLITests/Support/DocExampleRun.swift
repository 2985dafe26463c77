import Foundation
import RunnectTestSupport

/// Runs a ``DocExample`` as a reader would, in a scratch folder (see ``DocExample`` for the
/// folder, the environment and the PostgreSQL cluster), and gives what each command printed.
struct DocExampleRun {
    /// A command's output, standard output and error as one stream, split into lines.
    struct Output {
        var command: DocExample.Command
        var lines: [String]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The separator bash prints before each command: a record separator and the command's number.
    private static let marker = "\u{1E}"

    static func run(_ example: DocExample, cluster: PostgresCluster? = nil) throws -> [Output] {
        let scratch = try TemporaryFolder("runnect-doc-example")
        let work = scratch.url.appendingPathComponent("work")
        let files = FileManager.default
        try files.createDirectory(at: work, withIntermediateDirectories: true)
        for name in ["SampleTracks", "scripts"] {
            try files.createSymbolicLink(
                at: work.appendingPathComponent(name), withDestinationURL: PackageFolder.url(name))
        }
        try files.createSymbolicLink(
            at: scratch.url.appendingPathComponent("shared"),
            withDestinationURL: SharedCorpus.tracks.deletingLastPathComponent())
        let home = scratch.url.appendingPathComponent("home")
        try files.createDirectory(at: home, withIntermediateDirectories: true)

        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RUNNECT_") }
        let bin = RunnectProcess.executable.deletingLastPathComponent().path
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        environment["HOME"] = home.path
        environment["TMPDIR"] = scratch.url.path
        environment["TZ"] = "UTC"
        environment["LC_ALL"] = "C.UTF-8"
        environment["RUNNECT_DB"] = work.appendingPathComponent("courses.sqlite").path
        environment["RUNNECT_USER"] = "minji"
        if let cluster {
            environment["RUNNECT_PG_DIR"] = cluster.directory
            environment["RUNNECT_PG_PORT"] = String(cluster.port)
            environment["RUNNECT_PG_ADMIN"] = cluster.admin
            environment["RUNNECT_PG_PASSWORD"] = cluster.adminPassword
            environment["RUNNECT_PG_BIN"] = cluster.binDirectory
            environment["RUNNECT_PG_URL"] =
                "postgresql://\(cluster.admin)@/postgres?host=\(cluster.directory)&port=\(cluster.port)"
        }

        var script = "set -e\n" + example.setup + "\nset +e\n"
        for (number, command) in example.commands.enumerated() {
            script += "printf '\\n\(marker)\(number)\\n'\n\(command.text)\n"
        }
        let scriptURL = scratch.url.appendingPathComponent("example.sh")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["timeout", "300", "bash", "--noprofile", "--norc", scriptURL.path]
        process.currentDirectoryURL = work
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        try? out.fileHandleForReading.close()
        exited.wait()
        let text = String(decoding: data, as: UTF8.self)

        var sections = text.components(separatedBy: "\n\(marker)")
        let before = sections.removeFirst()
        guard sections.count == example.commands.count else {
            throw Failure(
                description: "the example's setup or bash stopped (status \(process.terminationStatus)) "
                    + "after \(sections.count) of \(example.commands.count) commands:\n\(before)")
        }
        return zip(example.commands, sections).map { command, section in
            // The section starts with the command's number, then its output.
            var lines = section.components(separatedBy: "\n")
            lines.removeFirst()
            return Output(command: command, lines: lines)
        }
    }
}
