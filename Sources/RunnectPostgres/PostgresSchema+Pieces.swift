import Foundation
import PostgresNIO
import RunnectKit
import RunnectStore

extension PostgresSchema {
    /// Version 4: near-me search over *path pieces*, as SQLite's schema version 4 does: a table
    /// of each course's path cut into runs of at most 16 legs or 1 km (`CoursePieces`, the same
    /// cut), each a `geography(LineString)` with a GiST index.
    ///
    /// Why: with one box per course the GiST index's nearest-first walk rechecks every course
    /// whose box holds the point; at Jamsil on 100,000 courses its first row came after 37 ms of
    /// a 42 ms query. Pieces' boxes are small, so few hold the point.
    ///
    /// Runners may insert the pieces of their own courses and read none (the pieces of a private
    /// course tell where it runs); `runnect_nearby`, a function of the tables' owner, reads them.
    static let pieceStatements: [String] = [
        """
        CREATE TABLE course_piece (
            course_id bigint NOT NULL REFERENCES course ON DELETE CASCADE,
            piece integer NOT NULL,
            path geography(LineString, 4326) NOT NULL,
            PRIMARY KEY (course_id, piece)
        )
        """,
        "CREATE INDEX course_piece_path ON course_piece USING gist (path)",
        "ALTER TABLE course_piece ENABLE ROW LEVEL SECURITY",
        """
        CREATE POLICY course_piece_add ON course_piece FOR INSERT
            WITH CHECK (EXISTS (SELECT 1 FROM course c WHERE c.id = course_id AND c.owner = current_user))
        """,
        "GRANT INSERT ON course_piece TO \(runnerGroup)",
        "DROP FUNCTION runnect_nearby(float8, float8, float8, text, integer)",
        piecesNearbyFunction,
        "REVOKE ALL ON FUNCTION runnect_nearby(float8, float8, float8, text, integer) FROM PUBLIC",
        "GRANT EXECUTE ON FUNCTION runnect_nearby(float8, float8, float8, text, integer) TO \(runnerGroup)",
    ]

    /// The first `up_to` *pieces* of courses of `scope` within `radius` metres of the point, in
    /// the GiST index's nearest-first order (`<->`, on a sphere), each with its course, its
    /// distance on the ellipsoid (`ST_Distance`) and on the sphere, among the courses the caller
    /// may read (as version 3's function, which read whole paths). A course is as near as its
    /// nearest piece; the caller takes the smallest distance of each course's pieces read.
    static let piecesNearbyFunction = """
        CREATE FUNCTION runnect_nearby(lon float8, lat float8, radius float8, scope text, up_to integer)
        RETURNS TABLE (id bigint, meters float8, sphere float8)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
            SELECT p.course_id, ST_Distance(p.path, \(nearbyPoint)), p.path <-> \(nearbyPoint)
            FROM course_piece p JOIN course c ON c.id = p.course_id
            WHERE ST_DWithin(p.path, \(nearbyPoint), radius) AND \(nearbyScopeTest)
            ORDER BY p.path <-> \(nearbyPoint)
            LIMIT up_to
        $$
        """

    /// Cuts every course's path into its pieces (only Swift decodes the activity bytes): with
    /// their boxes from version 9 on (`boxes`), without before (version 4's table has none).
    static func fillPieces(_ session: PostgresSession, boxes: Bool) async throws {
        try await forEachCourse(session) { id, geometry in
            guard let activity = try? ActivityCodec.decode(geometry), let pieces = CoursePieces(activity) else {
                return
            }
            if let statement = try PostgresTransaction.pieceInsert([(id, pieces)], boxes: boxes) {
                try await session.query(statement)
            }
        }
    }
}

extension PostgresTransaction {
    /// Piece `piece` as well-known binary for a geography `LineString` (a piece of one point
    /// a line from it to itself).
    static func pieceWKB(_ piece: CoursePieces.Piece) -> Data {
        var wkb = WellKnownBinary(lines: 1, points: piece.points.count)
        wkb.appendLineString(piece.points)
        return wkb.data
    }

    /// Writes the pieces of `drafts`' courses.
    func insertPieces(_ courses: [(id: Int64, draft: CourseDraft)]) async throws {
        if let statement = try Self.pieceInsert(courses.compactMap { id, draft in draft.pieces.map { (id, $0) } }) {
            try await query(statement)
        }
    }

    /// The `INSERT` of the pieces of `courses`, one statement however many (``UnnestInsert``),
    /// each with its box (`west`, `south`, `east`, `north`, degrees: ``CoursePieces``' box, which
    /// holds its legs' bulge; schema version 9) unless `boxes` is false (version 4's table);
    /// `nil` without any.
    static func pieceInsert(_ courses: [(id: Int64, pieces: CoursePieces)], boxes: Bool = true) throws
        -> PostgresQuery?
    {
        var ids: [Int64] = []
        var indexes: [Int32] = []
        var paths: [ByteBuffer] = []
        var parts: [CoursePieces.Piece] = []
        for (id, pieces) in courses {
            for (index, piece) in pieces.pieces.enumerated() {
                ids.append(id)
                indexes.append(Int32(index))
                paths.append(ByteBuffer(bytes: pieceWKB(piece)))
                if boxes { parts.append(piece) }
            }
        }
        guard !ids.isEmpty else { return nil }
        var insert = UnnestInsert(into: "course_piece")
        try insert.column("course_id", "bigint", ids)
        try insert.column("piece", "integer", indexes)
        try insert.column("path", "bytea", paths) { "ST_GeogFromWKB(\($0))" }
        if boxes {
            try insert.column("west", "float8", parts.map(\.minLongitude))
            try insert.column("south", "float8", parts.map(\.minLatitude))
            try insert.column("east", "float8", parts.map(\.maxLongitude))
            try insert.column("north", "float8", parts.map(\.maxLatitude))
        }
        return insert.query()
    }
}
