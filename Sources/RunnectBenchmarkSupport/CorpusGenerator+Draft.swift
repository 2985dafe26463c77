import Foundation
import RunnectKit
import RunnectStore

extension CorpusGenerator.Course {
    /// Points on the generated paths: a run of 10 km has as many as a watch recording a point
    /// every 5 s would have in about a tenth of it (the store's cost per point is the codec's).
    static let pathPoints = 120

    /// A draft of this course as a stored one: a loop of its distance near Seoul's centre, a
    /// point every few seconds at a 6 min/km pace, its owner, date, share flag and scrap count
    /// preset. `number` makes the content hash unique.
    func draft(number: Int) throws -> CourseDraft {
        let centre = Coordinate(
            latitude: 37.45 + Double(number % 97) * 0.002,
            longitude: 126.85 + Double(number % 89) * 0.003)
        let radius = distanceMeters / (2 * .pi)
        let count = Self.pathPoints
        // A circle on a local flat approximation: any plausible path will do (its length is
        // measured geodesically by the stats like any other), and generating it is not timed
        // work of the store, so it should cost next to nothing.
        let metresPerDegree = 111_320.0
        let latitudeRadius = radius / metresPerDegree
        let longitudeRadius = radius / (metresPerDegree * cos(centre.latitude * .pi / 180))
        let points = (0..<count).map { i -> TrackPoint in
            let angle = 2 * .pi * Double(i) / Double(count - 1)
            return TrackPoint(
                latitude: centre.latitude + latitudeRadius * cos(angle),
                longitude: centre.longitude + longitudeRadius * sin(angle),
                elevationMeters: 20 + 10 * sin(Double(i) / 7),
                time: createdAt.addingTimeInterval(Double(i) * distanceMeters * 0.36 / Double(count)))
        }
        let activity = Activity(format: .gpx, tracks: [Track(name: title, segments: [TrackSegment(points: points)])])
        let hash = String(repeating: "0", count: 48) + String(format: "%016llx", UInt64(number))
        var draft = try CourseDraft(
            activity: activity, contentHash: hash, title: title, description: description,
            departure: Departure(
                region: departure[0], city: departure[1], town: departure[2],
                detail: departure[3],
                name: departure.count > 4 ? departure[4] : nil))
        // The scrap count the scrap triggers would keep, without a row per scrap: the benchmark
        // times searches, and no benchmark user scrapped anything.
        draft.preset(owner: owner, createdAt: createdAt, isUploaded: isUploaded, scrapCount: scrapCount)
        return draft
    }
}
