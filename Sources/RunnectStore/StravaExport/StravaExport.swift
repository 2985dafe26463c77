import Foundation
import RunnectKit

/// A folder unpacked from Strava's bulk export ("Download or Delete Your Account" → "Request
/// your archive"): `activities.csv`, one row per activity, and `activities/` with the recorded
/// files (`123.gpx`, `123.tcx.gz`, `123.fit.gz`, …) that its `Filename` column names.
///
/// Columns are found by their header names (`Activity ID`, `Activity Date`, `Activity Name`,
/// `Activity Type`, `Activity Description`, `Filename`), so the dozens of other columns, which
/// change from one export to the next and repeat some names, do not matter. Only `Filename` is
/// required. Manual activities have no file and are counted, not imported.
///
/// ```swift
/// let export = try StravaExport(folder: "export_12345")
/// let summary = try BulkImporter(store: store).run(export.importItems())
/// ```
public struct StravaExport: Sendable {
    /// One row of `activities.csv`.
    public struct Entry: Sendable, Hashable {
        /// Strava's id of the activity.
        public var activityID: String?
        /// Start of the activity (Strava writes it in UTC, `Jun 1, 2026, 7:30:00 AM`).
        public var date: Date?
        /// The activity's name, as the runner gave it.
        public var name: String?
        /// Strava's activity type (`Run`, `Ride`, `Hike`, …).
        public var type: String?
        /// The runner's description.
        public var description: String?
        /// The recorded file, relative to the export folder (`activities/123.fit.gz`); `nil`
        /// for a manual activity.
        public var fileName: String?
        /// The line of `activities.csv` the row starts on.
        public var line: Int
    }

    /// The export folder.
    public let folder: String
    /// Every row of `activities.csv`, in order.
    public let entries: [Entry]

    /// The name of the table in the export folder.
    public static let tableName = "activities.csv"
    /// `activities.csv` larger than this is refused (a real one is a few megabytes).
    public static let maxTableBytes = 256 << 20

    /// Whether `folder` looks like a Strava export: it holds `activities.csv`.
    public static func isExport(folder: String) -> Bool {
        FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(tableName))
    }

    /// Reads `activities.csv` of `folder`.
    /// - Throws: ``StravaExportError``.
    public init(folder: String) throws {
        self.folder = folder
        let path = (folder as NSString).appendingPathComponent(Self.tableName)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= Self.maxTableBytes else {
            throw StravaExportError.tooLarge(path: path, limitBytes: Self.maxTableBytes)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StravaExportError.cannotRead(path: path)
        }
        let table: CSVTable
        do {
            table = try CSVTable(bytes: Array(data))
        } catch let error as CSVTable.Malformed {
            throw StravaExportError.malformedTable(path: path, line: error.line, message: error.message)
        }
        guard let fileColumn = table.column("Filename") else {
            throw StravaExportError.missingColumn(path: path, column: "Filename")
        }
        let columns = (
            id: table.column("Activity ID"), date: table.column("Activity Date"),
            name: table.column("Activity Name"), type: table.column("Activity Type"),
            description: table.column("Activity Description")
        )
        // Cells are text from a file: their control characters are replaced, line breaks kept
        // only in the description.
        func value(_ row: [String], _ column: Int?, keepingLineBreaks: Bool = false) -> String? {
            guard let column, column < row.count else { return nil }
            let trimmed = ControlCharacters.replacing(in: row[column], keepingLineBreaks: keepingLineBreaks)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        entries = zip(table.rows, table.rowLines).map { row, line in
            Entry(
                activityID: value(row, columns.id), date: value(row, columns.date).flatMap(Self.parseDate),
                name: value(row, columns.name), type: value(row, columns.type),
                description: value(row, columns.description, keepingLineBreaks: true),
                fileName: value(row, fileColumn), line: line)
        }
    }

    /// The entries that have a file.
    public var recorded: [Entry] { entries.filter { $0.fileName != nil } }

    /// The path of an entry's file (`nil` for a manual activity), checked to lie inside the export
    /// folder once every symbolic link is resolved, and to be a regular file when it exists.
    ///
    /// `activities.csv` is data from elsewhere: a `Filename` of `../secret/x.gpx`, `/etc/passwd`
    /// or a link pointing out of the folder must not make an import read a file the runner did
    /// not hand over, and a FIFO must not make it wait forever.
    /// - Throws: ``StravaExportError/outsideFolder(path:line:fileName:)``,
    ///   ``StravaExportError/notARegularFile(path:line:fileName:)``.
    public func path(of entry: Entry) throws -> String? {
        guard let fileName = entry.fileName else { return nil }
        let joined = (folder as NSString).appendingPathComponent(fileName)
        let tablePath = (folder as NSString).appendingPathComponent(Self.tableName)
        guard let root = Self.realPath(folder) else { return joined }
        // A missing file cannot be resolved: its name alone must stay inside (the import then
        // says it is missing).
        let resolved =
            Self.realPath(joined)
            ?? (root as NSString).appendingPathComponent((fileName as NSString).standardizingPath)
        guard !fileName.hasPrefix("/"), !fileName.split(separator: "/").contains(".."),
            resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        else {
            throw StravaExportError.outsideFolder(path: tablePath, line: entry.line, fileName: fileName)
        }
        if OutputFile.kind(of: joined) == .special || OutputFile.kind(of: joined) == .folder {
            throw StravaExportError.notARegularFile(path: tablePath, line: entry.line, fileName: fileName)
        }
        return joined
    }

    /// What to import: one item per entry with a file, titled with the activity's name (cut to
    /// the store's 40 characters) and described with its description; an entry without a name or
    /// description takes the file's own. An entry whose file is refused by ``path(of:)`` is a
    /// failed outcome instead: the rest import.
    public func importItems(departure: Departure? = nil) -> (items: [ImportItem], refused: [ImportOutcome]) {
        var items: [ImportItem] = []
        var refused: [ImportOutcome] = []
        for entry in recorded {
            do {
                guard let path = try path(of: entry) else { continue }
                items.append(
                    ImportItem(
                        path: path, title: entry.name.map(Self.title), description: entry.description,
                        departure: departure))
            } catch {
                let named = (folder as NSString).appendingPathComponent(entry.fileName ?? "")
                refused.append(.failed(ImportItem(path: named), error))
            }
        }
        return (items, refused)
    }

    /// `realpath(3)`: the absolute path with every link and `..` resolved; `nil` when missing.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The kind of a file by its name: `gpx`, `tcx.gz`, `fit.gz`, … (lowercased; what Strava's
    /// `Filename` column tells apart).
    public static func fileKind(_ fileName: String) -> String {
        let name = (fileName as NSString).lastPathComponent.lowercased()
        let parts = name.split(separator: ".")
        guard parts.count >= 2 else { return "no extension" }
        if parts.last == "gz" && parts.count >= 3 { return parts.suffix(2).joined(separator: ".") }
        return String(parts.last!)
    }

    /// `name` cut to the store's title length.
    static func title(_ name: String) -> String {
        String(name.prefix(CourseStore.maximumTitleLength)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `Jun 1, 2026, 7:30:00 AM` (UTC, English month names), as Strava writes it.
    static func parseDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMM d, yyyy, h:mm:ss a"
        return formatter.date(from: text)
    }
}

/// Why a Strava export folder could not be read.
public enum StravaExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `activities.csv` could not be opened.
    case cannotRead(path: String)
    /// `activities.csv` is larger than ``StravaExport/maxTableBytes``.
    case tooLarge(path: String, limitBytes: Int)
    /// `activities.csv` is not a CSV table.
    case malformedTable(path: String, line: Int, message: String)
    /// A column the import needs is not in the header.
    case missingColumn(path: String, column: String)
    /// A row's `Filename` leads outside the export folder (`..`, an absolute path, a link).
    case outsideFolder(path: String, line: Int, fileName: String)
    /// A row's `Filename` is a FIFO, a socket, a device or a folder.
    case notARegularFile(path: String, line: Int, fileName: String)

    public var description: String {
        switch self {
        case .cannotRead(let path): return "\(path): cannot read"
        case .tooLarge(let path, let limit): return "\(path): larger than \(limit >> 20) MiB, refused"
        case .malformedTable(let path, let line, let message): return "\(path): line \(line): \(message)"
        case .missingColumn(let path, let column):
            return "\(path): no \"\(column)\" column: not a Strava activities.csv"
        case .outsideFolder(let path, let line, let fileName):
            return "\(path): line \(line): Filename \"\(fileName)\" is outside the export folder; refused"
        case .notARegularFile(let path, let line, let fileName):
            return "\(path): line \(line): Filename \"\(fileName)\" is not a regular file; refused"
        }
    }
}
