import Foundation
import RunnectKit
import RunnectStore

/// One course as the discovery page reads it from `courses.json` (and `courses.js`): what a card
/// shows, where its files are, and its search key.
///
/// Keys are snake_case with units, every one always present (`null` where a figure is missing,
/// as a drawn course has no pace) except `search`, figures at their JSON resolution.
public struct DiscoveryIndexEntry: Codable, Equatable, Sendable {
    public var id: Int64
    public var title: String
    public var description: String?
    public var owner: String
    /// `region city town [detail]`, `nil` without a departure.
    public var address: String?
    /// The departure's place name.
    public var departureName: String?
    public var distanceMeters: Double
    public var elapsedTimeSeconds: Double?
    public var averagePaceSecondsPerKilometer: Double?
    public var elevationGainMeters: Double?
    public var scrapCount: Int
    public var isUploaded: Bool
    /// ISO 8601 UTC.
    public var createdAt: String
    /// ISO 8601 UTC; `nil` while private.
    public var uploadedAt: String?
    /// The SVG preview, relative to the index folder (`courses/12.svg`).
    public var preview: String
    /// The course's GeoJSON, relative to the index folder (`courses/12.geojson`).
    public var geojson: String
    /// The GPX download (`courses/12.gpx`); `nil` for a course without a path to follow.
    public var gpx: String?
    /// The FIT course download (`courses/12.fit`); `nil` as for ``gpx``.
    public var fit: String?
    /// What the page searches: the title, the description and each departure part, each
    /// normalised as the store's search normalises text (NFC, lowercase), one per line. A keyword
    /// never holds white space, so it matches this text exactly when it matches one of the fields.
    /// `nil` in ``properties``, and then left out of the JSON.
    public var search: String?

    /// The entry as a GeoJSON feature's `properties`: the same keys without `search`.
    public var properties: DiscoveryIndexEntry {
        var copy = self
        copy.search = nil
        return copy
    }

    enum CodingKeys: String, CodingKey {
        case id, title, description, owner, address, preview, geojson, gpx, fit, search
        case departureName = "departure_name", distanceMeters = "distance_m"
        case elapsedTimeSeconds = "elapsed_time_s", averagePaceSecondsPerKilometer = "avg_pace_s_per_km"
        case elevationGainMeters = "elevation_gain_m", scrapCount = "scrap_count", isUploaded = "is_uploaded"
        case createdAt = "created_at", uploadedAt = "uploaded_at"
    }

    /// The entry of a stored course.
    public init(_ course: Course) {
        id = course.id
        title = course.title
        description = course.description
        owner = course.owner
        address = course.departure?.address
        departureName = course.departure?.name
        distanceMeters = JSONResolution.meters(course.stats.distanceMeters) ?? 0
        elapsedTimeSeconds = JSONResolution.seconds(course.stats.elapsedTimeSeconds)
        averagePaceSecondsPerKilometer = JSONResolution.pace(course.stats.averagePaceSecondsPerKilometer)
        elevationGainMeters = JSONResolution.meters(course.stats.elevationGainMeters)
        scrapCount = course.scrapCount
        isUploaded = course.isUploaded
        createdAt = RunnerFormat.timestamp(course.createdAt)
        uploadedAt = course.uploadedAt.map(RunnerFormat.timestamp)
        preview = DiscoveryIndexExporter.previewName(id: course.id)
        geojson = DiscoveryIndexExporter.geoJSONName(id: course.id)
        gpx = DiscoveryIndexExporter.gpxName(id: course.id)
        fit = DiscoveryIndexExporter.fitName(id: course.id)
        search = course.searchKey
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        // Optionals through encode(_:forKey:): a missing value is written as null, never left out.
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(description, forKey: .description)
        try c.encode(owner, forKey: .owner)
        try c.encode(address, forKey: .address)
        try c.encode(departureName, forKey: .departureName)
        try c.encode(distanceMeters, forKey: .distanceMeters)
        try c.encode(elapsedTimeSeconds, forKey: .elapsedTimeSeconds)
        try c.encode(averagePaceSecondsPerKilometer, forKey: .averagePaceSecondsPerKilometer)
        try c.encode(elevationGainMeters, forKey: .elevationGainMeters)
        try c.encode(scrapCount, forKey: .scrapCount)
        try c.encode(isUploaded, forKey: .isUploaded)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(uploadedAt, forKey: .uploadedAt)
        try c.encode(preview, forKey: .preview)
        try c.encode(geojson, forKey: .geojson)
        try c.encode(gpx, forKey: .gpx)
        try c.encode(fit, forKey: .fit)
        try c.encodeIfPresent(search, forKey: .search)
    }
}
