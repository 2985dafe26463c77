import Foundation
import RunnectKit

extension MatchingBenchmark {
    /// The generated run and candidate courses, the same for a seed on every platform.
    struct Workload {
        var run: [TrackPoint]
        /// Candidate courses by kind, in ``Kind/allCases`` order.
        var courses: [(kind: Kind, paths: [[Coordinate]])]
    }

    /// SplitMix64: fixed arithmetic, so a seed gives the same workload everywhere.
    struct Random {
        var state: UInt64

        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) * 0x1p-53
        }

        mutating func int(_ bound: Int) -> Int { min(Int(unit() * Double(bound)), bound - 1) }
    }

    /// A run of `count` fixes a second at 2.5 m/s with ±1.5 m of GPS noise, winding through
    /// Seoul (its heading drifts, with a turn now and then), and `perKind` courses of each kind.
    static func workload(runPoints count: Int, perKind: Int, seed: UInt64) -> Workload {
        var random = Random(state: seed)
        let start = Date(timeIntervalSince1970: 1_746_000_000)
        var here = Coordinate(latitude: 37.51, longitude: 127.06)
        var heading = 0.0
        var run: [TrackPoint] = []
        run.reserveCapacity(count)
        for second in 0..<count {
            let noisy = Geodesic.destination(
                from: here, azimuthDegrees: random.unit() * 360, distanceMeters: random.unit() * 1.5)!
            run.append(
                TrackPoint(latitude: noisy.latitude, longitude: noisy.longitude, time: start + Double(second)))
            heading += (random.unit() - 0.5) * 4 + (random.int(400) == 0 ? 90 : 0)
            here = Geodesic.destination(from: here, azimuthDegrees: heading, distanceMeters: 2.5)!
        }
        let cumulative = cumulativeMeters(run)
        let bounds = Bounds(enclosing: [run])!

        func stretch(meters: Double) -> Range<Int> {
            let last = cumulative.firstIndex { $0 > cumulative.last! - meters } ?? 1
            let first = random.int(max(last, 1))
            let end = cumulative.firstIndex { $0 >= cumulative[first] + meters } ?? run.count - 1
            return first..<(end + 1)
        }
        func wander(from origin: Coordinate, legs: Int) -> [Coordinate] {
            var taps = [origin]
            var azimuth = random.unit() * 360
            for _ in 0..<legs {
                azimuth += (random.unit() - 0.5) * 120
                taps.append(Geodesic.destination(from: taps.last!, azimuthDegrees: azimuth, distanceMeters: 300)!)
            }
            return taps
        }

        var courses: [(Kind, [[Coordinate]])] = []
        for kind in Kind.allCases {
            var paths: [[Coordinate]] = []
            for _ in 0..<perKind {
                switch kind {
                case .drawn5k: paths.append(drawn(run, cumulative, stretch(meters: 5_000)))
                case .drawn10k: paths.append(drawn(run, cumulative, stretch(meters: 10_000)))
                case .recorded5k: paths.append(run[stretch(meters: 5_000)].map(\.coordinate))
                case .startElsewhere:
                    let origin = Coordinate(
                        latitude: bounds.minLatitude + random.unit() * (bounds.maxLatitude - bounds.minLatitude),
                        longitude: bounds.minLongitude + random.unit() * (bounds.maxLongitude - bounds.minLongitude))
                    paths.append(wander(from: origin, legs: 25))
                case .finishElsewhere:
                    paths.append(wander(from: run[random.int(run.count)].coordinate, legs: 25))
                case .shortcut:
                    // Start and finish on the run, the middle three fifths 150 m to one side.
                    var taps = drawn(run, cumulative, stretch(meters: 5_000))
                    let side = random.unit() < 0.5 ? -90.0 : 90
                    for index in (taps.count / 5)..<(taps.count * 4 / 5) {
                        taps[index] = Geodesic.destination(
                            from: taps[index], azimuthDegrees: side, distanceMeters: 150)!
                    }
                    paths.append(taps)
                case .backwards: paths.append(drawn(run, cumulative, stretch(meters: 5_000)).reversed())
                }
            }
            courses.append((kind, paths))
        }
        return Workload(run: run, courses: courses)
    }

    /// Taps as a person draws a stretch of the run: at its turns (Douglas–Peucker, 10 m) and at
    /// least every 300 m of run.
    private static func drawn(_ run: [TrackPoint], _ cumulative: [Double], _ range: Range<Int>) -> [Coordinate] {
        let points = Array(run[range])
        var taps: [Coordinate] = []
        var previous: Int?
        for index in Simplifier.keptIndices(of: points, toleranceMeters: 10) {
            if let previous {
                var mark = cumulative[range.lowerBound + previous] + 300
                for between in (previous + 1)..<index where cumulative[range.lowerBound + between] >= mark {
                    taps.append(points[between].coordinate)
                    mark = cumulative[range.lowerBound + between] + 300
                }
            }
            taps.append(points[index].coordinate)
            previous = index
        }
        return taps
    }

    private static func cumulativeMeters(_ points: [TrackPoint]) -> [Double] {
        var legs = [Double](repeating: 0, count: max(points.count - 1, 0))
        legs.withUnsafeMutableBufferPointer { legs in
            _ = points.withUnsafeBufferPointer {
                Geodesic.legLengths(of: $0, latitude: \.latitude, longitude: \.longitude, into: legs)
            }
        }
        var result = [0.0]
        result.reserveCapacity(points.count)
        for leg in legs { result.append(result.last! + leg) }
        return result
    }
}
