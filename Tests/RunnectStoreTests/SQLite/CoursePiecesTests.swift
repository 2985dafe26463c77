import Foundation
import GRDB
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// The R*Tree of path pieces (`course_piece`, schema version 4) that near-me search reads on
/// SQLite: how a path is cut, and the index kept in step with the courses.
@Suite("Store: near-me path pieces")
struct CoursePiecesTests {
    /// An activity of several segments around `centre`: random walks with legs of 5 m to 2 km,
    /// a one-point segment, and a point without a position.
    static func activity(seed: UInt64, centre: Coordinate) -> Activity {
        var random = SplitMix64(seed: seed)
        func unit() -> Double { Double(random.next() >> 11) * 0x1p-53 }
        var segments: [TrackSegment] = []
        for s in 0..<3 {
            var point = Coordinate(
                latitude: centre.latitude + (unit() - 0.5) * 0.02, longitude: centre.longitude + (unit() - 0.5) * 0.02)
            var points = [TrackPoint(point)]
            for _ in 0..<(s == 1 ? 0 : 5 + Int(unit() * 40)) {
                let meters = unit() < 0.1 ? 300 + unit() * 1_700 : 5 + unit() * 120
                point = Geodesic.destination(from: point, azimuthDegrees: unit() * 360, distanceMeters: meters)!
                points.append(TrackPoint(point))
            }
            if s == 2 { points.insert(TrackPoint(latitude: .nan, longitude: 0), at: points.count / 2) }
            segments.append(TrackSegment(points: points))
        }
        return Activity(format: .gpx, tracks: [Track(name: "pieces \(seed)", segments: segments)])
    }

    @Test("pieces cover every leg once, one-point segments whole, never joining segments; boxes hold every point")
    func piecesCoverThePath() throws {
        for seed in UInt64(1)...40 {
            let centre = [
                Coordinate(latitude: 37.5, longitude: 127), Coordinate(latitude: -16.8, longitude: 179.995),
                Coordinate(latitude: 85, longitude: 20),
            ][Int(seed % 3)]
            let activity = Self.activity(seed: seed, centre: centre)
            let pieces = try #require(CoursePieces(activity)).pieces
            let segments = activity.courseSegments.map { $0.filter(CoursePieces.hasPosition).map(\.coordinate) }
            // Put back together: each segment is its pieces, end to end.
            var index = 0
            for segment in segments where !segment.isEmpty {
                var rebuilt: [Coordinate] = []
                while rebuilt.count < segment.count {
                    let piece = pieces[index]
                    index += 1
                    #expect(
                        piece.points.count == 1
                            ? segment.count == 1 : piece.points.count - 1 <= CoursePieces.maximumLegs)
                    if let last = rebuilt.last { #expect(piece.points.first == last) }
                    rebuilt += rebuilt.isEmpty ? piece.points : Array(piece.points.dropFirst())
                }
                #expect(rebuilt == segment)
            }
            #expect(index == pieces.count)
            for piece in pieces {
                let legs = zip(piece.points, piece.points.dropFirst()).map { Geodesic.distance(from: $0, to: $1)! }
                #expect(legs.count <= 1 || legs.reduce(0, +) <= CoursePieces.maximumMeters)
                for point in piece.points {
                    #expect(piece.minLatitude <= point.latitude && point.latitude <= piece.maxLatitude)
                    let longitude = CoursePieces.normalized(point.longitude)
                    #expect(piece.minLongitude <= longitude && longitude <= piece.maxLongitude)
                }
                if piece.maxLatitude > 80 { #expect(piece.maxLatitude == 90 && piece.minLongitude == -180) }
            }
            // A piece across the antimeridian takes every longitude.
            for piece in pieces
            where zip(piece.points, piece.points.dropFirst()).contains(where: {
                abs(CoursePieces.normalized($0.longitude) - CoursePieces.normalized($1.longitude)) > 180
            }) {
                #expect(piece.minLongitude == -180 && piece.maxLongitude == 180)
            }
        }
    }

    @Test("the points stored beside a piece come back bit for bit")
    func pointsRoundTrip() throws {
        let points = [
            Coordinate(latitude: 37.123456789012345, longitude: 127.00000000000001),
            Coordinate(latitude: -89.99999999, longitude: -180), Coordinate(latitude: 0.1 + 0.2, longitude: 180.88),
        ]
        #expect(CoursePieces.decode(CoursePieces.encode(points)) == points)
        #expect(CoursePieces.decode(Data([1, 2, 3])) == nil)
    }

    /// The pieces the store holds, by id, and those its courses' paths make.
    static func storedAndExpected(_ store: CourseStore) throws -> (stored: [Int64: Data], expected: [Int64: Data]) {
        try store.pool.read { db in
            let stored = try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, path FROM course_piece").map {
                    ($0[0] as Int64, $0[1] as Data)
                })
            var expected: [Int64: Data] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, geometry FROM course") {
                let pieces = try #require(CoursePieces(ActivityCodec.decode(row[1])))
                for (index, piece) in pieces.pieces.enumerated() {
                    expected[CoursePieces.pieceID(course: row[0], index: index)] = CoursePieces.encode(piece.points)
                }
            }
            return (stored, expected)
        }
    }

    /// Every course measured, those within `meters` by distance then id.
    static func bruteForce(_ store: CourseStore, _ point: Coordinate, meters: Double) async throws -> [CourseDistance] {
        var found: [CourseDistance] = []
        for course in try await store.list(.mine(uploaded: nil), page: Page(limit: 10_000)) {
            let segments = try await store.activity(id: course.id).courseSegments
            let d = try #require(Geodesic.distance(from: point, toSegments: segments))
            if d <= meters { found.append(CourseDistance(id: course.id, meters: d)) }
        }
        return found.sorted { $0.meters < $1.meters || ($0.meters == $1.meters && $0.id < $1.id) }
    }

    static let seoul = Coordinate(latitude: 37.5, longitude: 127)

    static func hash(_ seed: UInt64) -> String { String(repeating: "0", count: 48) + String(format: "%016llx", seed) }

    @Test("deleting courses takes their pieces, and only theirs; importing them again puts them back")
    func deleteAndReimport() async throws {
        try await withTemporaryStore { store, _ in
            var ids: [Int64] = []
            for seed in UInt64(1)...30 {
                let draft = try CourseDraft(
                    activity: Self.activity(seed: seed, centre: Self.seoul), contentHash: Self.hash(seed))
                await ids.append(try store.insert(draft).id)
            }
            var (stored, expected) = try Self.storedAndExpected(store)
            #expect(stored == expected && stored.count > 3 * ids.count)
            let gone = Set(ids.enumerated().filter { $0.offset % 3 == 1 }.map(\.element))
            try await store.delete(ids: Array(gone))
            (stored, expected) = try Self.storedAndExpected(store)
            #expect(stored == expected)
            #expect(!stored.keys.contains { gone.contains(CoursePieces.courseID(ofPiece: $0)) })
            #expect(
                Set(stored.keys.map(CoursePieces.courseID(ofPiece:))) == Set(ids).subtracting(gone))
            let found = try await store.nearby(
                Self.seoul, withinMeters: 3_000, scope: .mine(uploaded: nil), page: Page(limit: 100))
            #expect(found.map(\.course.id) == (try await Self.bruteForce(store, Self.seoul, meters: 3_000)).map(\.id))
            // Imported again, under new ids.
            for seed in UInt64(1)...30 where gone.contains(ids[Int(seed) - 1]) {
                let draft = try CourseDraft(
                    activity: Self.activity(seed: seed, centre: Self.seoul), contentHash: Self.hash(seed))
                _ = try await store.insert(draft)
            }
            (stored, expected) = try Self.storedAndExpected(store)
            #expect(stored == expected)
            #expect(Set(stored.keys.map(CoursePieces.courseID(ofPiece:))).count == 30)
            for meters in [200.0, 3_000] {
                let again = try await store.nearby(
                    Self.seoul, withinMeters: meters, scope: .mine(uploaded: nil), page: Page(limit: 100))
                let expected = try await Self.bruteForce(store, Self.seoul, meters: meters)
                #expect(again.map(\.course.id) == expected.map(\.id))
                #expect(zip(again, expected).allSatisfy { $0.distanceMeters == $1.meters })
            }
        }
    }

    @Test("a schema-3 store with courses migrates to 4: its pieces from each course's path, the same near-me pages")
    func migrationFromVersion3() async throws {
        try await withTemporaryDatabase { path in
            let store = try await CourseStore(path: path, user: "a")
            for seed in UInt64(1)...25 {
                let centre = seed % 5 == 0 ? Coordinate(latitude: -16.8, longitude: 179.995) : Self.seoul
                let draft = try CourseDraft(
                    activity: Self.activity(seed: seed, centre: centre), contentHash: Self.hash(seed))
                _ = try await store.insert(draft)
            }
            let points = [
                Self.seoul, Coordinate(latitude: 37.505, longitude: 127.004),
                Coordinate(latitude: -16.8, longitude: -179.99),
            ]
            func pages(_ store: CourseStore) async throws -> [[NearbyCourse]] {
                var pages: [[NearbyCourse]] = []
                for point in points {
                    for meters in [300.0, 2_000, 20_000] {
                        pages.append(
                            try await store.nearby(
                                point, withinMeters: meters, scope: .mine(uploaded: nil), page: Page(limit: 50)))
                    }
                }
                return pages
            }
            let before = try await pages(store)
            #expect(before.filter { !$0.isEmpty }.count >= 6)
            // Back to version 3, as a store written by the previous release (version 6's runners,
            // images and record marks gone too; version 5 rebuilds the record table anyway).
            try await store.pool.write { db in
                try db.execute(
                    sql: """
                        DROP TRIGGER runner_drew;
                        DROP TRIGGER runner_uploaded;
                        DROP TRIGGER runner_scrapped;
                        DROP TRIGGER runner_ran;
                        DROP VIEW runner_stamp_due;
                        DROP TABLE runner_stamp;
                        DROP TABLE runner_identity;
                        DROP TABLE stamp_threshold;
                        DROP TABLE runner;
                        DROP INDEX course_image;
                        DROP TRIGGER course_kept_for_records;
                        ALTER TABLE course DROP COLUMN image;
                        DROP TRIGGER course_piece_removed;
                        DROP TABLE course_piece;
                        DROP TABLE deleted_course;
                        DELETE FROM grdb_migrations
                        WHERE identifier IN ('v4-course-pieces', 'v5-deleted-courses', 'v6-runners');
                        PRAGMA user_version = 3;
                        """)
            }
            let reopened = try await CourseStore(path: path, user: "a")
            await #expect(try reopened.schemaVersion == 6)
            let (stored, expected) = try Self.storedAndExpected(reopened)
            #expect(stored == expected && !stored.isEmpty)
            await #expect(try pages(reopened) == before)
            // The trigger came with it.
            try await reopened.delete(ids: [1])
            #expect(try Self.storedAndExpected(reopened).stored.keys.allSatisfy { $0 >> 24 != 1 })
        }
    }

    @Test("the schema-1 fixture migrates through to 4 with every course's pieces, and near-me search finds them")
    func migrationFromVersion1() async throws {
        try await withTemporaryDirectory { folder in
            let copy = folder.appendingPathComponent("courses.sqlite")
            try FileManager.default.copyItem(at: CourseStoreMigrationTests.fixture, to: copy)
            let store = try await CourseStore(path: copy.path, user: "minji")
            await #expect(try store.schemaVersion == 6)
            let (stored, expected) = try Self.storedAndExpected(store)
            #expect(stored == expected)
            #expect(Set(stored.keys.map(CoursePieces.courseID(ofPiece:))).count == 8)
            let first = try await #require(try store.list(.mine(uploaded: nil), page: Page(limit: 1)).first)
            let point = try await #require(try store.activity(id: first.id).courseSegments.first?.first).coordinate
            let found = try await store.nearby(
                point, withinMeters: 50_000, scope: .mine(uploaded: nil), page: Page(limit: 20))
            let reference = try await Self.bruteForce(store, point, meters: 50_000)
            #expect(found.map(\.course.id) == reference.map(\.id) && !found.isEmpty)
        }
    }
}
