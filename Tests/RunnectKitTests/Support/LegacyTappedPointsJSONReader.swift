import Foundation

@testable import RunnectKit

/// Runnect's tapped-points JSON reader before it streamed (`JSONDecoder` into a ``JSONValue``
/// tree), kept as the reference the streaming reader must agree with: same activity bit for bit,
/// or an error on the same inputs.
enum LegacyTappedPointsJSONReader {
    static func read(json bytes: [UInt8]) throws -> Activity {
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
        try collectGeoJSON(
            object, routes: &routes, elevations: &elevations, waypoints: &waypoints,
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
                    let longitude = number(object["longitude"] ?? object["lon"] ?? object["lng"])
                else {
                    throw ReadError.invalidContent("point \(index + 1) needs \"latitude\" and \"longitude\" numbers")
                }
                return try TappedPointsReader.validated(latitude, longitude, index: index)
            }
            if let pair = element.array, pair.count == 2,
                let latitude = number(pair[0]), let longitude = number(pair[1])
            {
                return try TappedPointsReader.validated(latitude, longitude, index: index)
            }
            throw ReadError.invalidContent("point \(index + 1) is neither {\"latitude\",\"longitude\"} nor [lat, lon]")
        }
    }

    private static func collectGeoJSON(
        _ object: [String: JSONValue], routes: inout [[Coordinate]],
        elevations: inout [[Double?]], waypoints: inout [Waypoint],
        metadata: inout ActivityMetadata
    ) throws {
        switch object["type"]?.string {
        case "FeatureCollection":
            guard let features = object["features"]?.array else {
                throw ReadError.invalidContent("GeoJSON FeatureCollection without \"features\"")
            }
            for case .object(let feature) in features {
                try collectGeoJSON(
                    feature, routes: &routes, elevations: &elevations,
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
            try collectGeoJSON(
                geometry, routes: &routes, elevations: &elevations, waypoints: &waypoints,
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
            let longitude = number(array[0]), let latitude = number(array[1])
        else {
            throw ReadError.invalidContent("GeoJSON position \(index + 1) is not [lon, lat] or [lon, lat, ele]")
        }
        return (
            try TappedPointsReader.validated(latitude, longitude, index: index),
            array.count == 3 ? number(array[2]) : nil
        )
    }

    private static func number(_ value: JSONValue?) -> Double? {
        value?.number
    }

    private static func activity(
        routes: [[Coordinate]], format: ActivityFormat,
        waypoints: [Waypoint] = []
    ) throws -> Activity {
        let taps = routes.reduce(0) { $0 + $1.count }
        guard taps >= TappedPointsReader.minimumPoints || (taps == 0 && !waypoints.isEmpty) else {
            throw ReadError.invalidContent(
                "a course needs at least \(TappedPointsReader.minimumPoints) points, found \(taps)")
        }
        return Activity(
            format: format,
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
