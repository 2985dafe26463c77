import Foundation
import GRDB
import RunnectKit

/// A course's entries in the R*Tree of path pieces (`course_piece`, schema version 4): its path
/// cut into runs of a few legs, each with its box and its points, so that near-me search reads
/// and measures only the pieces that pass near the point (see `SQLiteNearbySearch`).
///
/// Every leg of the course's segments is in exactly one piece (consecutive pieces of a segment
/// share their end point), a one-point segment is a piece of its own, and no piece joins two
/// segments: the smallest distance to the pieces is the distance to the course. A piece's box
/// holds its legs, not only its points: it is widened by how far its longest leg may bow
/// poleward, reaches the pole (with every longitude) when a leg may come near it, and takes
/// every longitude when a leg crosses the antimeridian. The R*Tree's 32-bit floats are rounded
/// outwards, so a box never shrinks; the points, beside the box, are exact.
package struct CoursePieces: Equatable, Sendable {
    /// One run of legs: its box (degrees) and its points.
    package struct Piece: Equatable, Sendable {
        package var minLatitude: Double
        package var maxLatitude: Double
        package var minLongitude: Double
        package var maxLongitude: Double
        /// The piece's points: its legs are between consecutive ones (one point: that point).
        package var points: [Coordinate]
    }

    package var pieces: [Piece]

    /// A piece ends after this many legs, or before the leg that would take it past
    /// ``maximumMeters`` (a piece has at least one leg).
    static let maximumLegs = 16
    static let maximumMeters = 1_000.0
    /// A piece's id is its course's id times 2^24 plus its index: a course has at most 2^24
    /// pieces (longer paths get longer pieces), and course ids stay under 2^39.
    static let indexBits = 24
    static let maximumCourseID = Int64(1) << (63 - indexBits)

    /// The id of piece `index` of course `courseID`.
    static func pieceID(course courseID: Int64, index: Int) -> Int64 {
        courseID << indexBits + Int64(index)
    }

    /// The course of piece `pieceID`.
    static func courseID(ofPiece pieceID: Int64) -> Int64 {
        pieceID >> indexBits
    }

    /// The pieces of an activity's course segments; `nil` when they hold no point with a position.
    package init?(_ activity: Activity) {
        self.init(path: Self.path(of: activity))
    }

    /// An activity's path as near-me search measures it: its course segments' points that have a
    /// position (``hasPosition(_:)``; the neighbours of one without are joined), segments left
    /// with none left out.
    package static func path(of activity: Activity) -> [[Coordinate]] {
        activity.courseSegments.map { segment in
            segment.filter(Self.hasPosition).map(\.coordinate)
        }.filter { !$0.isEmpty }
    }

    /// The pieces of `segments` (``path(of:)``); `nil` when there are none.
    package init?(path segments: [[Coordinate]]) {
        guard !segments.isEmpty else { return nil }
        // Legs per piece, raised for a path so long that its pieces would not fit in the ids.
        let legs = segments.reduce(0) { $0 + $1.count - 1 }
        let budget = (1 << Self.indexBits) - segments.count
        let legsPerPiece = max(Self.maximumLegs, (legs + budget - 1) / max(1, budget))
        let meters = legsPerPiece > Self.maximumLegs ? Double.infinity : Self.maximumMeters
        pieces = []
        for points in segments {
            guard points.count > 1 else {
                pieces.append(Self.piece(points[...], longestLeg: 0))
                continue
            }
            var first = 0
            while first < points.count - 1 {
                var last = first
                var length = 0.0
                var longest = 0.0
                while last < points.count - 1 && last - first < legsPerPiece {
                    let leg = Self.upperLength(points[last], points[last + 1])
                    if last > first && length + leg > meters { break }
                    length += leg
                    longest = max(longest, leg)
                    last += 1
                }
                pieces.append(Self.piece(points[first...last], longestLeg: longest))
                first = last
            }
        }
    }

    /// Adds the pieces of `courseID`.
    func insert(_ db: Database, courseID: Int64) throws {
        guard courseID >= 0, courseID < Self.maximumCourseID else {
            throw StoreError.database("course id \(courseID) is too large for the near-me index")
        }
        let statement = try db.cachedStatement(sql: "INSERT INTO course_piece VALUES (?, ?, ?, ?, ?, ?)")
        for (index, piece) in pieces.enumerated() {
            try statement.execute(arguments: [
                Self.pieceID(course: courseID, index: index), piece.minLatitude, piece.maxLatitude, piece.minLongitude,
                piece.maxLongitude, Self.encode(piece.points),
            ])
        }
    }

    // MARK: - Points

    /// The points as stored beside a piece's box: latitude and longitude of each, the bits of
    /// their doubles, little-endian.
    static func encode(_ points: [Coordinate]) -> Data {
        var data = Data(capacity: points.count * 16)
        for point in points {
            withUnsafeBytes(of: point.latitude.bitPattern.littleEndian) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: point.longitude.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// The points of ``encode(_:)``; `nil` when the length is not a whole number of points.
    static func decode(_ data: Data) -> [Coordinate]? {
        guard data.count % 16 == 0 else { return nil }
        return data.withUnsafeBytes { bytes in
            (0..<(bytes.count / 16)).map { i in
                Coordinate(
                    latitude: Double(
                        bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 16, as: UInt64.self))),
                    longitude: Double(
                        bitPattern: UInt64(
                            littleEndian: bytes.loadUnaligned(fromByteOffset: i * 16 + 8, as: UInt64.self))
                    ))
            }
        }
    }

    // MARK: - Boxes

    /// What RunnectKit measures: a finite longitude and a latitude within −90…90.
    static func hasPosition(_ point: TrackPoint) -> Bool {
        point.latitude.isFinite && point.longitude.isFinite && abs(point.latitude) <= 90
    }

    /// The largest radius of curvature of WGS84 (a²/b, at the poles) and its polar radius, metres.
    static let largestRadius = 6_399_593.626
    static let polarRadius = 6_356_752.314

    /// At least the geodesic length of the leg from `a` to `b`: the ellipsoid's metric is never
    /// larger than a sphere's of radius a²/b in the same latitude and longitude.
    static func upperLength(_ a: Coordinate, _ b: Coordinate) -> Double {
        let (phi1, phi2) = (a.latitude * .pi / 180, b.latitude * .pi / 180)
        let dPhi = phi2 - phi1
        let dLambda = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * largestRadius * asin(min(1, h.squareRoot()))
    }

    /// The piece of `points`, with its box; `longestLeg` is the largest ``upperLength(_:_:)`` of
    /// its legs, which the cutting measured already.
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
        // A geodesic leg of length s bows poleward of its ends by about s² tan φ / 8R (1.5 cm for
        // 1 km at Seoul's latitude): twice that, at a latitude a degree higher, is a bound. Its
        // longitude stays between its ends' (the shorter way), unless it crosses the antimeridian.
        let highest = min(89, max(abs(south), abs(north)) + 1)
        let bow = 2 * longest * longest * tan(highest * .pi / 180) / (8 * polarRadius * polarRadius) * 180 / .pi
        south -= bow
        north += bow
        if crosses || longest > 5_000_000 || north > NearbyBox.polarLatitude || south < -NearbyBox.polarLatitude {
            (west, east) = (-180, 180)
        }
        if longest > 5_000_000 {
            (south, north) = (-90, 90)
        }
        if north > NearbyBox.polarLatitude { north = 90 }
        if south < -NearbyBox.polarLatitude { south = -90 }
        return Piece(
            minLatitude: max(-90, south), maxLatitude: min(90, north), minLongitude: west, maxLongitude: east,
            points: Array(points))
    }

    /// A longitude brought into −180…180.
    static func normalized(_ longitude: Double) -> Double {
        if longitude >= -180 && longitude <= 180 { return longitude }
        var wrapped = longitude.truncatingRemainder(dividingBy: 360)
        if wrapped > 180 { wrapped -= 360 } else if wrapped < -180 { wrapped += 360 }
        return wrapped
    }
}
