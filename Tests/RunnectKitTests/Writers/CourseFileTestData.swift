import Foundation
import RunnectKit
import RunnectTestSupport

/// Small activities the writer tests build.
enum CourseFileTestData {
    static let start = Date(timeIntervalSince1970: 1_746_180_000)

    /// A run of `count` points 10 m apart going north-east from Seoul, one a second, with heart
    /// rate and cadence, in `segments` equal segments.
    static func run(count: Int = 60, segments: Int = 1, name: String? = "Test run") -> Activity {
        var points: [TrackPoint] = []
        for i in 0..<count {
            points.append(
                TrackPoint(
                    latitude: 37.51 + Double(i) * 0.00007, longitude: 127.06 + Double(i) * 0.00006,
                    elevationMeters: 20 + Double(i % 7),
                    time: start.addingTimeInterval(Double(i) + (i >= count / 2 ? 60 : 0)),
                    heartRateBPM: 140 + Double(i % 20) + 0.4, cadence: 85, temperatureCelsius: 18.5))
        }
        let size = count / segments
        let parts = (0..<segments).map { k in
            TrackSegment(points: Array(points[(k * size)..<(k == segments - 1 ? count : (k + 1) * size)]))
        }
        return Activity(
            format: .gpx11, metadata: ActivityMetadata(name: name), tracks: [Track(segments: parts)])
    }

    /// A course of the given positions (latitude, longitude), untimed.
    static func course(_ positions: [(Double, Double)], name: String? = "Test course") -> Activity {
        let points = positions.map { TrackPoint(latitude: $0.0, longitude: $0.1) }
        return Activity(
            format: .gpx11, metadata: ActivityMetadata(name: name),
            tracks: [Track(segments: [TrackSegment(points: points)])])
    }

    /// `count` points of a winding seeded path, about 0.2 m apart (a 200,000-point course is
    /// about 40 km), with elevations and 1 s times.
    static func long(count: Int, seed: UInt64 = 7) -> Activity {
        var random = SplitMix64(seed: seed)
        var lat = 37.51
        var lon = 127.06
        var heading = 0.0
        var points: [TrackPoint] = []
        points.reserveCapacity(count)
        for i in 0..<count {
            heading += (random.nextUnit() - 0.5) * 0.05
            lat += 0.2 * cos(heading) / 111_320
            lon += 0.2 * sin(heading) / 88_000
            points.append(
                TrackPoint(
                    latitude: lat, longitude: lon, elevationMeters: 30 + 5 * sin(Double(i) / 500),
                    time: start.addingTimeInterval(Double(i)), heartRateBPM: 150, cadence: 88))
        }
        return Activity(format: .gpx11, tracks: [Track(segments: [TrackSegment(points: points)])])
    }
}

/// A sink that keeps the bytes and the size of every chunk it was handed.
struct ChunkLog: ByteSink {
    var bytes = Data()
    var chunks: [Int] = []

    mutating func write(_ buffer: UnsafeRawBufferPointer) throws {
        bytes.append(contentsOf: buffer)
        chunks.append(buffer.count)
    }
}
