import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// A course needs a path (issue 34, item 9): fewer than 2 distinct positions is refused, by
/// import and draw alike, before anything is written.
@Suite("Store: a course needs 2 distinct positions")
struct CourseStoreDistinctPositionsTests {
    @Test("PostgreSQL: the cases of this suite's parameterised tests", .postgresCases)
    func postgresCases() {
        #expect(StoreKind.available.contains(.postgres))
    }

    /// A track of `count` timed points, all at `coordinate`, 1 s apart.
    static func still(_ count: Int, at coordinate: Coordinate = Coordinate(latitude: 37.52, longitude: 127.12))
        -> Activity
    {
        let start = Date(timeIntervalSince1970: 1_712_469_600)
        let points = (0..<count).map { index in
            TrackPoint(
                latitude: coordinate.latitude, longitude: coordinate.longitude,
                time: start.addingTimeInterval(Double(index)))
        }
        return Activity(format: .gpx11, tracks: [Track(segments: [TrackSegment(points: points)])])
    }

    @Test(
        "a 1-point track, 5,000 fixes of one place and two taps on one spot are refused", arguments: StoreKind.available
    )
    func refused(kind: StoreKind) async throws {
        try await withStores(kind) { fixture throws in
            let store = fixture.stores[0]
            await #expect(throws: StoreError.tooFewPositions(distinct: 1, points: 1)) {
                try await store.importActivity(
                    Self.still(1), contentHash: "a", title: nil, description: nil, departure: nil, fileName: "one")
            }
            // As a timed run it would have been a record of a 0 m course.
            await #expect(throws: StoreError.tooFewPositions(distinct: 1, points: 5_000)) {
                _ = try await store.store([
                    try await CourseDraft(activity: Self.still(5_000), contentHash: "b", matching: RunMatching())
                ])
            }
            let spot = Coordinate(latitude: 37.52, longitude: 127.12)
            await #expect(throws: StoreError.tooFewPositions(distinct: 1, points: 2)) {
                try await store.draw(points: [spot, spot], title: "here")
            }
            #expect(try fixture.rowCount("course") == 0)
            #expect(try fixture.rowCount("record") == 0)
            // Two positions that differ at all make a course.
            let apart = Coordinate(latitude: 37.52, longitude: 127.12001)
            await #expect(try store.draw(points: [spot, spot, apart], title: "here").stats.points == 3)
        }
    }

    @Test("in a bulk import the file fails and the others are stored")
    func bulk() async throws {
        try await withTemporaryDirectory { folder in
            var paths = try BulkImporterTests.writeRuns(3, in: folder)
            let one = folder.appendingPathComponent("one.gpx")
            try Data(
                "<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"37.5\" lon=\"127\"/></trkseg></trk></gpx>".utf8
            ).write(to: one)
            paths.insert(one.path, at: 1)
            try await withTemporaryStore { store, _ in
                var seen: [ImportOutcome] = []
                let summary = try await BulkImporter(store: store, jobs: 2).run(paths.map { ImportItem(path: $0) }) {
                    seen += $0
                }
                #expect(summary.imported == 3 && summary.failed == 1)
                guard case .failed(_, let error) = seen[1] else {
                    Issue.record("\(seen[1])")
                    return
                }
                #expect(error as? StoreError == .tooFewPositions(distinct: 1, points: 1))
                #expect(
                    "\(error)"
                        == "only 1 distinct position in 1 point; a course needs at least 2 distinct positions to have a path"
                )
            }
        }
    }
}
