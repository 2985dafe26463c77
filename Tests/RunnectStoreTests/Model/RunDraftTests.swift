import Foundation
import RunnectKit
import Testing

@testable import RunnectStore

/// The boxes a run's candidate courses are looked up in: the whole run's, and its corridor's.
@Suite("Store: a run's search boxes")
struct RunDraftTests {
    /// A run of `count` fixes a second, 2.5 m apart, from Seoul, turning 0.03° a second (a half
    /// circle of 15 km in 6,000 fixes).
    static func run(count: Int) -> Activity {
        var here = Coordinate(latitude: 37.51, longitude: 127.06)
        var points: [TrackPoint] = []
        for second in 0..<count {
            points.append(
                TrackPoint(
                    latitude: here.latitude, longitude: here.longitude,
                    time: Date(timeIntervalSince1970: 1_700_000_000 + Double(second))))
            here = Geodesic.destination(
                from: here, azimuthDegrees: Double(second) * 0.03, distanceMeters: 2.5)!
        }
        return Activity(format: .gpx11, tracks: [Track(segments: [TrackSegment(points: points)])])
    }

    static func contains(_ box: Bounds, _ point: Coordinate) -> Bool {
        (box.minLatitude...box.maxLatitude).contains(point.latitude)
            && (box.minLongitude...box.maxLongitude).contains(point.longitude)
    }

    @Test("every point of the run, and every place 30 m beside its legs, lies in a box of the corridor")
    func corridorCoversTheRun() throws {
        let activity = Self.run(count: 6_000)
        let draft = try #require(RunDraft(activity, stats: activity.stats(), matching: RunMatching()))
        let points = activity.courseSegments.joined().map(\.coordinate)
        #expect(draft.corridor.count == (points.count - 1 + 127) / 128)
        for (a, b) in zip(points, points.dropFirst()) {
            let middle = Geodesic.destination(
                from: a, azimuthDegrees: Geodesic.inverse(from: a, to: b)!.initialAzimuthDegrees,
                distanceMeters: Geodesic.distance(from: a, to: b)! / 2)!
            for azimuth in stride(from: 0.0, to: 360, by: 45) {
                let beside = Geodesic.destination(from: middle, azimuthDegrees: azimuth, distanceMeters: 30)!
                #expect(draft.corridor.contains { Self.contains($0, beside) }, "\(beside)")
            }
        }
        // Far less ground than the whole run's box.
        func area(_ box: Bounds) -> Double {
            (box.maxLatitude - box.minLatitude) * (box.maxLongitude - box.minLongitude)
        }
        #expect(draft.corridor.map(area).reduce(0, +) < area(draft.searchBox) / 5)
    }

    @Test("a run of one point gives one box; a route without times gives no draft")
    func edges() {
        let single = Self.run(count: 1)
        #expect(RunDraft.corridor(of: single, widenedBy: 31).count == 1)
        let route = Activity(format: .gpx11, routes: [Route(points: [TrackPoint(latitude: 1, longitude: 2)])])
        #expect(RunDraft(route, stats: route.stats(), matching: RunMatching()) == nil)
    }

    @Test(
        "an import keeps a record by the rule export follows (Activity.isRun): not of a partly timed track, a timed route beside an empty track, or times standing still"
    )
    func sameRuleAsExport() throws {
        let run = Self.run(count: 20)
        var partly = run
        partly.tracks[0].segments[0].points[19].time = nil
        var still = run
        for index in still.tracks[0].segments[0].points.indices {
            still.tracks[0].segments[0].points[index].time = run.tracks[0].segments[0].points[0].time
        }
        let route = Activity(
            format: .gpx11, tracks: [Track(segments: [TrackSegment()])],
            routes: [Route(points: run.tracks[0].segments[0].points)])
        for (activity, isRun) in [(run, true), (partly, false), (still, false), (route, false)] {
            #expect(activity.isRun == isRun)
            #expect((RunDraft(activity, stats: activity.stats(), matching: RunMatching()) != nil) == isRun)
            // As an import drafts it: the stats through their stored JSON.
            let draft = try CourseDraft(activity: activity, contentHash: "00", matching: RunMatching())
            #expect(draft.isRun == isRun)
        }
    }
}
