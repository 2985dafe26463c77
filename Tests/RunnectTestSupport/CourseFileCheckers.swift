import Foundation

/// Runs a program and captures what it printed (standard error through a file, so a chatty tool
/// never blocks on a second full pipe).
public enum ToolRun {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `arguments` through `/usr/bin/env` (in `folder`); with `timeoutSeconds`, a child still
    /// running then is killed (SIGKILL: the child may inherit a signal mask that blocks SIGTERM
    /// from the test's thread).
    public static func run(_ arguments: [String], in folder: URL? = nil, timeoutSeconds: Double? = nil) throws -> Result
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-tool-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let errorHandle = try FileHandle(forWritingTo: errors)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let timer = DispatchWorkItem { if process.isRunning { kill(pid, SIGKILL) } }
        if let timeoutSeconds { DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds, execute: timer) }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        try? output.fileHandleForReading.close()
        process.waitUntilExit()
        timer.cancel()
        try errorHandle.close()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self),
            stderr: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }
}

/// `xmllint --schema` against the shared GPX 1.1 + TrackPointExtension v1 schemas or the TCX v2
/// + ActivityExtension v2 schemas, through a small wrapper schema (written in a folder of the
/// caller's) that imports them, so that the Garmin extensions are checked too (SOURCES.md).
public enum XMLSchemaCheck {
    public static var present: Bool { ExternalTool.path("xmllint") != nil }
    public static let missing = "xmllint is not installed (scripts/setup.sh --test installs libxml2-utils)"

    public enum Schema: String, Sendable {
        case gpx, tcx

        var imports: [(namespace: String, file: String)] {
            switch self {
            case .gpx:
                return [
                    ("http://www.topografix.com/GPX/1/1", "gpx-1.1.xsd"),
                    ("http://www.garmin.com/xmlschemas/TrackPointExtension/v1", "TrackPointExtensionv1.xsd"),
                ]
            case .tcx:
                return [
                    ("http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2", "tcx-v2.xsd"),
                    ("http://www.garmin.com/xmlschemas/ActivityExtension/v2", "ActivityExtensionv2.xsd"),
                ]
            }
        }
    }

    /// Validates `files` in one `xmllint --nonet --noout --schema` run.
    /// - Returns: The files that did not validate, with xmllint's first complaints about each.
    public static func invalidFiles(_ files: [String], schema: Schema, folder: TemporaryFolder) throws -> [String:
        String]
    {
        let wrapper = folder.path("wrapper-\(schema.rawValue).xsd")
        var text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        text += "<xsd:schema xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" elementFormDefault=\"qualified\">\n"
        for (namespace, file) in schema.imports {
            let location = SharedCorpus.schemas.appendingPathComponent(file).absoluteString
            text += "<xsd:import namespace=\"\(namespace)\" schemaLocation=\"\(location)\"/>\n"
        }
        try (text + "</xsd:schema>\n").write(toFile: wrapper, atomically: true, encoding: .utf8)
        let result = try ToolRun.run(["xmllint", "--nonet", "--noout", "--schema", wrapper] + files)
        var problems: [String: String] = [:]
        for file in files where !result.stderr.contains("\(file) validates\n") {
            let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix(file) }.prefix(3)
            problems[file] =
                lines.isEmpty ? "no verdict from xmllint: \(result.stderr.prefix(300))" : lines.joined(separator: " | ")
        }
        return problems
    }
}

/// GPSBabel reading a file and writing GPX to standard output, to count what it found.
public enum GPSBabel {
    public static var present: Bool { ExternalTool.path("gpsbabel") != nil }
    public static let missing = "gpsbabel is not installed (scripts/setup.sh --test installs it)"

    public struct Counts: Equatable, Sendable, CustomStringConvertible {
        public var trackPoints: Int
        public var routePoints: Int
        public var description: String { "\(trackPoints) trkpt, \(routePoints) rtept" }

        public init(trackPoints: Int, routePoints: Int) {
            self.trackPoints = trackPoints
            self.routePoints = routePoints
        }
    }

    /// What GPSBabel reads in `file` with its input format `format` (`gpx`, `gtrnctr`, `garmin_fit`).
    public static func counts(_ file: String, format: String) throws -> Counts {
        let result = try ToolRun.run(["gpsbabel", "-i", format, "-f", file, "-o", "gpx", "-F", "-"])
        guard result.status == 0 else {
            throw ToolFailure(description: "gpsbabel -i \(format) -f \(file): \(result.status): \(result.stderr)")
        }
        return Counts(
            trackPoints: result.stdout.components(separatedBy: "<trkpt ").count - 1,
            routePoints: result.stdout.components(separatedBy: "<rtept ").count - 1)
    }
}

/// `scripts/check_fit.py`: python-fitparse reads FIT files with both CRCs checked.
public enum FitParse {
    public static let present = ExternalTool.pythonImports("fitparse")
    public static let missing = "python3 with fitparse is missing (scripts/setup.sh --test pip-installs it)"

    /// fitparse's summary of each file (see the script), keyed by path.
    public static func summaries(_ files: [String]) throws -> [String: [String: Any]] {
        let script = PackageFolder.root.appendingPathComponent("scripts/check_fit.py").path
        let result = try ToolRun.run(["python3", script] + files)
        guard result.status == 0 else { throw ToolFailure(description: result.stderr) }
        var summaries: [String: [String: Any]] = [:]
        for line in result.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let object, let file = object["file"] as? String { summaries[file] = object }
        }
        return summaries
    }
}

/// An external tool failed where it should not.
public struct ToolFailure: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
