import Foundation
import RunnectTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `runnect serve` of the test's own on a free loopback port: started, its one
/// `listening on …` line read, asked over HTTP, then stopped by a signal (SIGKILL at the latest
/// when released, so no server outlives its test).
final class ServeProcess: @unchecked Sendable {
    let process: Process
    /// What the server printed on its one line: `http://HOST:PORT`.
    let baseURL: URL
    let firstLine: String
    private let output: Pipe
    private let errorFile: URL

    /// Starts `runnect serve ARGUMENTS` and waits (60 s at most) for its listening line.
    /// - Throws: ``Failure`` with what it printed when it exits or prints something else first.
    init(_ arguments: [String], environment: [String: String] = [:], binary: URL? = nil) throws {
        process = Process()
        process.executableURL = binary ?? RunnectProcess.executable
        process.arguments = ["serve"] + arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-serve-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()

        let line = Self.readLine(output.fileHandleForReading, timeout: 60)
        guard let line, line.hasPrefix("listening on "), let url = URL(string: String(line.dropFirst(13))) else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let printed = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: errorFile)
            throw Failure(description: "runnect serve printed \(line.map { "\"\($0)\"" } ?? "nothing"): \(printed)")
        }
        firstLine = line
        baseURL = url
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // Foundation keeps a finished Process (and so its pipes) alive: the read end is closed
        // here, or each server would leave a descriptor open in the test process.
        try? output.fileHandleForReading.close()
        try? FileManager.default.removeItem(at: errorFile)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What the server wrote on standard error so far.
    var stderr: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits for the exit (`timeout` seconds at most, then SIGKILL): the exit
    /// status, what else standard output carried, and how long the exit took.
    func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 20) -> (status: Int32, stdout: String, seconds: Double) {
        let start = Date()
        kill(process.processIdentifier, signal)
        let exited = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            self.process.waitUntilExit()
            exited.signal()
        }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        let seconds = Date().timeIntervalSince(start)
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        try? output.fileHandleForReading.close()
        return (process.terminationStatus, String(decoding: rest, as: UTF8.self), seconds)
    }

    /// One HTTP request to the server: the status, the headers and the body.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> (status: Int, headers: [String: String], body: Data) {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw Failure(description: "no HTTP response") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return (http.statusCode, fields, data)
    }

    /// A `GET` over a plain socket, for hosts URLSession cannot name (an IPv6 literal): the
    /// status line's code and the body.
    func rawGet(_ path: String) throws -> (status: Int, body: Data) {
        let connection = try RawConnection(baseURL, timeout: 10)
        let host = baseURL.host ?? "localhost"
        try connection.send(
            Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(baseURL.port ?? 0)\r\nConnection: close\r\n\r\n".utf8))
        return try connection.answer()
    }

    /// Reads up to the first newline (without it); `nil` at end of file or after `timeout` s.
    private static func readLine(_ handle: FileHandle, timeout: TimeInterval) -> String? {
        let box = LineBox()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var bytes: [UInt8] = []
            var byte: UInt8 = 0
            while read(handle.fileDescriptor, &byte, 1) == 1 {
                if byte == UInt8(ascii: "\n") {
                    box.line = String(decoding: bytes, as: UTF8.self)
                    break
                }
                bytes.append(byte)
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return box.line
    }

    private final class LineBox: @unchecked Sendable {
        var line: String?
    }
}
