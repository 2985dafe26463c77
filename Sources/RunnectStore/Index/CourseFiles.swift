import Foundation
import RunnectKit

/// The files of one course in the discovery index: its SVG preview, its GeoJSON, and its
/// feature in `courses.geojson`.
struct CourseFiles {
    var preview: Data
    var geoJSON: Data
    var collectionFeature: Data

    // TEMPORARY: replaced by the Writers API (GeoJSONWriter, SVG preview) once merged.
    init(course: Course, activity: Activity) throws {
        let segments = activity.courseSegments.filter { !$0.isEmpty }
        let lines = segments.map { $0.map { [$0.longitude, $0.latitude] } }
        let geometry: [String: Any] = ["type": "MultiLineString", "coordinates": lines]
        let feature: [String: Any] = ["type": "Feature", "geometry": geometry,
                                      "properties": ["id": course.id, "title": course.title]]
        geoJSON = try JSONSerialization.data(withJSONObject: feature, options: [.sortedKeys])
        collectionFeature = geoJSON
        let points = segments.flatMap { $0 }
        let lats = points.map(\.latitude), lons = points.map(\.longitude)
        let minLat = lats.min() ?? 0, maxLat = lats.max() ?? 1, minLon = lons.min() ?? 0, maxLon = lons.max() ?? 1
        let scale = 300 / max(maxLat - minLat, maxLon - minLon, 1e-9)
        let path = points.map { String(format: "%.1f,%.1f", ($0.longitude - minLon) * scale + 10, (maxLat - $0.latitude) * scale + 10) }
            .joined(separator: " ")
        preview = Data("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 320 320\"><polyline fill=\"none\" stroke=\"#5b3cf0\" stroke-width=\"4\" points=\"\(path)\"/></svg>\n".utf8)
    }
}
