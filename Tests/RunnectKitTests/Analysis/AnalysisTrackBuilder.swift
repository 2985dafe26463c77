import Foundation

@testable import RunnectKit

/// Synthetic tracks for the analysis tests: points placed at exact geodesic distances along one
/// geodesic, so every expected figure can be worked out by hand.
enum AnalysisTrackBuilder {
    /// Where the synthetic runs start (Seoul, Olympic Park).
    static let origin = Coordinate(latitude: 37.5200, longitude: 127.1215)
    /// The runs head due east.
    static let azimuth = 90.0
    /// 2024-04-07T06:00:00Z.
    static let startTime = Date(timeIntervalSince1970: 1_712_469_600)

    /// The point `meters` along the run's geodesic, `sideMeters` off it to the left (north).
    static func position(at meters: Double, sideMeters: Double = 0) -> Coordinate {
        let onPath = Geodesic.destination(from: origin, azimuthDegrees: azimuth, distanceMeters: meters)!
        guard sideMeters != 0 else { return onPath }
        return Geodesic.destination(from: onPath, azimuthDegrees: azimuth - 90, distanceMeters: sideMeters)!
    }

    /// A point `meters` along the run, `seconds` after ``startTime`` (untimed when `nil`).
    static func point(
        at meters: Double, seconds: Double?, elevation: Double? = nil,
        sideMeters: Double = 0
    ) -> TrackPoint {
        let position = position(at: meters, sideMeters: sideMeters)
        return TrackPoint(
            latitude: position.latitude, longitude: position.longitude,
            elevationMeters: elevation,
            time: seconds.map { startTime.addingTimeInterval($0) })
    }

    /// A steady run: points every `stepMeters` from `fromMeters` to `toMeters` (the last one
    /// exactly at `toMeters`), at `speed` m/s, the first at `startSeconds`.
    static func steadyRun(
        from fromMeters: Double = 0, to toMeters: Double, stepMeters: Double,
        speed: Double, startSeconds: Double = 0,
        elevation: ((Double) -> Double)? = nil
    ) -> [TrackPoint] {
        var distances: [Double] = []
        var step = 0.0
        while fromMeters + step * stepMeters < toMeters - 1e-9 {
            distances.append(fromMeters + step * stepMeters)
            step += 1
        }
        distances.append(toMeters)
        return distances.map { meters in
            point(
                at: meters, seconds: startSeconds + (meters - fromMeters) / speed,
                elevation: elevation.map { $0(meters) })
        }
    }

    /// Points at 1 Hz following `speeds` (one speed per second), starting at `fromMeters`.
    static func run(speeds: [Double], from fromMeters: Double = 0, startSeconds: Double = 0) -> [TrackPoint] {
        var meters = fromMeters
        var points = [point(at: meters, seconds: startSeconds)]
        for (second, speed) in speeds.enumerated() {
            meters += speed
            points.append(point(at: meters, seconds: startSeconds + Double(second + 1)))
        }
        return points
    }

    /// The fastest leg between consecutive points, m/s: what a naive maximum speed would report.
    static func naiveMaxSpeed(_ points: [TrackPoint]) -> Double {
        zip(points, points.dropFirst()).map { a, b in
            Geodesic.distance(from: a.coordinate, to: b.coordinate)! / b.time!.timeIntervalSince(a.time!)
        }.max()!
    }
}
