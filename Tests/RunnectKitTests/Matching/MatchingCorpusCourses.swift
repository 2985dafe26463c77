import Foundation
import RunnectTestSupport

@testable import RunnectKit

/// Courses drawn from the shared corpus's Forerunner 945 run the way a person draws one on a map,
/// and figures of the run worked out here from its own points (GeographicLib legs, linear
/// interpolation of its timestamps), independently of the matcher.
enum MatchingCorpusCourses {
    /// The same run exported three ways.
    static let fr945Files = [
        "gpx/garmin_fr945_run_sloatsburg.gpx", "tcx/garmin_fr945_run_sloatsburg.tcx",
        "fit/garmin_fr945_run_sloatsburg.fit",
    ]

    static func read(_ file: String) throws -> Activity {
        try ActivityReader.read(path: SharedCorpus.url(file).path)
    }

    /// The run's points with a position, all segments joined.
    static func points(_ activity: Activity) -> [TrackPoint] {
        activity.courseSegments.joined().filter { $0.latitude.isFinite && $0.longitude.isFinite }
    }

    /// Distance along `points` from the first to each, metres, one geodesic per leg.
    static func cumulativeMeters(_ points: [TrackPoint]) -> [Double] {
        var result = [0.0]
        for (a, b) in zip(points, points.dropFirst()) {
            result.append(result.last! + Geodesic.distance(from: a.coordinate, to: b.coordinate)!)
        }
        return result
    }

    /// A tap every `spacing` metres of the run (the first point of the run past each mark), and
    /// its last point: chords that cut every corner the run turns between two taps.
    static func evenTaps(_ points: [TrackPoint], spacing: Double) -> [Coordinate] {
        let cumulative = cumulativeMeters(points)
        var taps = [points[0].coordinate]
        var next = spacing
        for index in points.indices.dropFirst() where cumulative[index] >= next {
            taps.append(points[index].coordinate)
            next = cumulative[index] + spacing
        }
        if taps.last != points.last!.coordinate { taps.append(points.last!.coordinate) }
        return taps
    }

    /// Taps where a person drawing the run on a map puts them: at its turns (Douglas–Peucker with
    /// a 10 m tolerance, which keeps the drawn line within 10 m of the run) and along straight
    /// stretches at least every `longestGap` metres of run.
    static func drawnTaps(_ points: [TrackPoint], longestGap: Double = 300) -> [Coordinate] {
        let cumulative = cumulativeMeters(points)
        var taps: [Coordinate] = []
        var previous: Int?
        for index in Simplifier.keptIndices(of: points, toleranceMeters: 10) {
            if let previous {
                var mark = cumulative[previous] + longestGap
                for between in (previous + 1)..<index where cumulative[between] >= mark {
                    taps.append(points[between].coordinate)
                    mark = cumulative[between] + longestGap
                }
            }
            taps.append(points[index].coordinate)
            previous = index
        }
        return taps
    }

    /// The place `meters` along the run, and its time interpolated by distance between the two
    /// points around it.
    static func place(_ points: [TrackPoint], at meters: Double) -> (coordinate: Coordinate, time: Date, next: Int) {
        let cumulative = cumulativeMeters(points)
        let leg = cumulative.lastIndex { $0 <= meters }!
        let a = points[leg]
        let b = points[leg + 1]
        let inverse = Geodesic.inverse(from: a.coordinate, to: b.coordinate)!
        let along = meters - cumulative[leg]
        let coordinate = Geodesic.destination(
            from: a.coordinate, azimuthDegrees: inverse.initialAzimuthDegrees, distanceMeters: along)!
        let time = a.time! + along / inverse.distanceMeters * b.time!.timeIntervalSince(a.time!)
        return (coordinate, time, leg + 1)
    }
}
