import Foundation
import RunnectKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The output folder of a discovery-index export: writes files atomically, knows which files it
/// owns, and removes only those.
///
/// Ownership is recorded in a manifest, ``manifestName``, listing every file the exporter wrote.
/// A file is only ever replaced or removed when the manifest lists it; a file of the same name
/// that the exporter did not write makes the export stop before anything is written
/// (``IndexExportError/foreignFile(path:)``). Names in the manifest are checked against the
/// exporter's own naming (`index.html`, `courses.json`, `courses/<id>.svg`, …), so a damaged
/// or edited manifest cannot point the exporter at anything else.
///
/// A file is written to a temporary name in its own folder and renamed over the old one
/// (`rename(2)` is atomic, ``OutputFile``), so a web server serving the folder during an export only ever serves
/// whole files. A file whose bytes would not change is left alone (its modification time too).
struct IndexFolder {
    /// The manifest of owned files, in the output folder.
    static let manifestName = ".runnect-index.json"
    /// The per-course files' folder.
    static let coursesFolder = "courses"

    let root: URL
    /// Files listed by the previous export's manifest (relative paths).
    private(set) var owned: Set<String>

    /// Opens (creating it when missing) the output folder and reads its manifest.
    /// - Throws: ``IndexExportError``.
    init(path: String) throws {
        root = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw IndexExportError.notAFolder(path: root.path)
        }
        // The folder named may be a link to a folder (the user chose it); the exporter's own
        // `courses` folder and manifest may not: a link there would carry its writes elsewhere.
        let courses = root.appendingPathComponent(Self.coursesFolder).path
        for (name, expected) in [(courses, S_IFDIR), (root.appendingPathComponent(Self.manifestName).path, S_IFREG)] {
            var info = stat()
            if lstat(name, &info) == 0, info.st_mode & S_IFMT != expected {
                throw IndexExportError.foreignFile(path: name)
            }
        }
        for folder in [root, root.appendingPathComponent(Self.coursesFolder)] {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw IndexExportError.cannotWrite(path: folder.path, reason: Self.reason(error))
            }
        }
        owned = try Self.readManifest(root.appendingPathComponent(Self.manifestName))
        removeStaleTemporaryFiles()
    }

    /// Removes the temporary files an export cut short left behind: `.<name>.<pid>.tmp` where
    /// `<name>` is one of the exporter's own names, a pattern no other program writes.
    private func removeStaleTemporaryFiles() {
        for folder in ["", Self.coursesFolder + "/"] {
            let names =
                (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
                let inner = name.dropFirst().dropLast(4)
                guard let dot = inner.lastIndex(of: "."),
                    !inner[inner.index(after: dot)...].isEmpty,
                    inner[inner.index(after: dot)...].allSatisfy({ $0.isASCII && $0.isNumber })
                else { continue }
                let target = folder + inner[..<dot]
                if Self.isExporterName(target) || target == Self.manifestName {
                    unlink(root.appendingPathComponent(folder + name).path)
                }
            }
        }
    }

    /// Whether `name` is one the exporter makes: the top-level files, or
    /// `courses/<id>.svg|geojson|gpx|fit`.
    static func isExporterName(_ name: String) -> Bool {
        if DiscoveryIndexExporter.topLevelFiles.contains(name) { return true }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == Substring(coursesFolder) else { return false }
        let file = parts[1]
        for suffix in [".svg", ".geojson", ".gpx", ".fit"] where file.hasSuffix(suffix) {
            let stem = file.dropLast(suffix.count)
            return !stem.isEmpty && stem.count <= 19 && stem.allSatisfy { $0.isASCII && $0.isNumber }
        }
        return false
    }

    /// Throws ``IndexExportError/foreignFile(path:)`` for the first of `names` present on disk and
    /// not owned, or owned but no longer a regular file (a link, a FIFO, a folder put in its
    /// place): checked before anything is written.
    func checkNoForeignFiles(_ names: [String]) throws {
        for name in names {
            var info = stat()
            let path = root.appendingPathComponent(name).path
            if lstat(path, &info) == 0, !owned.contains(name) || info.st_mode & S_IFMT != S_IFREG {
                throw IndexExportError.foreignFile(path: path)
            }
        }
    }

    /// Records that the files `names` are (about to be) owned, on top of what is owned already:
    /// written before the files, so that an export cut short (kill, full disk) still owns what it
    /// wrote, and the next run replaces or removes it.
    mutating func claim(_ names: some Sequence<String>) throws {
        owned.formUnion(names)
        try writeManifest(owned)
    }

    /// Writes `data` to `name` atomically unless the file holds exactly these bytes.
    /// - Returns: Whether the file was written (`false`: unchanged).
    @discardableResult
    func write(_ data: Data, to name: String) throws -> Bool {
        let url = root.appendingPathComponent(name)
        if let existing = FileManager.default.contents(atPath: url.path), existing == data { return false }
        try Self.writeAtomically(data, to: url)
        return true
    }

    /// Removes the owned files not in `keep` and records `keep` as the owned set.
    /// - Returns: How many files were removed.
    mutating func removeOwned(except keep: Set<String>) throws -> Int {
        var removed = 0
        for name in owned.subtracting(keep).sorted() {
            let path = root.appendingPathComponent(name).path
            if unlink(path) == 0 {
                removed += 1
            } else if errno != ENOENT {
                throw IndexExportError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
            }
        }
        owned = keep
        try writeManifest(keep)
        return removed
    }

    // MARK: - Manifest

    private struct Manifest: Codable {
        /// What wrote it.
        var generator = "runnect index"
        /// The files owned, relative to the folder, sorted.
        var files: [String]
    }

    private static func readManifest(_ url: URL) throws -> Set<String> {
        guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
        guard let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else {
            throw IndexExportError.damagedManifest(path: url.path)
        }
        return Set(manifest.files.filter(isExporterName))
    }

    private func writeManifest(_ files: Set<String>) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        let data = try encoder.encode(Manifest(files: files.sorted()))
        try Self.writeAtomically(data, to: root.appendingPathComponent(Self.manifestName))
    }

    // MARK: - Atomic writes

    /// Writes `data` to `url` atomically (``OutputFile``: a temporary file renamed over the old
    /// one, readable by a web server running as another user).
    static func writeAtomically(_ data: Data, to url: URL) throws {
        do {
            try OutputFile.write(data, to: url.path)
        } catch OutputFileError.cannotWrite(_, let reason) {
            throw IndexExportError.cannotWrite(path: url.path, reason: reason)
        }
    }

    private static func reason(_ error: Error) -> String {
        (error as NSError).localizedDescription
    }
}
