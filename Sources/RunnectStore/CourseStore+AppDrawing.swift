import Foundation
import RunnectKit

extension CourseStore {
    /// Stores a course the app drew (its taps) with the map image it uploaded, in one
    /// transaction: both or neither. Unlike ``draw(points:title:description:departure:)`` it is
    /// never taken for an earlier drawing of the same taps: the app posts each drawing once, and
    /// each is a course of its own.
    /// - Parameters:
    ///   - points: The taps, in order; 2 to ``maximumDrawnPoints``.
    ///   - title: 1–40 characters after trimming.
    ///   - departure: Where the course starts.
    ///   - image: The file name of the uploaded map image, if any.
    /// - Throws: ``StoreError/tooFewPoints(found:)``, ``StoreError/invalidCoordinate(index:_:)``,
    ///   ``StoreError/tooManyPoints(found:limit:)``, ``StoreError/invalidTitle(_:)``.
    public func drawFromApp(
        points: [Coordinate], title: String, departure: Departure?, image: String?
    ) async throws -> Course {
        guard points.count >= TappedPointsReader.minimumPoints else {
            throw StoreError.tooFewPoints(found: points.count)
        }
        guard points.count <= Self.maximumDrawnPoints else {
            throw StoreError.tooManyPoints(found: points.count, limit: Self.maximumDrawnPoints)
        }
        if let bad = points.firstIndex(where: { !$0.isValid }) {
            throw StoreError.invalidCoordinate(index: bad, points[bad])
        }
        let title = try Self.validTitle(title)
        let activity = Activity(format: .pointsText, routes: [Route(points: points.map(TrackPoint.init))])
        var salt = [UInt8](repeating: 0, count: 16)
        for index in salt.indices { salt[index] = UInt8.random(in: 0...255) }
        let hash = ContentHash.of(Array(ContentHash.canonicalText(points).utf8) + Array("\n".utf8) + salt)
        let draft = try CourseDraft(
            activity: activity, contentHash: hash, title: title, description: nil, departure: departure,
            fileName: nil)
        return try await write { tx in
            let course = try await tx.insertCourse(draft)
            if let image { try await tx.setCourseImage(course: course.id, image: image) }
            return course
        }
    }

    /// The most taps a drawn course takes from the app (it draws at most 25).
    public static let maximumDrawnPoints = 10_000
}
