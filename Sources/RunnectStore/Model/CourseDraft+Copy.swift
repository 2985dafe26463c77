import Foundation
import RunnectKit

extension CourseDraft {
    /// A draft of a course stored in another store, to be stored again as it is: its id, owner,
    /// dates, sharing, stats and geometry bytes kept; its search and spatial entries made anew
    /// from its text and path (no scraps yet: those are copied after, and counted as they come).
    /// - Throws: ``StoreError/corruptGeometry(id:reason:)`` when its geometry cannot be read;
    ///   ``StoreError/database(_:)`` for stats that cannot be read.
    package init(copying stored: StoredCourse) throws {
        let activity: Activity
        do {
            activity = try ActivityCodec.decode(stored.geometry)
        } catch let error as ActivityCodecError {
            throw StoreError.corruptGeometry(id: stored.id, reason: error.description)
        }
        let stats: StoredStats
        do {
            stats = try StoredStats.decode(Data(stored.statsJSON.utf8))
        } catch {
            throw StoreError.database("course #\(stored.id) has stats that cannot be read: \(error)")
        }
        var record = CourseTableRow(
            id: stored.id, owner: stored.owner, title: stored.title, description: stored.description,
            sourceFormat: stored.sourceFormat, contentHash: stored.contentHash, createdAt: stored.createdAt,
            isUploaded: stored.isUploaded, uploadedAt: stored.uploadedAt, scrapCount: 0,
            distanceMeters: stats.stats.distanceMeters, pointCount: stats.stats.points, stats: stats,
            geometry: stored.geometry)
        record.setDeparture(stored.departure)
        self.record = record
        statsJSON = stored.statsJSON
        departure = stored.departure
        searchEntry = SearchEntry(
            fields: SearchFields(
                title: stored.title, description: stored.description,
                departure: stored.departure?.searchableParts ?? []))
        bounds = CourseBounds(activity)
        path = CoursePieces.path(of: activity)
        pieces = CoursePieces(path: path)
        run = nil
        warnings = []
        isPreset = true
    }
}
