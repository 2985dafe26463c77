import Foundation

@testable import RunnectKit

/// Synthetic courses and runs for the matching tests: courses are taps joined by geodesic legs,
/// runs are points placed at exact geodesic distances along such a path at a steady speed, so
/// every expected time can be worked out by hand.
enum MatchingTrackBuilder {
    /// Seoul, Olympic Park.
    static let origin = Coordinate(latitude: 37.5200, longitude: 127.1215)
    /// 2024-04-07T06:00:00Z.
    static let startTime = Date(timeIntervalSince1970: 1_712_469_600)

    /// Taps from `start`, each leg given as (azimuth, metres) along a geodesic.
    static func course(from start: Coordinate = origin, legs: [(azimuth: Double, meters: Double)]) -> [Coordinate] {
        var taps = [start]
        for leg in legs {
            taps.append(
                Geodesic.destination(from: taps.last!, azimuthDegrees: leg.azimuth, distanceMeters: leg.meters)!)
        }
        return taps
    }

    /// A run along the geodesic legs of `path`: a point every `stepMeters` (and one at every
    /// tap), `speed` m/s, the first at `startSeconds` after ``startTime``, each point moved
    /// `sideMeters` to the left of its leg.
    static func run(
        along path: [Coordinate], stepMeters: Double = 3, speed: Double = 3, startSeconds: Double = 0,
        sideMeters: Double = 0
    ) -> [TrackPoint] {
        var points: [TrackPoint] = []
        var covered = 0.0
        for (a, b) in zip(path, path.dropFirst()) {
            let leg = Geodesic.inverse(from: a, to: b)!
            let count = max(Int((leg.distanceMeters / stepMeters).rounded(.up)), 1)
            for step in (points.isEmpty ? 0 : 1)...count {
                let along = leg.distanceMeters * Double(step) / Double(count)
                var position = Geodesic.destination(
                    from: a, azimuthDegrees: leg.initialAzimuthDegrees, distanceMeters: along)!
                if sideMeters != 0 {
                    let heading =
                        step == count
                        ? leg.finalAzimuthDegrees : Geodesic.inverse(from: position, to: b)!.initialAzimuthDegrees
                    position = Geodesic.destination(
                        from: position, azimuthDegrees: heading - 90, distanceMeters: sideMeters)!
                }
                points.append(
                    TrackPoint(
                        latitude: position.latitude, longitude: position.longitude,
                        time: startTime.addingTimeInterval(startSeconds + (covered + along) / speed)))
            }
            covered += leg.distanceMeters
        }
        return points
    }

    /// Seconds from ``startTime`` to a point's time.
    static func seconds(_ date: Date) -> Double { date.timeIntervalSince(startTime) }

    /// An activity of one track with one segment per array.
    static func activity(_ segments: [TrackPoint]...) -> Activity {
        Activity(format: .gpx11, tracks: [Track(segments: segments.map { TrackSegment(points: $0) })])
    }
}
