import Foundation

/// Reads a course drawn by tapping a map: the taps become one ``Route`` whose legs are straight
/// geodesics between consecutive taps.
///
/// Accepted shapes:
/// - text: `"37.5100,127.0600 37.5112,127.0621 …"` (pairs separated by spaces, new lines or `;`);
/// - the service's JSON: `[{"latitude": 37.51, "longitude": 127.06}, …]` or `[[37.51, 127.06], …]`
///   (latitude first);
/// - GeoJSON (RFC 7946, `[lon, lat]` order): a `LineString`, a `MultiLineString` (one route per
///   line), or a `Feature` / `FeatureCollection` holding them; `Point` features become waypoints.
public enum TappedPointsReader {
    /// The least number of taps that makes a course.
    public static let minimumPoints = 2

    /// Parses the text form.
    /// - Throws: ``ReadError/invalidContent(_:)`` naming the first bad pair.
    public static func read(text: String) throws -> Activity {
        var coordinates: [Coordinate] = []
        let separators = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ";"))
        for (index, token) in text.components(separatedBy: separators).filter({ !$0.isEmpty }).enumerated() {
            let parts = token.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let latitude = DecimalParser.parseDouble(parts[0]),
                  let longitude = DecimalParser.parseDouble(parts[1]) else {
                throw ReadError.invalidContent("point \(index + 1) \"\(token)\" is not \"lat,lon\"")
            }
            coordinates.append(try validated(latitude, longitude, index: index))
        }
        return try activity(routes: [coordinates], format: .pointsText)
    }

    /// Parses the JSON forms (the service's own, or GeoJSON).
    public static func read(json bytes: [UInt8]) throws -> Activity {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw ReadError.invalidContent("invalid JSON: \(jsonErrorSummary(error))")
        }
        if let array = root.array {
            return try activity(routes: [try servicePoints(array)], format: .pointsJSON)
        }
        guard let object = root.object, object["type"]?.string != nil else {
            throw ReadError.invalidContent("expected an array of points or a GeoJSON object")
        }
        var routes: [[Coordinate]] = []
        var elevations: [[Double?]] = []
        var waypoints: [Waypoint] = []
        var metadata = ActivityMetadata()
        try collectGeoJSON(object, routes: &routes, elevations: &elevations, waypoints: &waypoints,
                           metadata: &metadata)
        var result = try activity(routes: routes, format: .geoJSON, waypoints: waypoints)
        result.metadata = metadata
        for (r, elevationsOfRoute) in elevations.enumerated() {
            for (p, elevation) in elevationsOfRoute.enumerated() {
                result.routes[r].points[p].elevationMeters = elevation
            }
        }
        return result
    }

    // MARK: - Shapes

    private static func servicePoints(_ array: [JSONValue]) throws -> [Coordinate] {
        try array.enumerated().map { index, element in
            if let object = element.object {
                guard let latitude = number(object["latitude"] ?? object["lat"]),
                      let longitude = number(object["longitude"] ?? object["lon"] ?? object["lng"]) else {
                    throw ReadError.invalidContent("point \(index + 1) needs \"latitude\" and \"longitude\" numbers")
                }
                return try validated(latitude, longitude, index: index)
            }
            if let pair = element.array, pair.count == 2,
               let latitude = number(pair[0]), let longitude = number(pair[1]) {
                return try validated(latitude, longitude, index: index)
            }
            throw ReadError.invalidContent("point \(index + 1) is neither {\"latitude\",\"longitude\"} nor [lat, lon]")
        }
    }

    private static func collectGeoJSON(_ object: [String: JSONValue], routes: inout [[Coordinate]],
                                       elevations: inout [[Double?]], waypoints: inout [Waypoint],
                                       metadata: inout ActivityMetadata) throws {
        switch object["type"]?.string {
        case "FeatureCollection":
            guard let features = object["features"]?.array else {
                throw ReadError.invalidContent("GeoJSON FeatureCollection without \"features\"")
            }
            for case .object(let feature) in features {
                try collectGeoJSON(feature, routes: &routes, elevations: &elevations,
                                   waypoints: &waypoints, metadata: &metadata)
            }
        case "Feature":
            let properties = object["properties"]?.object ?? [:]
            let name = (properties["title"] ?? properties["name"])?.string
            if metadata.name == nil { metadata.name = name }
            if metadata.description == nil {
                metadata.description = (properties["description"] ?? properties["desc"])?.string
            }
            guard let geometry = object["geometry"]?.object else { return }
            if geometry["type"]?.string == "Point" {
                let (coordinate, elevation) = try position(geometry["coordinates"], index: waypoints.count)
                var point = TrackPoint(coordinate)
                point.elevationMeters = elevation
                waypoints.append(Waypoint(name: name, point: point))
                return
            }
            try collectGeoJSON(geometry, routes: &routes, elevations: &elevations, waypoints: &waypoints,
                               metadata: &metadata)
        case "LineString":
            let line = try positions(object["coordinates"])
            routes.append(line.map(\.0))
            elevations.append(line.map(\.1))
        case "MultiLineString":
            guard let lines = object["coordinates"]?.array else {
                throw ReadError.invalidContent("GeoJSON MultiLineString without coordinates")
            }
            for line in lines {
                let parsed = try positions(line)
                routes.append(parsed.map(\.0))
                elevations.append(parsed.map(\.1))
            }
        case "Point":
            let (coordinate, elevation) = try position(object["coordinates"], index: waypoints.count)
            var point = TrackPoint(coordinate)
            point.elevationMeters = elevation
            waypoints.append(Waypoint(point: point))
        case let other:
            throw ReadError.invalidContent("GeoJSON type \(other.map { "\"\($0)\"" } ?? "missing") holds no course")
        }
    }

    private static func positions(_ value: JSONValue?) throws -> [(Coordinate, Double?)] {
        guard let array = value?.array else {
            throw ReadError.invalidContent("GeoJSON line without a coordinates array")
        }
        return try array.enumerated().map { try position($1, index: $0) }
    }

    private static func position(_ value: JSONValue?, index: Int) throws -> (Coordinate, Double?) {
        guard let array = value?.array, array.count == 2 || array.count == 3,
              let longitude = number(array[0]), let latitude = number(array[1]) else {
            throw ReadError.invalidContent("GeoJSON position \(index + 1) is not [lon, lat] or [lon, lat, ele]")
        }
        return (try validated(latitude, longitude, index: index), array.count == 3 ? number(array[2]) : nil)
    }

    private static func number(_ value: JSONValue?) -> Double? {
        value?.number
    }

    private static func validated(_ latitude: Double, _ longitude: Double, index: Int) throws -> Coordinate {
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else {
            throw ReadError.invalidContent(
                "point \(index + 1) (\(latitude), \(longitude)) is outside latitude -90…90 / longitude -180…180")
        }
        return coordinate
    }

    private static func activity(routes: [[Coordinate]], format: ActivityFormat,
                                 waypoints: [Waypoint] = []) throws -> Activity {
        let taps = routes.reduce(0) { $0 + $1.count }
        guard taps >= minimumPoints || (taps == 0 && !waypoints.isEmpty) else {
            throw ReadError.invalidContent("a course needs at least \(minimumPoints) points, found \(taps)")
        }
        return Activity(format: format,
                        routes: routes.map { Route(points: $0.map(TrackPoint.init)) },
                        waypoints: waypoints)
    }

    private static func jsonErrorSummary(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
                ?? context.debugDescription
        }
        return "\(error)"
    }
}
