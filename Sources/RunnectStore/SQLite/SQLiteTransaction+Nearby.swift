import Foundation
import GRDB
import RunnectKit

/// Near-me search on SQLite: the `course_piece` R*Tree (schema version 4) proposes the pieces of
/// path whose box comes near the point (``CoursePieces``: runs of at most 16 legs or 1 km), with
/// the points stored beside each box, and each is measured exactly
/// (`Geodesic.distance(from:toPath:cutoff:)`) only when it could change the page. A course's
/// distance is the smallest of its pieces'. Whether a course is in the scope asked is read only
/// for a piece that would enter the page.
///
/// Why the points come with the boxes, and the scope last: in central Seoul at 1,000,000 courses
/// (`runnect-bench near 1000000`), 955 pieces' boxes hold the point itself (a lower bound of 0,
/// so each must be measured). Reading those 955 pieces' points one by one through the R*Tree's
/// id took longer than reading all 2,053 boxes of the first ring with their points in one query,
/// and their 955 courses' rows for the scope took about as long again (2026-11-25).
///
/// The search grows a ring: it asks the R*Tree for the pieces within ρ of the point
/// (``NearbyBox``), measures them in the order of their box's lower bound, and stops when the next
/// bound exceeds both ρ and the page's last distance so far; a piece is skipped when its bound
/// is no less than its course's distance so far, and a piece measured with a cutoff is only
/// measured again when a wider ring needs a larger one. Once the page is full within ρ (every
/// course within ρ has been seen, so the order is exact), or ρ has reached the radius asked for,
/// the page is known. In a city full of courses the first ring of a hundred metres fills it,
/// measuring a few hundred pieces; in the country the ring grows to the radius, over few boxes.
///
/// (A value of its own, apart from ``SQLiteTransaction``, for its tuning and counters.)
struct SQLiteNearbySearch {
    let db: Database
    let user: String

    /// The first ring's radius, metres, and how much each next ring grows.
    var firstRingMeters = 100.0
    var ringGrowth = 4.0

    /// Counters of the last search, for tuning: boxes the R*Tree proposed, pieces measured.
    private(set) var boxesRead = 0
    private(set) var piecesMeasured = 0

    /// Whether each course seen is in the scope searched.
    private var inScope: [Int64: Bool] = [:]

    init(db: Database, user: String) {
        self.db = db
        self.user = user
    }

    /// See ``StoreTransaction/nearbyCourses(to:withinMeters:scope:limit:offset:)``.
    mutating func nearbyCourses(
        to point: Coordinate, withinMeters radius: Double, scope: NearbyScope, limit: Int, offset: Int
    ) throws -> [CourseDistance] {
        guard limit > 0, radius >= 0 else { return [] }
        let wanted = max(0, offset) + limit
        /// Each course's smallest distance over the pieces measured exactly so far (its distance
        /// once no piece left could be closer); the pieces measured exactly, and for the others
        /// the cutoff they are known to be beyond.
        var best: [Int64: Double] = [:]
        var measured = Set<Int64>()
        var beyond: [Int64: Double] = [:]
        var ring = min(radius, firstRingMeters)
        while true {
            var candidates: [(id: Int64, bound: Double, path: Data?)] = []
            for box in try pieces(around: point, meters: ring) where !measured.contains(box.id) {
                let bound = NearbyBox.lowerBound(
                    from: point, latitudes: box.latitudes, longitudes: box.longitudes, upTo: ring, bulgeDegrees: 0)
                if bound <= ring { candidates.append((box.id, bound, box.path)) }
            }
            candidates.sort { $0.bound < $1.bound || ($0.bound == $1.bound && $0.id < $1.id) }
            // The page's last distance so far: past it, no course can enter the page.
            var found = best.values.filter { $0 <= ring }.sorted()
            func cutoff() -> Double { found.count >= wanted ? min(ring, found[wanted - 1]) : ring }
            for (piece, bound, path) in candidates {
                let limitMeters = cutoff()
                guard bound <= limitMeters else { break }
                let course = CoursePieces.courseID(ofPiece: piece)
                let current = best[course] ?? .infinity
                // No closer than the course's distance so far: it cannot change it.
                guard bound < current else { continue }
                let pieceCutoff = min(limitMeters, current)
                if let known = beyond[piece], known >= pieceCutoff { continue }
                if inScope[course] == false { continue }
                let meters = try distance(ofPiece: piece, path: path, from: point, cutoff: pieceCutoff)
                guard meters <= pieceCutoff else {
                    beyond[piece] = pieceCutoff
                    continue
                }
                guard try isInScope(course, scope) else { continue }
                measured.insert(piece)
                beyond[piece] = nil
                guard meters < current else { continue }
                if current <= ring { found.remove(at: found.partitioningIndex(where: { $0 >= current })) }
                best[course] = meters
                found.insert(meters, at: found.partitioningIndex(where: { $0 > meters }))
            }
            if found.count >= wanted || ring >= radius { break }
            ring = min(radius, ring * ringGrowth)
        }
        var page: [CourseDistance] = []
        for (id, meters) in best where meters <= radius { page.append(CourseDistance(id: id, meters: meters)) }
        page.sort { $0.meters < $1.meters || ($0.meters == $1.meters && $0.id < $1.id) }
        return Array(page.dropFirst(max(0, offset)).prefix(limit))
    }

    /// See ``StoreTransaction/courseDistances(ids:to:withinMeters:)``.
    mutating func courseDistances(ids: [Int64], to point: Coordinate, withinMeters radius: Double) throws -> [Int64:
        Double]
    {
        guard !ids.isEmpty else { return [:] }
        var result: [Int64: Double] = [:]
        let statement = try db.cachedStatement(
            sql: "SELECT min_lat, max_lat, min_lon, max_lon FROM course_bounds WHERE id = ?")
        for id in Set(ids) {
            guard let row = try Row.fetchOne(statement, arguments: [id]) else { continue }
            let south: Double = row[0]
            let north: Double = row[1]
            let west: Double = row[2]
            let east: Double = row[3]
            let bound = NearbyBox.lowerBound(
                from: point, latitudes: south...north, longitudes: west...east, upTo: radius)
            guard bound <= radius else { continue }
            let meters = try distance(of: id, from: point, cutoff: radius)
            if meters <= radius { result[id] = meters }
        }
        return result
    }

    /// A candidate of the pieces' R*Tree: a piece's id and box, and its points as
    /// stored beside it (``CoursePieces/decode(_:)``).
    struct Box {
        var id: Int64
        var latitudes: ClosedRange<Double>
        var longitudes: ClosedRange<Double>
        var path: Data?
    }

    /// The pieces of every course that meet the box around `point` of radius `meters`, with
    /// their points.
    mutating func pieces(around point: Coordinate, meters: Double) throws -> [Box] {
        let area = NearbyBox(around: point, meters: meters, bulgeDegrees: 0)
        let statement = try db.cachedStatement(
            sql: """
                SELECT id, min_lat, max_lat, min_lon, max_lon, path FROM course_piece
                WHERE max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?
                """)
        var boxes: [Box] = []
        var seen = Set<Int64>()
        for longitudes in area.longitudes {
            let rows = try Row.fetchCursor(
                statement,
                arguments: [area.minLatitude, area.maxLatitude, longitudes.lowerBound, longitudes.upperBound])
            while let row = try rows.next() {
                let id: Int64 = row[0]
                // (Only a box that meets both longitude ranges, across the antimeridian, comes twice.)
                guard area.longitudes.count == 1 || seen.insert(id).inserted else { continue }
                let south: Double = row[1]
                let north: Double = row[2]
                let west: Double = row[3]
                let east: Double = row[4]
                let path: Data? = row[5]
                boxes.append(Box(id: id, latitudes: south...north, longitudes: west...east, path: path))
            }
        }
        boxesRead += boxes.count
        return boxes
    }

    /// Whether course `id` is in `scope` (read once per search).
    private mutating func isInScope(_ id: Int64, _ scope: NearbyScope) throws -> Bool {
        if case .all = scope { return true }
        if let known = inScope[id] { return known }
        let (filter, arguments) = Self.scopeFilter(scope, user: user)
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM course WHERE course.id = ? AND \(filter)")
        let member = try Bool.fetchOne(statement, arguments: [id] + arguments) != nil
        inScope[id] = member
        return member
    }

    /// The SQL condition on `course` for `scope` (fixed text; the user travels as an argument).
    static func scopeFilter(_ scope: NearbyScope, user: String) -> (String, StatementArguments) {
        switch scope {
        case .all:
            return ("1", [])
        case .list(.shared):
            return ("course.is_uploaded", [])
        case .list(.mine(nil)):
            return ("course.owner = ?", [user])
        case .list(.mine(let uploaded?)):
            return ("course.owner = ? AND course.is_uploaded = ?", [user, uploaded])
        case .list(.scrapped):
            return ("course.id IN (SELECT scrap.course_id FROM scrap WHERE scrap.user = ?)", [user])
        case .list(.sharedBy(let owner)):
            return ("course.owner = ? AND course.is_uploaded", [owner])
        }
    }

    /// The exact distance from `point` to course `id`'s path when at most `cutoff`, else some
    /// value above it.
    private func distance(of id: Int64, from point: Coordinate, cutoff: Double) throws -> Double {
        let blob = try Data.fetchOne(
            db.cachedStatement(sql: "SELECT geometry FROM course WHERE id = ?"), arguments: [id])
        let activity = try CourseStore.decodeGeometry(blob, id: id)
        guard let meters = Geodesic.distance(from: point, toSegments: activity.courseSegments, cutoff: cutoff) else {
            throw StoreError.corruptGeometry(id: id, reason: "a point outside latitude -90…90")
        }
        return meters
    }

    /// The exact distance from `point` to piece `id`, whose stored points are `blob`, when at
    /// most `cutoff`, else some value above it.
    private mutating func distance(ofPiece id: Int64, path blob: Data?, from point: Coordinate, cutoff: Double) throws
        -> Double
    {
        piecesMeasured += 1
        let course = CoursePieces.courseID(ofPiece: id)
        guard let blob, let points = CoursePieces.decode(blob) else {
            throw StoreError.corruptGeometry(id: course, reason: "a near-me index piece that cannot be read")
        }
        guard let meters = Geodesic.distance(from: point, toPath: points, cutoff: cutoff) else {
            throw StoreError.corruptGeometry(id: course, reason: "a point outside latitude -90…90")
        }
        return meters
    }
}

extension Array where Element == Double {
    /// The index of the first element for which `belongs` holds, the array being partitioned by it.
    fileprivate func partitioningIndex(where belongs: (Double) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension SQLiteTransaction {
    // MARK: - Near-me search

    func nearbyCourses(
        to point: Coordinate, withinMeters: Double, scope: NearbyScope, limit: Int, offset: Int
    ) throws -> [CourseDistance] {
        var search = SQLiteNearbySearch(db: db, user: user)
        return try search.nearbyCourses(
            to: point, withinMeters: withinMeters, scope: scope, limit: limit, offset: offset)
    }

    func courseDistances(ids: [Int64], to point: Coordinate, withinMeters: Double) throws -> [Int64: Double] {
        var search = SQLiteNearbySearch(db: db, user: user)
        return try search.courseDistances(ids: ids, to: point, withinMeters: withinMeters)
    }
}
