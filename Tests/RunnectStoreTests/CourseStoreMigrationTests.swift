import Foundation
import GRDB
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Store: migration to schema version 3 (records, course bounds and starts)")
struct CourseStoreMigrationTests {
    static let fixture = PackageFolder.url("Tests/Fixtures/store-v1/courses.sqlite")

    @Test("a schema-1 file gains the record table and R*Tree entries per course, from each course's own path")
    func boundsOfStoredCourses() async throws {
        try await withTemporaryDirectory { folder in
            let copy = folder.appendingPathComponent("courses.sqlite")
            try FileManager.default.copyItem(at: Self.fixture, to: copy)
            let store = try await CourseStore(path: copy.path, user: "minji")
            await #expect(try store.schemaVersion == 6)
            try await store.pool.read { db in
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM record") == 0)
                #expect(try Int.fetchAll(db, sql: "SELECT record_count FROM course") == Array(repeating: 0, count: 8))
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT c.id, c.geometry, b.min_lat, b.max_lat, b.min_lon, b.max_lon,
                               s.start_lat, s.start_lon, s.finish_lat, s.finish_lon, s.path_m,
                               s.min_lat, s.max_lat, s.min_lon, s.max_lon
                        FROM course c JOIN course_bounds b ON b.id = c.id JOIN course_start s ON s.id = c.id
                        ORDER BY c.id
                        """)
                #expect(rows.count == 8)
                for row in rows {
                    let activity = try ActivityCodec.decode(row[1])
                    let points = activity.courseSegments.flatMap { $0 }
                    let latitudes = points.map(\.latitude)
                    let longitudes = points.map(\.longitude)
                    // 32-bit floats rounded outwards: the box holds every point, within two float steps (a step
                    // is 7.6e-6° at 127°, under a metre).
                    let box: [Double] = (2...5).map { row[$0] }
                    #expect(box[0] <= latitudes.min()! && latitudes.min()! - box[0] < 1.6e-5)
                    #expect(box[1] >= latitudes.max()! && box[1] - latitudes.max()! < 1.6e-5)
                    #expect(box[2] <= longitudes.min()! && longitudes.min()! - box[2] < 1.6e-5)
                    #expect(box[3] >= longitudes.max()! && box[3] - longitudes.max()! < 1.6e-5)
                    #expect(row[6] as Double == points.first!.latitude && row[7] as Double == points.first!.longitude)
                    #expect(row[8] as Double == points.last!.latitude && row[9] as Double == points.last!.longitude)
                    // The start's point box, in floats; the length a match is measured against.
                    let start: [Double] = (11...14).map { row[$0] }
                    #expect(start[0] <= points[0].latitude && start[1] >= points[0].latitude)
                    #expect(start[2] <= points[0].longitude && start[3] >= points[0].longitude)
                    #expect(start[1] - start[0] < 1.6e-5 && start[3] - start[2] < 1.6e-5)
                    let legs = zip(points, points.dropFirst()).map {
                        Geodesic.distance(from: $0.coordinate, to: $1.coordinate)!
                    }
                    #expect(abs(row[10] as Double - legs.reduce(0, +)) < 1e-6)
                }
            }
        }
    }

    @Test(
        "a course stored, then deleted, enters and leaves the R*Tree; one across the antimeridian takes every longitude"
    )
    func boundsKeptInStep() async throws {
        try await withTemporaryDatabase { path in
            let store = try await CourseStore(path: path, user: "a")
            let course = try await store.draw(
                points: [
                    Coordinate(latitude: -16.5, longitude: 179.9995),
                    Coordinate(latitude: -16.501, longitude: -179.9995),
                ], title: "date line")
            let box = try store.pool.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT min_lon, max_lon FROM course_bounds WHERE id = ?", arguments: [course.id])
            }
            #expect(box?[0] as Double? == -180 && box?[1] as Double? == 180)
            await #expect(try store.pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM course_start") } == 1)
            try await store.delete(ids: [course.id])
            await #expect(try store.pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM course_bounds") } == 0)
            await #expect(try store.pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM course_start") } == 0)
        }
    }
}
