import Foundation
import GRDB
import RunnectKit

/// Version 4 (`v4-course-pieces.sql`) with its backfill: each stored course's path cut into the
/// pieces of `course_piece` by a copy of `CoursePieces` as it was when version 4 shipped, so that
/// a later change to the live cut never changes what this migration writes. Pinned by its
/// checksum (`MigrationChecksumTests`): never edit, add a version.
enum CoursePiecesMigration {
    static func migrate(_ db: Database, script: String) throws {
        try db.execute(sql: script)
        let rows = try Row.fetchCursor(db, sql: "SELECT id, geometry FROM course")
        while let row = try rows.next() {
            let blob: Data = row[1]
            guard let activity = try? ActivityCodec.decode(blob), let pieces = pieces(of: activity) else { continue }
            try insert(pieces, db, courseID: row[0])
        }
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
    static let maximumCourseID = Int64(1) << (63 - indexBits)
    static let polarLatitude = 80.0
    static let largestRadius = 6_399_593.626
    static let polarRadius = 6_356_752.314

    /// The pieces of an activity's course segments' positioned points; `nil` when there are none.
    static func pieces(of activity: Activity) -> [Piece]? {
        let segments = activity.courseSegments.map { segment in
            segment.filter(hasPosition).map(\.coordinate)
        }.filter { !$0.isEmpty }
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

    static func insert(_ pieces: [Piece], _ db: Database, courseID: Int64) throws {
        guard courseID >= 0, courseID < maximumCourseID else {
            throw StoreError.database("course id \(courseID) is too large for the near-me index")
        }
        let statement = try db.cachedStatement(sql: "INSERT INTO course_piece VALUES (?, ?, ?, ?, ?, ?)")
        for (index, piece) in pieces.enumerated() {
            try statement.execute(arguments: [
                courseID << indexBits + Int64(index), piece.minLatitude, piece.maxLatitude, piece.minLongitude,
                piece.maxLongitude, encode(piece.points),
            ])
        }
    }

    static func encode(_ points: [Coordinate]) -> Data {
        var data = Data(capacity: points.count * 16)
        for point in points {
            withUnsafeBytes(of: point.latitude.bitPattern.littleEndian) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: point.longitude.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    static func hasPosition(_ point: TrackPoint) -> Bool {
        point.latitude.isFinite && point.longitude.isFinite && abs(point.latitude) <= 90
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
