extension TappedPointsReader {
    /// What a GeoJSON document holds, in document order.
    private struct Collected {
        var routes: [[TrackPoint]] = []
        var waypoints: [Waypoint] = []
        var metadata = ActivityMetadata()
    }

    /// The course of a GeoJSON document read as a ``GeoJSONObject`` (its root).
    static func geoJSONActivity(_ root: GeoJSONObject) throws -> Activity {
        guard root.type != nil else {
            throw ReadError.invalidContent("expected an array of points or a GeoJSON object")
        }
        var collected = Collected()
        try collect(root, into: &collected)
        var result = try activity(routes: collected.routes, format: .geoJSON, waypoints: collected.waypoints)
        result.metadata = collected.metadata
        return result
    }

    private static func collect(_ object: GeoJSONObject, into collected: inout Collected) throws {
        switch object.type {
        case "FeatureCollection":
            guard let features = object.features else {
                throw ReadError.invalidContent("GeoJSON FeatureCollection without \"features\"")
            }
            for feature in features { try collect(feature, into: &collected) }
        case "Feature":
            let name = (object.title ?? object.name) ?? nil
            if collected.metadata.name == nil { collected.metadata.name = name }
            if collected.metadata.description == nil {
                collected.metadata.description = (object.description ?? object.desc) ?? nil
            }
            guard let geometry = object.geometry else { return }
            if geometry.type == "Point" {
                collected.waypoints.append(
                    Waypoint(name: name, point: try point(geometry, index: collected.waypoints.count)))
                return
            }
            try collect(geometry, into: &collected)
        case "LineString":
            collected.routes.append(try line(object.coordinates, at: RecordedCoordinates.Cursor()))
        case "MultiLineString":
            guard let coordinates = object.coordinates, coordinates.isArray(at: RecordedCoordinates.Cursor()) else {
                throw ReadError.invalidContent("GeoJSON MultiLineString without coordinates")
            }
            var cursor = RecordedCoordinates.Cursor()
            try coordinates.forEachElement(&cursor) { element in
                collected.routes.append(try line(coordinates, at: element))
                coordinates.skipValue(&element)
            }
        case "Point":
            collected.waypoints.append(Waypoint(point: try point(object, index: collected.waypoints.count)))
        case let other:
            throw ReadError.invalidContent("GeoJSON type \(other.map { "\"\($0)\"" } ?? "missing") holds no course")
        }
    }

    /// The points of the line at `cursor`, counted first so that the array is allocated once.
    private static func line(_ coordinates: RecordedCoordinates?, at start: RecordedCoordinates.Cursor) throws
        -> [TrackPoint]
    {
        guard let coordinates, coordinates.isArray(at: start) else {
            throw ReadError.invalidContent("GeoJSON line without a coordinates array")
        }
        var points: [TrackPoint] = []
        points.reserveCapacity(coordinates.count(at: start))
        var cursor = start
        try coordinates.forEachElement(&cursor) { element in
            points.append(try position(coordinates, &element, index: points.count))
        }
        return points
    }

    /// The waypoint of a `Point` geometry.
    private static func point(_ geometry: GeoJSONObject, index: Int) throws -> TrackPoint {
        guard let coordinates = geometry.coordinates else { throw notAPosition(index) }
        var cursor = RecordedCoordinates.Cursor()
        return try position(coordinates, &cursor, index: index)
    }

    private static func position(
        _ coordinates: RecordedCoordinates, _ cursor: inout RecordedCoordinates.Cursor,
        index: Int
    ) throws -> TrackPoint {
        guard let (longitude, latitude, elevation) = coordinates.position(&cursor) else { throw notAPosition(index) }
        var point = TrackPoint(try validated(latitude, longitude, index: index))
        point.elevationMeters = elevation
        return point
    }

    private static func notAPosition(_ index: Int) -> ReadError {
        .invalidContent("GeoJSON position \(index + 1) is not [lon, lat] or [lon, lat, ele]")
    }
}
