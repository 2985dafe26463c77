import Foundation
import RunnectKit
import RunnectStore

/// Exports the discovery index: a folder any static web server serves as it is (and a browser
/// opens from `file://`), with
///
/// - `index.html`: the course cards, sorting and Korean-aware search (``DiscoveryIndexPage``);
/// - `courses.json`: the courses the page lists (``DiscoveryIndexEntry``), newest first, and
///   `courses.js`, the same data as a script the page loads (`file://` pages cannot `fetch`);
/// - `courses.geojson`: every course as a simplified `LineString` feature of one
///   `FeatureCollection` (RFC 7946), for a map;
/// - `courses/<id>.svg` and `courses/<id>.geojson`: each course's preview and full path;
/// - `courses/<id>.gpx` and `courses/<id>.fit`: each course as a download for a watch (GPX 1.1,
///   and a FIT course file), the card's links.
///
/// Re-exporting into the same folder updates it in place: files whose bytes would not change are
/// left alone, the others are replaced atomically, and the files of courses no longer in the
/// index are removed. Only files the exporter wrote are ever replaced or removed
/// (``IndexFolder``).
///
/// ```swift
/// let store = try CourseStore(path: "courses.sqlite", user: "minji")
/// let summary = try DiscoveryIndexExporter(store: store).export(to: "site")
/// print(summary.courses, summary.filesWritten)
/// ```
public struct DiscoveryIndexExporter: Sendable {
    /// The store the courses come from.
    public var store: CourseStore
    /// Shared courses (discovery, the default) or every course of the store.
    public var scope: SearchScope

    /// The files of the index besides the per-course ones.
    public static let topLevelFiles: Set<String> = ["index.html", "courses.json", "courses.js", "courses.geojson"]

    /// An exporter of `store`'s courses in `scope`.
    public init(store: CourseStore, scope: SearchScope = .shared) {
        self.store = store
        self.scope = scope
    }

    /// The preview's path in the folder: `courses/<id>.svg`.
    public static func previewName(id: Int64) -> String { "\(IndexFolder.coursesFolder)/\(id).svg" }
    /// The course GeoJSON's path in the folder: `courses/<id>.geojson`.
    public static func geoJSONName(id: Int64) -> String { "\(IndexFolder.coursesFolder)/\(id).geojson" }
    /// The GPX download's path in the folder: `courses/<id>.gpx`.
    public static func gpxName(id: Int64) -> String { "\(IndexFolder.coursesFolder)/\(id).gpx" }
    /// The FIT course download's path in the folder: `courses/<id>.fit`.
    public static func fitName(id: Int64) -> String { "\(IndexFolder.coursesFolder)/\(id).fit" }

    /// Every file of a course in the folder.
    static func courseFileNames(id: Int64) -> [String] {
        [previewName(id: id), geoJSONName(id: id), gpxName(id: id), fitName(id: id)]
    }

    /// Writes or updates the index in `folder` (created when missing).
    ///
    /// The courses are read from one snapshot of the database, so the files agree with each
    /// other even while other processes write to the store. The per-course files are written
    /// first and the lists that point at them last; stale files are removed at the end.
    ///
    /// - Parameters:
    ///   - folder: The output folder.
    ///   - progress: Called after each course with the courses done and the total.
    /// - Returns: What was written, left alone and removed.
    /// - Throws: ``IndexExportError`` (nothing written for a foreign file or a damaged manifest),
    ///   ``StoreError``. A course whose path is damaged or cannot be drawn is left out and told to
    ///   the store's ``CourseStore/warnings``; the others are written.
    /// - Complexity: One decode and render per course; memory holds one course's path at a time
    ///   plus the lists.
    public func export(to folder: String, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in })
        async throws -> DiscoveryIndexSummary
    {
        let page = Data(DiscoveryIndexPage.html.utf8)
        var output = try IndexFolder(path: folder)
        var written = 0
        var unchanged = 0
        func put(_ data: Data, _ name: String) throws {
            if try output.write(data, to: name) { written += 1 } else { unchanged += 1 }
        }

        let entries = try await store.readCourses(in: scope, sort: .date) {
            courses, activityOf -> [DiscoveryIndexEntry] in
            var names = Self.topLevelFiles.sorted()
            for course in courses { names += Self.courseFileNames(id: course.id) }
            try output.checkNoForeignFiles(names)
            try output.claim(names)

            var entries: [DiscoveryIndexEntry] = []
            entries.reserveCapacity(courses.count)
            var collection = GeoJSONWriter(options: CourseFiles.collectionOptions)
            for (index, course) in courses.enumerated() {
                let activity: Activity
                let files: CourseFiles
                do {
                    activity = try await activityOf(course.id)
                    files = try CourseFiles(
                        entry: DiscoveryIndexEntry(course), activity: activity, createdAt: course.createdAt)
                } catch let error as StoreError {
                    // A damaged path: one course left out and told, the others served.
                    store.warnings.report([.unreadableCourse(id: course.id, reason: error.description)])
                    progress(index + 1, courses.count)
                    continue
                } catch IndexExportError.cannotRender(let id, let reason) {
                    store.warnings.report([.unreadableCourse(id: id, reason: reason)])
                    progress(index + 1, courses.count)
                    continue
                }
                let entry = files.entry
                try put(files.preview, Self.previewName(id: course.id))
                try put(files.geoJSON, Self.geoJSONName(id: course.id))
                if let gpx = files.gpx, let fit = files.fit {
                    try put(gpx, Self.gpxName(id: course.id))
                    try put(fit, Self.fitName(id: course.id))
                }
                do {
                    try collection.add(activity, id: course.id, properties: entry.properties)
                } catch let error as WriteError {
                    throw IndexExportError.cannotRender(id: course.id, reason: error.description)
                }
                entries.append(entry)
                progress(index + 1, courses.count)
            }
            try put(collection.featureCollection(), "courses.geojson")
            return entries
        }

        let list = Listing(scope: scope == .shared ? "shared" : "all", courses: entries)
        try put(try list.json(), "courses.json")
        try put(try list.script(), DiscoveryIndexPage.dataScript)
        try put(page, "index.html")

        var keep = Self.topLevelFiles
        for entry in entries {
            keep.insert(entry.preview)
            keep.insert(entry.geojson)
            if let gpx = entry.gpx { keep.insert(gpx) }
            if let fit = entry.fit { keep.insert(fit) }
        }
        let removed = try output.removeOwned(except: keep)
        return DiscoveryIndexSummary(
            folder: output.root.path, scope: list.scope, courses: entries.count, filesWritten: written,
            filesUnchanged: unchanged, filesRemoved: removed)
    }

    /// `courses.json`: the scope and the courses.
    struct Listing: Encodable {
        var scope: String
        var courses: [DiscoveryIndexEntry]

        func json() throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(self)
        }

        /// `courses.js`: `window.RUNNECT_INDEX = <courses.json>;`. JSON is a JavaScript
        /// expression; `<` is written `\u003c` all the same, so the text stays inert even if
        /// someone pastes it into a `<script>` element.
        func script() throws -> Data {
            var bytes = Data("window.\(DiscoveryIndexPage.dataGlobal) = ".utf8)
            for byte in try json() {
                if byte == UInt8(ascii: "<") {
                    bytes.append(contentsOf: Array("\\u003c".utf8))
                } else {
                    bytes.append(byte)
                }
            }
            bytes.append(contentsOf: Array(";\n".utf8))
            return bytes
        }
    }
}
