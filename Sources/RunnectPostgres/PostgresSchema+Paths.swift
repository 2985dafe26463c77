import Foundation
import PostgresNIO
import RunnectStore

extension PostgresSchema {
    /// Version 2: a course's `path` becomes a `MultiLineString`, one line per course segment
    /// (``PostgresTransaction/pathWKB(_:)``), as near-me search measures it on both backends:
    /// version 1 joined the segments into one `LineString`, which measured a leg from each
    /// segment's end to the next one's start, and left a one-point course without a path.
    static let pathSegmentStatements: [String] = [
        "ALTER TABLE course ALTER COLUMN path TYPE geography(MultiLineString, 4326) USING ST_Multi(path::geometry)::geography"
    ]

    /// How many courses ``rebuildPaths(_:)`` reads at a time.
    static let pathRebuildBatch = 500

    /// Writes every course's path again from its activity (only Swift decodes the activity
    /// bytes). Run by `runnect db init` as the tables' owner, whom row-level security lets see
    /// every course.
    @Sendable static func rebuildPaths(_ session: PostgresSession) async throws {
        try await forEachCourse(session) { id, geometry in
            let path = try PostgresTransaction.pathWKB(geometry)
            try await session.query("UPDATE course SET path = ST_GeogFromWKB(\(path)) WHERE id = \(id)")
        }
    }

    /// Calls `body` with every course's id and activity bytes, by id, ``pathRebuildBatch`` at a
    /// time: what a migration that only Swift can compute walks.
    static func forEachCourse(
        _ session: PostgresSession, _ body: (Int64, Data) async throws -> Void
    ) async throws {
        var after: Int64 = 0
        while true {
            let rows = try await session.query(
                "SELECT id, geometry FROM course WHERE id > \(after) ORDER BY id LIMIT \(pathRebuildBatch)")
            guard !rows.isEmpty else { return }
            for row in rows {
                let (id, geometry) = try row.decode((Int64, Data).self)
                try await body(id, geometry)
                after = id
            }
        }
    }
}
