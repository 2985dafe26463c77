import Foundation

/// `python3 -m http.server` serving a folder on a free port of 127.0.0.1, for the browser tests.
final class StaticServer {
    let port: Int
    private let process: Process

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The first python3 of /usr/bin and /usr/local/bin; `nil` without one.
    static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(
        where: FileManager.default.isExecutableFile)

    init(folder: URL) throws {
        guard let python = Self.python else { throw Failure(description: "python3 not found") }
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path]
        let output = Pipe()
        defer { try? output.fileHandleForReading.close() }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 37439 (http://127.0.0.1:37439/) ..."
        var banner = ""
        while !banner.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            banner += String(decoding: data, as: UTF8.self)
        }
        let words = banner.split(separator: " ")
        guard let index = words.firstIndex(of: "port"), index + 1 < words.count, let port = Int(words[index + 1]) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failure(description: "no port in \(banner)")
        }
        self.port = port
    }

    /// `http://127.0.0.1:<port>/<path>`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)")!
    }

    /// SIGKILL: the child may inherit a signal mask that blocks SIGTERM from the test's thread.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
