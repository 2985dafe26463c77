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
                let longitude = DecimalParser.parseDouble(parts[1])
            else {
                throw ReadError.invalidContent("point \(index + 1) \"\(token)\" is not \"lat,lon\"")
            }
            coordinates.append(try validated(latitude, longitude, index: index))
        }
        return try activity(routes: [coordinates], format: .pointsText)
    }

    /// Parses the JSON forms (the service's own, or GeoJSON).
    /// - Throws: ``ReadError/invalidContent(_:)`` naming the place of a JSON error or the first
    ///   bad point.
    public static func read(json bytes: [UInt8]) throws -> Activity {
        try read(json: MemoryByteStream(bytes))
    }

    /// Parses the JSON forms (the service's own, or GeoJSON) as a stream: memory grows with the
    /// points kept, not with the text (names, descriptions and members Runnect does not read are
    /// skipped as they stream by).
    ///
    /// The document is read to its end before a bad point is reported, so that a document that
    /// is not JSON at all is reported as such.
    /// - Parameters:
    ///   - stream: The document's bytes.
    ///   - maxBytes: the most bytes read before ``ReadError/tooLarge(limitBytes:)``.
    /// - Throws: ``ReadError/invalidContent(_:)`` naming the line, column and byte of a JSON
    ///   error (nesting deeper than 512, a kept string over 1 MiB, …) or the first bad point.
    public static func read(json stream: ByteStream, maxBytes: Int = .max) throws -> Activity {
        let scanner = JSONScanner(stream: stream, maxDocumentBytes: maxBytes)
        switch try scanner.next() {
        case .beginArray:
            let points = try servicePoints(scanner)
            try expectEnd(scanner)
            return try activity(routes: [try points.get()], format: .pointsJSON)
        case .beginObject:
            let object = try GeoJSONObject(from: scanner)
            try expectEnd(scanner)
            return try geoJSONActivity(object)
        case let token:
            try scanner.skip(after: token)
            try expectEnd(scanner)
            throw ReadError.invalidContent("expected an array of points or a GeoJSON object")
        }
    }

    private static func expectEnd(_ scanner: JSONScanner) throws {
        let token = try scanner.next()
        assert(token == .endOfDocument, "the scanner allows nothing after the root value")
    }

    static func validated(_ latitude: Double, _ longitude: Double, index: Int) throws -> Coordinate {
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else {
            throw ReadError.invalidContent(
                "point \(index + 1) (\(latitude), \(longitude)) is outside latitude -90…90 / longitude -180…180")
        }
        return coordinate
    }

    static func activity(routes: [[Coordinate]], format: ActivityFormat) throws -> Activity {
        try activity(routes: routes.map { $0.map(TrackPoint.init) }, format: format)
    }

    static func activity(
        routes: [[TrackPoint]], format: ActivityFormat,
        waypoints: [Waypoint] = []
    ) throws -> Activity {
        let taps = routes.reduce(0) { $0 + $1.count }
        guard taps >= minimumPoints || (taps == 0 && !waypoints.isEmpty) else {
            throw ReadError.invalidContent("a course needs at least \(minimumPoints) points, found \(taps)")
        }
        return Activity(format: format, routes: routes.map { Route(points: $0) }, waypoints: waypoints)
    }
}
