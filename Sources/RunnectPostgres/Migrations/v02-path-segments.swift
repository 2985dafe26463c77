import Foundation
import PostgresNIO
import RunnectKit
import RunnectStore

/// Version 2's backfill (`v02-path-segments.sql` changes the column): every course's `path`
/// written again from its activity, one line per course segment, by a copy of the code that
/// wrote paths when version 2 shipped, so that a later change to the live code never changes
/// what this migration writes. Pinned by its checksum (`PostgresMigrationChecksumTests`): never
/// edit, add a version. Later frozen backfills may use this file's code, which never changes.
enum PathSegmentsMigration {
    /// Writes every course's path from its activity (only Swift decodes the activity bytes), as
    /// the tables' owner, whom row-level security lets see every course.
    @Sendable static func rebuildPaths(_ session: PostgresSession) async throws {
        try await forEachCourse(session) { id, geometry in
            let path = try pathWKB(geometry)
            try await session.query("UPDATE course SET path = ST_GeogFromWKB(\(path)) WHERE id = \(id)")
        }
    }

    /// Calls `body` with every course's id and activity bytes, by id, 500 at a time.
    static func forEachCourse(
        _ session: PostgresSession, _ body: (Int64, Data) async throws -> Void
    ) async throws {
        var after: Int64 = 0
        while true {
            let rows = try await session.query(
                "SELECT id, geometry FROM course WHERE id > \(after) ORDER BY id LIMIT \(500)")
            guard !rows.isEmpty else { return }
            for row in rows {
                let (id, geometry) = try row.decode((Int64, Data).self)
                try await body(id, geometry)
                after = id
            }
        }
    }

    /// The course segments' points that have a position, segments left with none left out.
    static func path(of activity: Activity) -> [[Coordinate]] {
        activity.courseSegments.map { segment in
            segment.filter(hasPosition).map(\.coordinate)
        }.filter { !$0.isEmpty }
    }

    static func hasPosition(_ point: TrackPoint) -> Bool {
        point.latitude.isFinite && point.longitude.isFinite && abs(point.latitude) <= 90
    }

    /// The path of an encoded activity as well-known binary for a geography `MultiLineString`;
    /// `nil` when no point has a position.
    static func pathWKB(_ geometry: Data) throws -> Data? {
        let lines: [[Coordinate]]
        do {
            lines = path(of: try ActivityCodec.decode(geometry))
        } catch {
            throw StoreError.cannotEncode("path: \(error)")
        }
        guard !lines.isEmpty else { return nil }
        var bytes: [UInt8] = [1]
        append(UInt32(5), to: &bytes)
        append(UInt32(lines.count), to: &bytes)
        for line in lines { appendLineString(line, to: &bytes) }
        return Data(bytes)
    }

    /// A little-endian `LineString` of `points` (one point: a line from it to itself), longitudes
    /// wrapped into −180…180.
    static func appendLineString(_ points: [Coordinate], to bytes: inout [UInt8]) {
        bytes.append(1)
        append(UInt32(2), to: &bytes)
        append(UInt32(max(points.count, 2)), to: &bytes)
        for point in points.count == 1 ? [points[0], points[0]] : points {
            append(remainder(point.longitude, 360).bitPattern, to: &bytes)
            append(point.latitude.bitPattern, to: &bytes)
        }
    }

    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
