import Foundation
import RunnectKit

/// The files of one course in the discovery index, made with RunnectKit's writers: its SVG
/// preview (``RunnectKit/SVGPreview``, the size of a card's picture) and its GeoJSON `Feature`
/// (``RunnectKit/GeoJSONWriter``, every point, the card's data as properties).
struct CourseFiles {
    var preview: Data
    var geoJSON: Data

    /// A card's picture: 4:3, with the elevation profile when the course has elevations.
    static let previewOptions = SVGPreviewOptions(widthPixels: 400, heightPixels: 300, includeProfile: true)
    /// `courses/<id>.geojson`: the whole course as stored.
    static let courseOptions = GeoJSONOptions()
    /// `courses.geojson`: enough for a map of every course (5 m, about 0.1 m positions, no waypoints).
    static let collectionOptions = GeoJSONOptions(
        simplifyToleranceMeters: 5, includeElevation: false,
        includeWaypoints: false, coordinateDecimals: 6)

    /// - Throws: ``IndexExportError/cannotRender(id:reason:)``.
    init(entry: DiscoveryIndexEntry, activity: Activity) throws {
        do {
            var options = Self.previewOptions
            options.title = entry.title
            preview = Data(try SVGPreview(activity: activity, options: options).svg.utf8)
            geoJSON = try GeoJSONWriter.document(
                for: activity, id: entry.id, properties: entry.properties,
                options: Self.courseOptions)
        } catch let error as WriteError {
            throw IndexExportError.cannotRender(id: entry.id, reason: error.description)
        }
    }
}
