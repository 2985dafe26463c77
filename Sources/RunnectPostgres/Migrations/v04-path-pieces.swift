import Foundation
import PostgresNIO
import RunnectKit
import RunnectStore

/// Version 4's backfill (`v04-path-pieces.sql` makes the table), and version 9's (which adds the
/// pieces' boxes): every course's path cut into its pieces by a copy of `CoursePieces` as it
/// was when version 9 shipped, so that a later change to the live cut never changes what these
/// migrations write. Pinned by its checksum (`PostgresMigrationChecksumTests`): never edit, add
/// a version.
enum PathPiecesMigration {
    /// Cuts every course's path into its pieces: with their boxes from version 9 on (`boxes`),
    /// without before (version 4's table has none).
    static func fillPieces(_ session: PostgresSession, boxes: Bool) async throws {
        try await PathSegmentsMigration.forEachCourse(session) { id, geometry in
            guard let activity = try? ActivityCodec.decode(geometry),
                let pieces = pieces(of: PathSegmentsMigration.path(of: activity))
            else { return }
            try await session.query(try insert(pieces, courseID: id, boxes: boxes))
        }
    }

    /// One statement inserting the course's pieces, each column bound as one array.
    static func insert(_ pieces: [Piece], courseID: Int64, boxes: Bool) throws -> PostgresQuery {
        var bindings = PostgresBindings()
        try bindings.append(PostgresArrayParameter(pieces.map { _ in courseID }))
        try bindings.append(PostgresArrayParameter(pieces.indices.map { Int32($0) }))
        try bindings.append(
            PostgresArrayParameter(
                pieces.map { piece in
                    var bytes: [UInt8] = []
                    PathSegmentsMigration.appendLineString(piece.points, to: &bytes)
                    return ByteBuffer(bytes: bytes)
                }))
        guard boxes else {
            return PostgresQuery(
                unsafeSQL: """
                    INSERT INTO course_piece (course_id, piece, path) SELECT r.course_id, r.piece, ST_GeogFromWKB(r.path)
                    FROM unnest($1::bigint[], $2::integer[], $3::bytea[]) AS r(course_id, piece, path)
                    """, binds: bindings)
        }
        try bindings.append(PostgresArrayParameter(pieces.map(\.minLongitude)))
        try bindings.append(PostgresArrayParameter(pieces.map(\.minLatitude)))
        try bindings.append(PostgresArrayParameter(pieces.map(\.maxLongitude)))
        try bindings.append(PostgresArrayParameter(pieces.map(\.maxLatitude)))
        return PostgresQuery(
            unsafeSQL: """
                INSERT INTO course_piece (course_id, piece, path, west, south, east, north)
                SELECT r.course_id, r.piece, ST_GeogFromWKB(r.path), r.west, r.south, r.east, r.north
                FROM unnest($1::bigint[], $2::integer[], $3::bytea[], $4::float8[], $5::float8[], $6::float8[],
                            $7::float8[]) AS r(course_id, piece, path, west, south, east, north)
                """, binds: bindings)
    }

    /// One run of legs: its box (degrees) and its points.
    struct Piece {
        var minLatitude: Double
        var maxLatitude: Double
        var minLongitude: Double
        var maxLongitude: Double
        var points: [Coordinate]
    }

    static let maximumLegs = 16
    static let maximumMeters = 1_000.0
    static let indexBits = 24
    static let polarLatitude = 80.0
    static let largestRadius = 6_399_593.626
    static let polarRadius = 6_356_752.314

    /// The pieces of `segments` (a path of positioned points); `nil` when there are none.
    static func pieces(of segments: [[Coordinate]]) -> [Piece]? {
        guard !segments.isEmpty else { return nil }
        let legs = segments.reduce(0) { $0 + $1.count - 1 }
        let budget = (1 << indexBits) - segments.count
        let legsPerPiece = max(maximumLegs, (legs + budget - 1) / max(1, budget))
        let meters = legsPerPiece > maximumLegs ? Double.infinity : maximumMeters
        var pieces: [Piece] = []
        for points in segments {
            guard points.count > 1 else {
                pieces.append(piece(points[...], longestLeg: 0))
                continue
            }
            var first = 0
            while first < points.count - 1 {
                var last = first
                var length = 0.0
                var longest = 0.0
                while last < points.count - 1 && last - first < legsPerPiece {
                    let leg = upperLength(points[last], points[last + 1])
                    if last > first && length + leg > meters { break }
                    length += leg
                    longest = max(longest, leg)
                    last += 1
                }
                pieces.append(piece(points[first...last], longestLeg: longest))
                first = last
            }
        }
        return pieces
    }

    static func upperLength(_ a: Coordinate, _ b: Coordinate) -> Double {
        let (phi1, phi2) = (a.latitude * .pi / 180, b.latitude * .pi / 180)
        let dPhi = phi2 - phi1
        let dLambda = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * largestRadius * asin(min(1, h.squareRoot()))
    }

    static func piece(_ points: ArraySlice<Coordinate>, longestLeg longest: Double) -> Piece {
        var south = Double.infinity
        var north = -Double.infinity
        var west = Double.infinity
        var east = -Double.infinity
        var crosses = false
        var previous: Double?
        for point in points {
            south = min(south, point.latitude)
            north = max(north, point.latitude)
            let longitude = normalized(point.longitude)
            west = min(west, longitude)
            east = max(east, longitude)
            if let previous, abs(longitude - previous) >= 180 { crosses = true }
            previous = longitude
        }
        let highest = min(89, max(abs(south), abs(north)) + 1)
        let bow = 2 * longest * longest * tan(highest * .pi / 180) / (8 * polarRadius * polarRadius) * 180 / .pi
        south -= bow
        north += bow
        if crosses || longest > 5_000_000 || north > polarLatitude || south < -polarLatitude {
            (west, east) = (-180, 180)
        }
        if longest > 5_000_000 {
            (south, north) = (-90, 90)
        }
        if north > polarLatitude { north = 90 }
        if south < -polarLatitude { south = -90 }
        return Piece(
            minLatitude: max(-90, south), maxLatitude: min(90, north), minLongitude: west, maxLongitude: east,
            points: Array(points))
    }

    static func normalized(_ longitude: Double) -> Double {
        if longitude >= -180 && longitude <= 180 { return longitude }
        var wrapped = longitude.truncatingRemainder(dividingBy: 360)
        if wrapped > 180 { wrapped -= 360 } else if wrapped < -180 { wrapped += 360 }
        return wrapped
    }
}
