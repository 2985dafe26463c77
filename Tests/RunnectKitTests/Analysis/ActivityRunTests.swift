import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// One rule for "is this a run or a course" (``Activity/isRun``), which `runnect import` (a
/// record or a course) and `runnect export` (a run file or a course file) both follow. Before it,
/// import kept a record of any track whose timed points spanned time, and export wrote a run for
/// any track whose every point had a time: the two answered differently for the files below.
@Suite("Analysis: a run or a course")
struct ActivityRunTests {
    static let start = Date(timeIntervalSince1970: 1_712_469_600)  // 2024-04-07T06:00:00Z

    /// `count` points 10 m apart going east from Seoul, point `i` at `seconds(i)` after ``start``
    /// (untimed when `nil`).
    static func points(_ count: Int, seconds: (Int) -> Double? = { Double($0) * 3 }) -> [TrackPoint] {
        (0..<count).map { index in
            TrackPoint(
                latitude: 37.52, longitude: 127.12 + Double(index) * 0.000113,
                time: seconds(index).map { start.addingTimeInterval($0) })
        }
    }

    static func track(_ points: [TrackPoint]...) -> Activity {
        Activity(format: .gpx11, tracks: [Track(segments: points.map { TrackSegment(points: $0) })])
    }

    /// The rule `runnect export` had (`ExportInputs.kind(of:)`): track points, every one timed.
    static func oldExportSaysRun(_ activity: Activity) -> Bool {
        guard !activity.isMeasuredOnRoutes else { return false }
        let points = activity.courseSegments.joined()
        return !points.isEmpty && points.allSatisfy { $0.time != nil }
    }

    /// The rule `runnect import` had (`RunDraft`): a track, a first time, and elapsed time.
    static func oldImportSaysRun(_ activity: Activity) -> Bool {
        let stats = activity.stats()
        return !activity.tracks.isEmpty && stats.startTime != nil && stats.bounds != nil
            && stats.elapsedTimeSeconds ?? 0 > 0
    }

    /// The stats as a store keeps them: through their JSON.
    static func storedStats(_ activity: Activity) throws -> ActivityStats {
        try JSONDecoder().decode(ActivityStats.self, from: JSONEncoder().encode(activity.stats()))
    }

    /// Checks `activity` against `isRun`, by both of the rule's entry points, full and stored stats.
    static func expectRun(_ activity: Activity, _ isRun: Bool, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        #expect(activity.isRun == isRun, sourceLocation: sourceLocation)
        #expect(activity.isRun(measuredAs: activity.stats()) == isRun, sourceLocation: sourceLocation)
        #expect(activity.isRun(measuredAs: try storedStats(activity)) == isRun, sourceLocation: sourceLocation)
    }

    @Test("a track timed at every point, the times advancing, is a run, in one segment or several")
    func timedTrack() throws {
        let run = Self.track(Self.points(20))
        #expect(Self.oldExportSaysRun(run) && Self.oldImportSaysRun(run))
        try Self.expectRun(run, true)
        let paused = Self.track(Self.points(10), Self.points(10) { 600 + Double($0) * 3 })
        try Self.expectRun(paused, true)
    }

    @Test("a route, tapped points and an untimed track are courses, as both old rules said")
    func courses() throws {
        let route = Activity(format: .gpx11, routes: [Route(points: Self.points(20))])
        let taps = Activity(format: .pointsText, routes: [Route(points: Self.points(5) { _ in nil })])
        let untimed = Self.track(Self.points(20) { _ in nil })
        for activity in [route, taps, untimed, Activity(format: .gpx11)] {
            #expect(!Self.oldExportSaysRun(activity) && !Self.oldImportSaysRun(activity))
            try Self.expectRun(activity, false)
        }
    }

    @Test("the old rules disagreed on a partly timed track (import: run, export: course); it is a course")
    func partlyTimed() throws {
        // The last 5 of 20 points have no time: a run's file with points added by hand, say.
        let activity = Self.track(Self.points(20) { $0 < 15 ? Double($0) * 3 : nil })
        #expect(Self.oldImportSaysRun(activity) && !Self.oldExportSaysRun(activity))
        try Self.expectRun(activity, false)
        // A run file needs a time at every point: written as a run it would be refused.
        #expect(throws: WriteError.missingTimes(count: 5)) {
            try ExportPlan(
                activity: activity, options: ExportOptions(kind: .run), keepingUnpositioned: true, measuring: true)
        }
    }

    @Test("the old rules disagreed on a track whose every point has one time (import: course, export: run); a course")
    func timesStandStill() throws {
        // A planner stamping the moment it saved the file on every point.
        let activity = Self.track(Self.points(20) { _ in 0 })
        #expect(!Self.oldImportSaysRun(activity) && Self.oldExportSaysRun(activity))
        try Self.expectRun(activity, false)
        // Less than half a millisecond apart is no time either, as the stored stats round it.
        try Self.expectRun(Self.track(Self.points(20) { $0 == 19 ? 0.0004 : 0 }), false)
        try Self.expectRun(Self.track(Self.points(20) { $0 == 19 ? 0.001 : 0 }), true)
    }

    @Test("the old rules disagreed on an empty track beside a timed route (import: run, export: course); a course")
    func emptyTrackBesideTimedRoute() throws {
        // A GPX of a planned route, timed, that also holds an empty <trk>.
        let activity = Activity(
            format: .gpx11, tracks: [Track(segments: [TrackSegment()])], routes: [Route(points: Self.points(20))])
        #expect(activity.isMeasuredOnRoutes)
        #expect(Self.oldImportSaysRun(activity) && !Self.oldExportSaysRun(activity))
        try Self.expectRun(activity, false)
    }

    @Test("times going back or a stray stamp: a run when the forward timeline still advances, as the stats measure it")
    func timesGoingBack() throws {
        // One stray fix a year back in the middle of a run: left out, the run stands.
        let stray = Self.track(Self.points(20) { $0 == 10 ? -365 * 86_400 : Double($0) * 3 })
        try Self.expectRun(stray, true)
        // Two points, the second earlier: a clock set back, that leg no time, nothing advances.
        let back = Self.track(Self.points(2) { $0 == 0 ? 60 : 0 })
        #expect(back.stats().elapsedTimeSeconds == 0)
        try Self.expectRun(back, false)
    }

    @Test(
        "real files the old rules disagreed on are courses: 5 of 296 points timed, 513 of 871, every time the 1901 sentinel",
        .sharedCorpus)
    func corpusDisagreements() throws {
        let cases = [
            // GPSBabel conversions: the last 5 points timed (import kept a record of a 4.6 km walk
            // timed over seconds), and a handheld track 513 of 871 points timed.
            ("edge/gpx10_no_timestamps_cerknicko.gpx", true, false),
            ("edge/gpx10_korita_4trk_partial_times.gpx", true, false),
            // Every point stamped 1901-12-13T20:45:52Z: export wrote it as a run of no time.
            ("edge/gpx10_mojstrovka_bogus_1901_times.gpx", false, true),
        ]
        for (file, oldImport, oldExport) in cases {
            let activity = try ActivityReader.read(path: SharedCorpus.url(file).path)
            #expect(Self.oldImportSaysRun(activity) == oldImport, "\(file)")
            #expect(Self.oldExportSaysRun(activity) == oldExport, "\(file)")
            try Self.expectRun(activity, false)
        }
    }
}
