import Foundation
import RunnectKit

/// A course ready to be stored: its title and description checked, its stats computed and its
/// geometry encoded.
///
/// Making a draft is the costly part of an import and needs no database, so drafts can be made
/// on several threads while one thread stores them with ``CourseStore/insert(_:)-(CourseDraft)``
/// or, many in one transaction, ``CourseStore/insert(_:)-([CourseDraft])``.
public struct CourseDraft: Sendable {
    /// The row to insert; its owner and creation date are set when it is stored.
    package var record: CourseTableRow
    /// Store the record as it is, owner, date and flags included (``preset(owner:createdAt:isUploaded:scrapCount:)``).
    package var isPreset = false
    /// ``stats`` as the JSON text stored in the `stats` column, encoded with the draft so that
    /// the storing thread does not have to.
    package let statsJSON: String
    /// Where the course starts.
    public let departure: Departure?
    /// The course's search entry, prepared with the draft.
    package let searchEntry: SearchEntry
    /// The course's entry in the R*Tree of course bounds.
    package let bounds: CourseBounds?
    /// The course's path as near-me search measures it (``CoursePieces/path(of:)``), kept so
    /// that a backend storing it as a geometry does not decode the activity again.
    package let path: [[Coordinate]]
    /// The course's entries in the R*Tree of path pieces, for near-me search.
    package let pieces: CoursePieces?
    /// For a timed run imported with ``RunMatching``: what its record needs. Stored by
    /// ``CourseStore/insert(_:)-([CourseDraft])`` as a record of the course it followed.
    let run: RunDraft?
    /// What the reader noticed about the activity (RunnectKit's `Activity/warnings`: times going
    /// back, say), for the caller to pass on; the course is stored as read all the same.
    public let warnings: [String]

    /// Whether the draft is stored as a record of a run (a timed track, drafted with matching).
    public var isRun: Bool { run != nil }

    /// The title the course will have.
    public var title: String { record.title }
    /// Lowercase hex SHA-256 of the source.
    public var contentHash: String { record.contentHash }
    /// Stats of the whole activity, at JSON resolution.
    public var stats: ActivityStats { record.stats.stats }

    /// A draft of an activity read from a file.
    ///
    /// - Parameters:
    ///   - activity: What was read; every point is kept (see ``CourseStore/activity(id:)``).
    ///   - contentHash: Lowercase hex SHA-256 of the source bytes; the same owner cannot store the
    ///     same hash twice.
    ///   - title: 1–40 characters after trimming; `nil` takes the activity's own name, else
    ///     `fileName`, cut to 40 characters (else "Untitled course").
    ///   - description: Blank means none; `nil` takes the activity's own description. Typed text:
    ///     a control other than a line feed or tab is refused.
    ///   - departure: Where the course starts.
    ///   - fileName: The source's file name without extension, for the default title.
    ///   - matching: How a timed track becomes a record; `nil` stores every activity as a course.
    /// - Throws: ``StoreError/invalidTitle(_:)``, ``StoreError/controlCharacter(field:scalar:position:)``,
    ///   ``StoreError/emptyActivity`` (no track or route
    ///   point), ``StoreError/tooFewPositions(distinct:points:)`` (fewer than 2 distinct
    ///   positions: no path), ``StoreError/cannotEncode(_:)``.
    public init(
        activity: Activity, contentHash: String, title: String? = nil, description: String? = nil,
        departure: Departure? = nil, fileName: String? = nil, matching: RunMatching? = nil
    ) throws {
        let segments = activity.courseSegments
        guard segments.contains(where: { !$0.isEmpty }) else { throw StoreError.emptyActivity }
        let distinct = Self.distinctPositions(in: segments)
        guard distinct >= 2 else {
            throw StoreError.tooFewPositions(distinct: distinct, points: segments.reduce(0) { $0 + $1.count })
        }
        let title =
            try title.map(CourseStore.validTitle)
            ?? CourseStore.derivedTitle(of: activity, fileName: fileName)
        // A description passed in was typed (refused with controls); the file's own has them replaced.
        let description =
            try description.map(CourseStore.validDescription)
            ?? CourseStore.nonBlank(
                activity.metadata.description.map {
                    ControlCharacters.replacing(in: $0, keepingLineBreaks: true)
                })
        // The stats as stored: JSON text in their storage format, and the value read back from
        // it, so that the course returned equals the course read later.
        let stats: StoredStats
        do {
            statsJSON = try StoredStats(activity.stats()).json()
            stats = try StoredStats.decode(Data(statsJSON.utf8))
        } catch {
            throw StoreError.cannotEncode("stats: \(error)")
        }
        let geometry: Data
        do {
            geometry = try ActivityCodec.encode(activity)
        } catch let error as ActivityCodecError {
            throw StoreError.cannotEncode(error.description)
        }
        record = CourseTableRow(
            id: nil, owner: "", title: title, description: description, sourceFormat: activity.format.rawValue,
            contentHash: contentHash.lowercased(), createdAt: Date(), isUploaded: false, uploadedAt: nil,
            scrapCount: 0, distanceMeters: stats.stats.distanceMeters, pointCount: stats.stats.points, stats: stats,
            geometry: geometry)
        record.setDeparture(departure)
        self.departure = departure
        bounds = CourseBounds(activity)
        path = CoursePieces.path(of: activity)
        pieces = CoursePieces(path: path)
        run = matching.flatMap { RunDraft(activity, stats: stats.stats, matching: $0) }
        warnings = activity.warnings
        searchEntry = SearchEntry(
            fields: SearchFields(
                title: title, description: description, departure: departure?.searchableParts ?? []))
    }

    /// The distinct positions of the points, counted up to 2 (0: no point has one; 1: every
    /// point with a position is at the same place), positions as the path has them
    /// (`CoursePieces.hasPosition`). Stops at the second one, usually the second point.
    static func distinctPositions(in segments: [[TrackPoint]]) -> Int {
        var first: TrackPoint?
        for points in segments {
            for point in points where CoursePieces.hasPosition(point) {
                guard let first else {
                    first = point
                    continue
                }
                if point.latitude != first.latitude || point.longitude != first.longitude { return 2 }
            }
        }
        return first == nil ? 0 : 1
    }

    /// Presets what the store sets when it stores a course: the owner, the creation date, the
    /// share flag (shared since `createdAt`) and the scrap count (without a row per scrap). For
    /// benchmarks, which build stores of many owners whose courses span years.
    package mutating func preset(owner: String, createdAt: Date, isUploaded: Bool, scrapCount: Int) {
        isPreset = true
        record.owner = owner
        record.createdAt = createdAt
        record.isUploaded = isUploaded
        record.uploadedAt = isUploaded ? createdAt : nil
        record.scrapCount = scrapCount
    }

    /// A draft of a file read by ``CourseSource/init(path:)``.
    /// - Throws: As ``init(activity:contentHash:title:description:departure:fileName:matching:)``.
    public init(
        source: CourseSource, title: String? = nil, description: String? = nil,
        departure: Departure? = nil, matching: RunMatching? = nil
    ) throws {
        try self.init(
            activity: source.activity, contentHash: source.contentHash, title: title,
            description: description, departure: departure, fileName: source.fileName, matching: matching)
    }
}
