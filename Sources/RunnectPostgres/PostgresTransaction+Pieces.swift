import Foundation
import PostgresNIO
import RunnectKit
import RunnectStore

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
