import Foundation
import RunnectKit

/// The files of one course in the discovery index, made with RunnectKit's writers: its SVG
/// preview (``RunnectKit/SVGPreview``, the size of a card's picture), its GeoJSON `Feature`
/// (``RunnectKit/GeoJSONWriter``, every point, the card's data as properties), and the downloads
/// a watch takes: GPX (``RunnectKit/GPXWriter``) and a FIT course file
/// (``RunnectKit/FITWriter``), as `runnect export gpx|fit ID` writes them.
struct CourseFiles {
    var preview: Data
    var geoJSON: Data
    /// `nil` for a course that has no path to follow (fewer than two positioned points).
    var gpx: Data?
    var fit: Data?

    /// A card's picture: 4:3, with the elevation profile when the course has elevations.
    static let previewOptions = SVGPreviewOptions(widthPixels: 400, heightPixels: 300, includeProfile: true)
    /// `courses/<id>.geojson`: the whole course as stored.
    static let courseOptions = GeoJSONOptions()
    /// `courses.geojson`: enough for a map of every course (5 m, about 0.1 m positions, no waypoints).
    static let collectionOptions = GeoJSONOptions(
        simplifyToleranceMeters: 5, includeElevation: false,
        includeWaypoints: false, coordinateDecimals: 6)

    /// The course's card, without download links when it has no path to follow.
    var entry: DiscoveryIndexEntry

    /// - Parameters:
    ///   - entry: The course's card.
    ///   - activity: Its stored path.
    ///   - createdAt: When it was stored: the downloads' times start there (at 6:00 per km).
    /// - Throws: ``IndexExportError/cannotRender(id:reason:)``.
    init(entry: DiscoveryIndexEntry, activity: Activity, createdAt: Date) throws {
        var entry = entry
        do {
            let course = ExportOptions(
                kind: .course, name: entry.title, description: entry.description, startTime: createdAt)
            do {
                gpx = try GPXWriter(options: course).data(for: activity)
                fit = try FITWriter(options: course).data(for: activity)
            } catch WriteError.tooFewPoints {
                (gpx, fit) = (nil, nil)
                (entry.gpx, entry.fit) = (nil, nil)
            }
            var options = Self.previewOptions
            options.title = entry.title
            preview = Data(try SVGPreview(activity: activity, options: options).svg.utf8)
            geoJSON = try GeoJSONWriter.document(
                for: activity, id: entry.id, properties: entry.properties,
                options: Self.courseOptions)
        } catch let error as WriteError {
            throw IndexExportError.cannotRender(id: entry.id, reason: error.description)
        }
        self.entry = entry
    }
}
