import Foundation

/// Writes courses as GeoJSON (RFC 7946): one `Feature` per course, whose geometry is a
/// `LineString` (a `MultiLineString` for several segments, a `Point` for a one-point course), with
/// a `bbox` and the properties the caller gives; waypoints follow as `Point` features.
///
/// Positions are `[lon, lat]`, with the elevation as a third value when every point has one.
/// Longitudes are written in −180…180; a line that crosses the antimeridian is cut there into
/// the parts of a `MultiLineString` (section 3.1.9), and its `bbox` then has a western edge
/// greater than its eastern one (section 5.2).
///
/// ```swift
/// var writer = GeoJSONWriter(options: GeoJSONOptions(simplifyToleranceMeters: 2))
/// try writer.add(activity, id: 42, properties: course)   // any Encodable that is a JSON object
/// let text = writer.document()                           // a Feature, or a FeatureCollection
/// ```
///
/// Features are kept as text as they are added, so a collection of many courses holds their
/// output, not their activities.
///
/// ## Topics
/// - ``add(_:id:properties:)``
/// - ``document()``
/// - ``featureCollection()``
/// - ``document(for:id:properties:options:)``
public struct GeoJSONWriter: Sendable {
    /// How courses added from now on are written.
    public var options: GeoJSONOptions
    /// Number of features added so far (a course and each of its waypoints count one each).
    public private(set) var featureCount = 0

    private var features: [UInt8] = []
    private var boxes: [Bounds] = []
    private var elevationRange: ClosedRange<Double>?
    private var everyBoxHasElevation = true

    public init(options: GeoJSONOptions = GeoJSONOptions()) {
        self.options = options
    }

    /// Adds a course: its path as one feature, then its waypoints (when
    /// ``GeoJSONOptions/includeWaypoints``).
    ///
    /// A course without any positioned point gets a `null` geometry and no `bbox`.
    /// - Parameters:
    ///   - activity: The course's path.
    ///   - id: Written as the feature's `id` (the store's course id).
    ///   - properties: Written as the feature's `properties`; must encode as a JSON object (a
    ///     struct or dictionary). Encoded with sorted keys, dates as ISO 8601 UTC. `nil` writes
    ///     `null`.
    /// - Throws: ``WriteError/propertiesNotAnObject(_:)``, or the error `properties` throws
    ///   while encoding.
    public mutating func add(_ activity: Activity, id: Int64? = nil, properties: (any Encodable)? = nil) throws {
        let propertiesJSON = try Self.encodeProperties(properties)
        let geometry = GeoJSONGeometry(activity: activity, options: options)

        var out = JSONBytes(decimals: options.coordinateDecimals)
        out.raw("{\"type\":\"Feature\"")
        if let id { out.raw(",\"id\":\(id)") }
        if let bounds = geometry.bounds {
            out.raw(",\"bbox\":")
            out.bbox(bounds, elevation: geometry.elevationRange)
            boxes.append(bounds)
            if let range = geometry.elevationRange {
                elevationRange =
                    elevationRange.map { min($0.lowerBound, range.lowerBound)...max($0.upperBound, range.upperBound) }
                    ?? range
            } else {
                everyBoxHasElevation = false
            }
        }
        out.raw(",\"geometry\":")
        out.geometry(geometry)
        out.raw(",\"properties\":")
        out.bytes.append(contentsOf: propertiesJSON)
        out.raw("}")
        append(out.bytes)

        guard options.includeWaypoints else { return }
        for waypoint in activity.waypoints where SegmentMeasurement.hasPosition(waypoint.point) {
            let point = waypoint.point
            let longitude = Bounds.normalized(point.longitude)
            let elevation = options.includeElevation ? point.elevationMeters.flatMap { $0.isFinite ? $0 : nil } : nil
            var out = JSONBytes(decimals: options.coordinateDecimals)
            out.raw("{\"type\":\"Feature\",\"bbox\":")
            let box = Bounds(
                minLatitude: point.latitude, minLongitude: longitude,
                maxLatitude: point.latitude, maxLongitude: longitude)
            out.bbox(box, elevation: elevation.map { $0...$0 })
            boxes.append(box)
            if let elevation {
                elevationRange =
                    elevationRange.map { min($0.lowerBound, elevation)...max($0.upperBound, elevation) }
                    ?? elevation...elevation
            } else {
                everyBoxHasElevation = false
            }
            out.raw(",\"geometry\":{\"type\":\"Point\",\"coordinates\":")
            out.position(
                GeoJSONGeometry.Position(
                    longitude: longitude, latitude: point.latitude,
                    elevation: elevation ?? 0),
                elevation: elevation != nil)
            out.raw("},\"properties\":{\"kind\":\"waypoint\",\"name\":")
            out.string(waypoint.name)
            if let id { out.raw(",\"course_id\":\(id)") }
            out.raw("}}")
            append(out.bytes)
        }
    }

    /// The features added so far as one `FeatureCollection` (with a `bbox` around all of them),
    /// followed by a newline.
    public func featureCollection() -> Data {
        var out = JSONBytes(decimals: options.coordinateDecimals)
        out.raw("{\"type\":\"FeatureCollection\"")
        if let bounds = Bounds(enclosing: boxes) {
            out.raw(",\"bbox\":")
            out.bbox(bounds, elevation: everyBoxHasElevation ? elevationRange : nil)
        }
        out.raw(",\"features\":[")
        out.bytes.append(contentsOf: features)
        out.raw("]}\n")
        return Data(out.bytes)
    }

    /// The document: the single `Feature` when exactly one was added, else a
    /// ``featureCollection()``. Followed by a newline.
    public func document() -> Data {
        guard featureCount == 1 else { return featureCollection() }
        return Data(features + [UInt8(ascii: "\n")])
    }

    /// One course as a document (see ``add(_:id:properties:)`` and ``document()``): a `Feature`,
    /// or a `FeatureCollection` when the course has waypoints.
    public static func document(
        for activity: Activity, id: Int64? = nil, properties: (any Encodable)? = nil,
        options: GeoJSONOptions = GeoJSONOptions()
    ) throws -> Data {
        var writer = GeoJSONWriter(options: options)
        try writer.add(activity, id: id, properties: properties)
        return writer.document()
    }

    private mutating func append(_ feature: [UInt8]) {
        if featureCount > 0 { features.append(UInt8(ascii: ",")) }
        features.append(contentsOf: feature)
        featureCount += 1
    }

    private static func encodeProperties(_ properties: (any Encodable)?) throws -> [UInt8] {
        guard let properties else { return Array("null".utf8) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RunnerFormat.timestamp(date))
        }
        let data = try encoder.encode(properties)
        guard data.first == UInt8(ascii: "{") || data.elementsEqual("null".utf8) else {
            throw WriteError.propertiesNotAnObject(String(describing: type(of: properties)))
        }
        return Array(data)
    }
}
