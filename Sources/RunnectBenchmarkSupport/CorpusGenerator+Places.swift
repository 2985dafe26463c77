import Foundation
import RunnectKit
import RunnectStore

/// Where the near-me benchmark's courses lie: a service's courses cluster in cities, most of
/// them in Seoul, with lengths runners draw (mostly 2–10 km), as loops and as point-to-point
/// lines. (The search benchmark's corpus puts every course in one 21 × 24 km square with lengths
/// up to 42 km: fine for text, but a million of them there would be 2,000 courses per km².)
enum CoursePlacement {
    struct Area {
        var name: String
        var centre: Coordinate
        /// Half the side of the square the courses start in, metres.
        var halfSideMeters: Double
        /// Share of the corpus, out of the total of all areas.
        var weight: Double
    }

    /// Seoul holds 30 % of the courses (in 30 × 30 km), nine more Korean cities 30 % (in
    /// 20 × 20 km each), thirty cities elsewhere 35 % (30 × 30 km), and 5 % are anywhere between
    /// 60° S and 70° N.
    static let areas: [Area] = {
        var areas = [
            Area(
                name: "Seoul", centre: Coordinate(latitude: 37.55, longitude: 126.99), halfSideMeters: 15_000,
                weight: 30)
        ]
        let korea: [(String, Double, Double)] = [
            ("Busan", 35.16, 129.06), ("Incheon", 37.46, 126.71), ("Daegu", 35.87, 128.60), ("Daejeon", 36.35, 127.38),
            ("Gwangju", 35.16, 126.85), ("Ulsan", 35.54, 129.31), ("Suwon", 37.26, 127.03), ("Jeju", 33.50, 126.53),
            ("Changwon", 35.23, 128.68),
        ]
        areas += korea.map {
            Area(
                name: $0.0, centre: Coordinate(latitude: $0.1, longitude: $0.2), halfSideMeters: 10_000,
                weight: 30.0 / 9)
        }
        let world: [(String, Double, Double)] = [
            ("Tokyo", 35.68, 139.69), ("Osaka", 34.69, 135.50), ("Beijing", 39.90, 116.41), ("Shanghai", 31.23, 121.47),
            ("Hong Kong", 22.32, 114.17), ("Taipei", 25.03, 121.57), ("Singapore", 1.35, 103.82),
            ("Bangkok", 13.76, 100.50),
            ("Sydney", -33.87, 151.21), ("Melbourne", -37.81, 144.96), ("Auckland", -36.85, 174.76),
            ("Suva", -18.14, 178.44), ("Honolulu", 21.31, -157.86), ("San Francisco", 37.77, -122.42),
            ("Los Angeles", 34.05, -118.24), ("Vancouver", 49.28, -123.12), ("New York", 40.71, -74.01),
            ("Chicago", 41.88, -87.63), ("Toronto", 43.65, -79.38), ("Mexico City", 19.43, -99.13),
            ("São Paulo", -23.55, -46.63), ("Buenos Aires", -34.60, -58.38), ("London", 51.51, -0.13),
            ("Paris", 48.86, 2.35), ("Berlin", 52.52, 13.40), ("Madrid", 40.42, -3.70), ("Rome", 41.90, 12.50),
            ("Stockholm", 59.33, 18.07), ("Cape Town", -33.92, 18.42), ("Dubai", 25.20, 55.27),
        ]
        areas += world.map {
            Area(
                name: $0.0, centre: Coordinate(latitude: $0.1, longitude: $0.2), halfSideMeters: 15_000,
                weight: 35.0 / 30)
        }
        return areas
    }()

    /// SplitMix64 of `number` and `salt`: the same course from the same number, whatever order
    /// the drafts are made in.
    static func unit(_ number: Int, _ salt: UInt64) -> Double {
        var z = UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15 &+ salt &* 0xD1B5_4A32_D192_ED03
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) * 0x1p-53
    }

    /// The path of course `number`: `pointCount` points on a loop (60 %) or a gently curving line
    /// (40 %) of 2–10 km (70 %), 10–21 km (25 %) or 21–42 km (5 %).
    static func path(number: Int, pointCount: Int) -> [Coordinate] {
        let total = areas.reduce(0) { $0 + $1.weight }
        var pick = unit(number, 1) * (total + total * 5 / 95)
        var start: Coordinate
        let chosen = areas.first { area in
            pick -= area.weight
            return pick < 0
        }
        if let area = chosen {
            let north = (2 * unit(number, 2) - 1) * area.halfSideMeters
            let east = (2 * unit(number, 3) - 1) * area.halfSideMeters
            start = Coordinate(
                latitude: area.centre.latitude + north / 111_320,
                longitude: area.centre.longitude + east / (111_320 * cos(area.centre.latitude * .pi / 180)))
        } else {
            start = Coordinate(latitude: -60 + 130 * unit(number, 2), longitude: -180 + 360 * unit(number, 3))
        }
        let lengthClass = unit(number, 4)
        let length =
            lengthClass < 0.7
            ? 2_000 + 8_000 * unit(number, 5)
            : lengthClass < 0.95 ? 10_000 + 11_000 * unit(number, 5) : 21_000 + 21_000 * unit(number, 5)
        let heading = 360 * unit(number, 6)
        let isLoop = unit(number, 7) < 0.6
        let metresPerDegree = 111_320.0
        let cosLatitude = cos(start.latitude * .pi / 180)
        return (0..<pointCount).map { i in
            let f = Double(i) / Double(pointCount - 1)
            let (north, east): (Double, Double)
            if isLoop {
                // A circle through the start, facing `heading`.
                let radius = length / (2 * .pi)
                let angle = 2 * .pi * f + heading * .pi / 180
                (north, east) = (
                    radius * (cos(angle) - cos(heading * .pi / 180)), radius * (sin(angle) - sin(heading * .pi / 180))
                )
            } else {
                let bearing = (heading + 25 * sin(3 * .pi * f)) * .pi / 180
                (north, east) = (length * f * cos(bearing), length * f * sin(bearing))
            }
            var longitude = start.longitude + east / (metresPerDegree * cosLatitude)
            if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            return Coordinate(
                latitude: max(-89.9, min(89.9, start.latitude + north / metresPerDegree)), longitude: longitude)
        }
    }
}

extension CorpusGenerator.Course {
    /// A draft of this course placed by ``CoursePlacement`` (text, owner and flags as
    /// ``draft(number:)`` makes them).
    func placedDraft(number: Int) throws -> CourseDraft {
        let path = CoursePlacement.path(number: number, pointCount: Self.pathPoints)
        let points = path.enumerated().map { i, point in
            TrackPoint(
                latitude: point.latitude, longitude: point.longitude, elevationMeters: 20 + 10 * sin(Double(i) / 7),
                time: createdAt.addingTimeInterval(Double(i) * 20))
        }
        let activity = Activity(format: .gpx, tracks: [Track(name: title, segments: [TrackSegment(points: points)])])
        let hash = String(repeating: "1", count: 48) + String(format: "%016llx", UInt64(number))
        var draft = try CourseDraft(
            activity: activity, contentHash: hash, title: title, description: description,
            departure: Departure(
                region: departure[0], city: departure[1], town: departure[2], detail: departure[3],
                name: departure.count > 4 ? departure[4] : nil))
        draft.preset(owner: owner, createdAt: createdAt, isUploaded: isUploaded, scrapCount: scrapCount)
        return draft
    }
}

extension CorpusGenerator {
    /// Stores `count` courses placed by ``CoursePlacement``, as ``fill(_:count:batch:jobs:seed:)``
    /// stores the search benchmark's.
    static func fillPlaced(_ store: CourseStore, count: Int, batch: Int, jobs: Int, seed: UInt64) async throws {
        var generator = CorpusGenerator(seed: seed)
        let batch = max(1, batch)
        let batches = stride(from: 0, to: count, by: batch).map { start in
            (start..<min(start + batch, count)).map { ($0, generator.next()) }
        }
        try await DraftPipeline.run(batches, jobs: jobs) { number, course in
            Result { try course.placedDraft(number: number) }
        } store: { _, drafted in
            for result in try await store.insert(drafted.map { try $0.get() }) { _ = try result.get() }
        }
    }
}
