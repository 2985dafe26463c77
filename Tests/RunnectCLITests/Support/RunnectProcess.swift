import Foundation
import RunnectTestSupport

/// Runs the built `runnect` binary and captures what it printed and its exit code.
struct RunnectProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    /// The executable built beside the test bundle.
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("runnect")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return PackageFolder.root.appendingPathComponent(".build/debug/runnect")
    }()

    static func run(
        _ arguments: [String], stdin: String? = nil,
        environment: [String: String] = [:], workingDirectory: URL? = nil, binary: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = binary ?? executable
        process.arguments = arguments
        process.currentDirectoryURL = workingDirectory ?? PackageFolder.root
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        // Standard error goes to a file, so a chatty child never blocks on a second full pipe.
        let errURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("runnect-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let errHandle = try FileHandle(forWritingTo: errURL)
        let out = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = errHandle
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        try? out.fileHandleForReading.close()
        process.waitUntilExit()
        try errHandle.close()
        let errData = try Data(contentsOf: errURL)
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
