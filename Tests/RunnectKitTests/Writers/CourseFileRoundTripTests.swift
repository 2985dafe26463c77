import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

/// Every corpus course and run written as GPX, TCX and FIT and read back through Runnect's own
/// readers: the same points (coordinates as the same `Double`s in GPX and TCX, within the
/// semicircle in FIT), the same times, heart rates and elevations, and the same distance.
///
/// GPX and TCX keep the segments, so the distance is the source's own (the sum within
/// segments), within 1 mm. A FIT file is one stream of records, which the FIT reader measures as
/// one sequence, so its distance is compared with the source's points measured as one sequence,
/// within 0.1 m: the difference is the semicircle rounding alone.
@Suite("Course files: round trips through Runnect's readers")
struct CourseFileRoundTripTests {
    /// Half a semicircle in degrees: how far a FIT position may lie from the one written.
    static let halfSemicircle = 90.0 / 2_147_483_648

    @Test("the sources cover the corpus and the samples", .sharedCorpus)
    func sourcesCoverTheCorpus() {
        // 23 corpus files of gpx/, tcx/, fit/, the readable edge files, 7 samples.
        #expect(CourseFileSource.all.count >= 35, "\(CourseFileSource.all.map(\.label))")
        #expect(CourseFileSource.all.filter(\.isRun).count >= 25)
    }

    @Test(
        "GPX, TCX and FIT of every course and run read back: points, times, distance",
        .sharedCorpus, arguments: CourseFileSource.all)
    func roundTrip(_ source: CourseFileSource) throws {
        let kinds: [ExportKind] = source.isRun ? [.course, .run] : [.course]
        for kind in kinds {
            for format in CourseFileFormat.allCases {
                let expected = source.expectedPoints(kind, keepsUnpositioned: format.keepsUnpositioned)
                let flat = Array(expected.joined())
                if format == .fit, kind == .run, let early = flat.lazy.compactMap(\.time).first(where: Self.outsideFIT)
                {
                    #expect(throws: WriteError.timeOutOfRange(early)) {
                        try format.data(source.activity, ExportOptions(kind: kind))
                    }
                    continue
                }
                let data = try format.data(source.activity, ExportOptions(kind: kind))
                let back = try format.read(data)
                let backSegments = back.courseSegments
                let backPoints = Array(backSegments.joined())
                let what = "\(source.label) as a \(kind) in \(format)"
                #expect(backPoints.count == flat.count, "\(what): point count")

                let distance = back.stats().distanceMeters
                if format == .fit {
                    let joined = Activity(format: .fit, tracks: [Track(segments: [TrackSegment(points: flat)])])
                    let expectedMeters = joined.stats().distanceMeters
                    #expect(abs(distance - expectedMeters) <= 0.1, "\(what): \(distance) vs \(expectedMeters) m")
                    #expect(backSegments.count == 1)
                } else {
                    let expectedMeters = source.activity.stats().distanceMeters
                    #expect(abs(distance - expectedMeters) <= 0.001, "\(what): \(distance) vs \(expectedMeters) m")
                    #expect(backSegments.map(\.count) == expected.map(\.count), "\(what): segments")
                }

                let mismatches = Self.mismatches(flat, backPoints, format: format, kind: kind)
                let differing = mismatches.count
                #expect(differing == 0, "\(what): points differ, first \(mismatches.prefix(3))")
                if kind == .course && format != .gpx {
                    try Self.expectPacedTimes(backPoints, format: format, what: what)
                }
            }
        }
    }

    /// The points whose position, elevation, time or heart rate did not come back.
    static func mismatches(_ written: [TrackPoint], _ read: [TrackPoint], format: CourseFileFormat, kind: ExportKind)
        -> [String]
    {
        var problems: [String] = []
        for (index, (a, b)) in zip(written, read).enumerated() {
            var ok = true
            if CourseFileSource.hasPosition(a) {
                let longitude = a.longitude == 180 ? -180 : a.longitude
                if format == .fit {
                    ok = ok && abs(b.latitude - a.latitude) <= halfSemicircle * 1.000001
                    ok = ok && abs(b.longitude - longitude) <= halfSemicircle * 1.000001
                } else {
                    ok = ok && b.latitude == a.latitude && b.longitude == longitude
                }
            } else {
                ok = ok && !CourseFileSource.hasPosition(b)
            }
            let elevation = a.elevationMeters.flatMap { $0.isFinite ? $0 : nil }
            if format == .fit {
                // 0.2 m steps, from −500 m.
                ok = ok && (elevation == nil) == (b.elevationMeters == nil)
                ok = ok && abs((b.elevationMeters ?? 0) - (elevation ?? 0)) <= 0.1 + 1e-9
            } else {
                ok = ok && b.elevationMeters == elevation
            }
            if kind == .run {
                let seconds = abs(b.time!.timeIntervalSince(a.time!))
                ok = ok && seconds <= (format == .fit ? 0.5 : 0.0005)
                // GPX and TCX take 1…255 bpm; FIT 0…254 (255 means none).
                let range: ClosedRange<Double> = format == .fit ? 0...254 : 1...255
                let bpm = a.heartRateBPM.map { $0.rounded() }.flatMap { range.contains($0) ? $0 : nil }
                ok = ok && b.heartRateBPM == bpm
            }
            if !ok { problems.append("#\(index): \(a) → \(b)") }
        }
        return problems
    }

    /// A course's times run at the default pace, 6:00 per km, from 2000-01-01T00:00:00Z along the
    /// path (hops between segments included).
    static func expectPacedTimes(_ points: [TrackPoint], format: CourseFileFormat, what: String) throws {
        let times = points.compactMap(\.time)
        #expect(times.count == points.count, "\(what): every point has a time")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(what): times never go back")
        let start = try #require(times.first)
        #expect(start == Date(timeIntervalSince1970: 946_684_800))
        let path = Geodesic.length(of: points.filter(CourseFileSource.hasPosition).map(\.coordinate))
        let seconds = try #require(times.last).timeIntervalSince(start)
        #expect(abs(seconds - path / 1000 * 360) <= (format == .fit ? 1 : 0.002), "\(what): \(seconds) s")
    }

    /// Before 1998-07-03 (or after 2126): not a FIT date.
    static func outsideFIT(_ date: Date) -> Bool {
        let fit = (date.timeIntervalSince1970 - 631_065_600).rounded()
        return fit < 268_435_456 || fit > 4_294_967_294
    }
}
