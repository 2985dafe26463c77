import Foundation
import GRDB
import RunnectKit

extension CourseStore {
    // MARK: - Adding courses

    /// Reads, hashes and imports one file in a single pass over its bytes.
    ///
    /// The format is detected from the content (see ``RunnectKit/ActivityReader``). The content
    /// hash is the SHA-256 of every byte of the file.
    ///
    /// - Parameters:
    ///   - path: The file; `-` reads standard input.
    ///   - title: 1–40 characters; by default the file's own name (metadata, first track or route),
    ///     else the file name without its extension, cut to 40 characters.
    ///   - description: By default the file's own description.
    ///   - departure: Where the course starts.
    /// - Returns: The stored course.
    /// - Throws: ``RunnectKit/ReadError`` when the file cannot be opened or read as a course;
    ///   ``StoreError/duplicate(existingID:)`` when the current user imported the same bytes
    ///   before; other ``StoreError``s as for
    ///   ``importActivity(_:contentHash:title:description:departure:fileName:)``.
    public func importFile(path: String, title: String? = nil, description: String? = nil,
                           departure: Departure? = nil) throws -> Course {
        try importSource(CourseSource(path: path), title: title, description: description, departure: departure)
    }

    /// Imports a file read beforehand by ``CourseSource/init(path:)``: files can be read on
    /// several threads while one thread writes.
    /// - Throws: As ``importActivity(_:contentHash:title:description:departure:fileName:)``.
    public func importSource(_ source: CourseSource, title: String? = nil, description: String? = nil,
                             departure: Departure? = nil) throws -> Course {
        try importActivity(source.activity, contentHash: source.contentHash, title: title, description: description,
                           departure: departure, fileName: source.fileName)
    }

    /// Stores an activity read from a file, with its full geometry, as a private course of the
    /// current user.
    ///
    /// Atomic: the course row and its search entry are written in one transaction, or nothing is.
    ///
    /// - Parameters:
    ///   - activity: What was read; every point is kept (see ``activity(id:)``).
    ///   - contentHash: Lowercase hex SHA-256 of the source bytes; the same owner cannot store the
    ///     same hash twice.
    ///   - title: 1–40 characters after trimming; `nil` takes the activity's own name, else
    ///     `fileName`, cut to 40 characters (else "Untitled course").
    ///   - description: Blank means none; `nil` takes the activity's own description.
    ///   - departure: Where the course starts.
    ///   - fileName: The source's file name without extension, for the default title.
    /// - Returns: The stored course.
    /// - Throws: ``StoreError/duplicate(existingID:)``, ``StoreError/invalidTitle(_:)``,
    ///   ``StoreError/emptyActivity`` (no track or route point), ``StoreError/cannotEncode(_:)``.
    public func importActivity(_ activity: Activity, contentHash: String, title: String?, description: String?,
                               departure: Departure?, fileName: String?) throws -> Course {
        guard activity.courseSegments.contains(where: { !$0.isEmpty }) else { throw StoreError.emptyActivity }
        let title = try title.map(Self.validTitle) ?? Self.derivedTitle(of: activity, fileName: fileName)
        let description = Self.nonBlank(description ?? activity.metadata.description)
        let stats = activity.stats()
        let geometry: Data
        do {
            geometry = try ActivityCodec.encode(activity)
        } catch let error as ActivityCodecError {
            throw StoreError.cannotEncode(error.description)
        }
        var record = CourseRecord(
            id: nil, owner: user, title: title, description: description, sourceFormat: activity.format.rawValue,
            contentHash: contentHash.lowercased(), createdAt: Date(), isUploaded: false, uploadedAt: nil,
            scrapCount: 0, distanceMeters: stats.distanceMeters, pointCount: stats.points, stats: stats,
            geometry: geometry)
        record.setDeparture(departure)

        return try write { db in
            typealias C = CourseRecord.Columns
            if let existing = try CourseRecord.all().owned(by: user).filter(C.contentHash == record.contentHash)
                .select(C.id, as: Int64.self).fetchOne(db) {
                throw StoreError.duplicate(existingID: existing)
            }
            try record.insert(db)
            let id = record.id!
            let course = try fetchCourse(db, id: id)
            try SearchIndex.index(db, courseID: id, fields: course.searchFields)
            try hooks.beforeImportCommit?(db, id)
            return course
        }
    }

    /// Stores a course drawn by tapping a map: the taps joined by straight geodesic legs, as one
    /// route (format `points`).
    ///
    /// The content hash is taken over the canonical text of the taps (`lat,lon lat,lon …`), so
    /// drawing the same taps twice is recognised as a duplicate.
    ///
    /// - Parameters:
    ///   - points: The taps, in order; at least 2.
    ///   - title: 1–40 characters after trimming.
    ///   - description: Blank means none.
    ///   - departure: Where the course starts.
    /// - Throws: ``StoreError/tooFewPoints(found:)``, ``StoreError/invalidCoordinate(index:_:)``,
    ///   ``StoreError/invalidTitle(_:)``, ``StoreError/duplicate(existingID:)``.
    public func draw(points: [Coordinate], title: String, description: String? = nil,
                     departure: Departure? = nil) throws -> Course {
        guard points.count >= TappedPointsReader.minimumPoints else {
            throw StoreError.tooFewPoints(found: points.count)
        }
        if let bad = points.firstIndex(where: { !$0.isValid }) {
            throw StoreError.invalidCoordinate(index: bad, points[bad])
        }
        let title = try Self.validTitle(title)
        let activity = Activity(format: .pointsText, routes: [Route(points: points.map(TrackPoint.init))])
        let hash = ContentHash.of(Array(ContentHash.canonicalText(points).utf8))
        return try importActivity(activity, contentHash: hash, title: title, description: description,
                                  departure: departure, fileName: nil)
    }

    // MARK: - Text rules

    /// `title` trimmed and NFC-normalised.
    /// - Throws: ``StoreError/invalidTitle(_:)`` unless 1–40 characters remain.
    static func validTitle(_ title: String) throws -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard (1...maximumTitleLength).contains(trimmed.count) else { throw StoreError.invalidTitle(title) }
        return trimmed
    }

    /// The activity's own name, else the file name, cut to the title length.
    static func derivedTitle(of activity: Activity, fileName: String?) -> String {
        for candidate in [activity.displayName, fileName] {
            if let text = nonBlank(candidate) {
                return String(text.prefix(maximumTitleLength)).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return "Untitled course"
    }

    /// Trimmed, NFC-normalised text; `nil` when blank.
    static func nonBlank(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return nil
        }
        return trimmed.precomposedStringWithCanonicalMapping
    }
}
