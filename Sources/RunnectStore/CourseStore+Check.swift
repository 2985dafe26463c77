import Foundation
import RunnectKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CourseStore {
    /// `runnect db check`: the store's integrity check, safe to run beside a server that writes.
    ///
    /// - **SQLite**: `PRAGMA integrity_check` and `PRAGMA foreign_key_check`; `rtreecheck` of the
    ///   spatial indexes (`course_bounds`, `course_start`, `course_piece`) and no spatial entry
    ///   of a course that is not there; the search index's FTS5 `integrity-check` (its structure:
    ///   the one step that waits for writers, as a write does) and its grams against its
    ///   entries' text (each gram's count of courses, then the courses of a gram that differs);
    ///   one search entry for every course and none for another; each course's scrap and
    ///   record counters against its scraps and records; every record's course stored or kept
    ///   as deleted. Everything but the FTS5 step reads one snapshot.
    /// - **PostgreSQL** (as the tables' owner, who sees every row): one snapshot
    ///   (`REPEATABLE READ READ ONLY`) in which every search entry's tokens and initials are
    ///   those of its text and its copied columns (owner, sharing, counters, length, date) its
    ///   course's; one entry for every course; every course has path pieces; the counters and
    ///   the records' courses as on SQLite. Then `amcheck`'s `bt_index_check` of every B-tree
    ///   index of the store, where the extension is installed and the role may call it
    ///   (skipped, saying why, where not).
    /// - **Images** (`imagesFolder`): every image name a course or a deleted course holds is a
    ///   plain file name, and a regular file of that name is in the folder.
    ///
    /// A problem is a line naming the row or file (`course #12 has no search entry`); the report
    /// is ``StoreCheckReport/isClean`` when there is none.
    ///
    /// - Parameter imagesFolder: The server's images folder (`runnect serve --images`), or `nil`
    ///   to leave images out.
    /// - Returns: Each check that ran, with what it found.
    /// - Throws: `StoreError.database(_:)` when the database cannot be read at all;
    ///   on PostgreSQL, `PostgresAdministrationError.notTablesOwner(role:owner:)` for another role.
    /// - Complexity: Reads every row of the course, search, scrap and record tables once; the
    ///   search index's grams are recomputed from its entries' text (about as much work as
    ///   indexing the store's text anew).
    public func check(imagesFolder: String? = nil) async throws -> StoreCheckReport {
        let findings = try await backend.check()
        var checks = findings.checks
        if let imagesFolder {
            checks.append(Self.checkImages(findings.images, in: imagesFolder))
        }
        return StoreCheckReport(
            path: path, backend: findings.backend,
            schemaVersion: findings.schemaVersion, checks: checks)
    }

    /// Every image named is a regular file in `folder` (a link to one will do, as the server
    /// opens it): what a restored server needs to serve each course's image.
    static func checkImages(_ images: [StoredImage], in folder: String) -> StoreCheckReport.Check {
        var check = StoreCheckReport.Check(name: "images", examined: images.count)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            check.add("the images folder \(folder) is not there (or is not a folder); \(images.count) image(s) named")
            return check
        }
        for image in images {
            let course = image.isDeleted ? "deleted course #\(image.courseID)" : "course #\(image.courseID)"
            // A name is the server's own (32 hex digits and an extension); one that could lead
            // out of the folder is never looked up.
            let name = image.name
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
                check.add("\(course)'s image name \"\(ControlCharacters.escaped(name))\" is not a file name")
                continue
            }
            let file = (folder as NSString).appendingPathComponent(name)
            var info = stat()
            if stat(file, &info) != 0 {
                check.add("\(course)'s image \(name) is not in \(folder)")
            } else if (info.st_mode & S_IFMT) != S_IFREG {
                check.add("\(course)'s image \(file) is not a regular file")
            }
        }
        return check
    }
}
