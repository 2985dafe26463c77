import Foundation

/// Reads GPX 1.0 and 1.1: metadata, tracks → segments → points, routes and waypoints, with heart
/// rate, cadence and temperature from Garmin's TrackPointExtension (v1 and v2) under whatever
/// prefix a file binds it to, or none.
///
/// The file is streamed through `XMLScanner`: memory grows with the points kept, not with the
/// file text, and no DTD or external entity is ever read. Elements are matched by local name, so
/// files without a namespace, with undeclared prefixes, a byte order mark or whitespace before
/// the XML declaration are read. Unknown elements and extensions are skipped.
///
/// Times are ISO 8601 with `Z`, a numeric offset, or no zone at all; zone-less times are taken as
/// UTC and the activity carries a warning saying so.
public struct GPXReader: Sendable {
    public init() {}

    /// Reads a whole GPX document from `stream`.
    /// - Throws: ``ReadError`` with the line and column of the first problem.
    public func read(from stream: ByteStream) throws -> Activity {
        let parser = GPXParser(scanner: XMLScanner(stream: stream))
        return try parser.parse()
    }
}

/// The state machine behind ``GPXReader``: one instance per document.
private final class GPXParser {
    private enum Context: UInt8 {
        case gpx, metadata, track, segment, route, point, pointExtensions, field, other
    }

    private enum Field {
        case metadataName, metadataDescription, metadataTime
        case trackName, trackType, routeName, pointName
        case elevation, time, heartRate, cadence, temperature
    }

    private enum PointKind { case trackPoint, routePoint, waypoint }

    private let scanner: XMLScanner
    // Unchecked exclusivity on the three properties changed per element or per point: the
    // runtime checks on them cost 24 M of 445 M instructions reading + measuring a 20,000-point
    // GPX (contexts 19 M, point 3 M, segment 2 M; callgrind, 2026-11-24). Private to the parser.
    @exclusivity(unchecked) private var contexts: [Context] = []
    private var activity = Activity(format: .gpx)

    private var track = Track()
    @exclusivity(unchecked) private var segment: [TrackPoint] = []
    private var hasOpenSegment = false
    private var route = Route()
    @exclusivity(unchecked) private var point = TrackPoint(latitude: 0, longitude: 0)
    private var pointName: String?
    private var pointKind = PointKind.trackPoint

    private var field: Field?
    /// The captured text of the current field.
    private let text = XMLTextCapture()
    private var sawZonelessTime = false
    private var skipped = SkippedValues()

    init(scanner: XMLScanner) {
        self.scanner = scanner
        contexts.reserveCapacity(16)
    }

    func parse() throws -> Activity {
        while true {
            switch try scanner.next() {
            case .start(let name):
                try start(name.localName)
            case .end:
                try end()
            case .text(let span, let hasReferences):
                if field != nil { text.append(span, hasReferences: hasReferences) }
            case .endOfDocument:
                activity.warnAboutTimesGoingBack()
                if sawZonelessTime {
                    activity.warnings.append("times without a time zone were taken as UTC")
                }
                if let warning = skipped.warning { activity.warnings.append(warning) }
                return activity
            }
        }
    }

    // MARK: - Elements

    private func start(_ name: ByteSpan) throws {
        guard let parent = contexts.last else {
            guard name.equals("gpx") else {
                throw ReadError.unrecognizedFormat("the root element is <\(name.string)>, not <gpx>")
            }
            if let version = scanner.attribute("version")?.value {
                activity.format = version.equals("1.0") ? .gpx10 : version.equals("1.1") ? .gpx11 : .gpx
            }
            if let creator = scanner.attribute("creator") {
                activity.metadata.creator =
                    creator.hasReferences
                    ? XMLScanner.decodeText(creator.value) : creator.value.string
            }
            contexts.append(.gpx)
            return
        }
        let context: Context
        switch parent {
        case .gpx:
            if name.equals("trk") {
                track = Track()
                context = .track
            } else if name.equals("wpt") {
                try startPoint(.waypoint)
                context = .point
            } else if name.equals("rte") {
                route = Route()
                context = .route
            } else if name.equals("metadata") {
                context = .metadata
            } else {
                // GPX 1.0 keeps name, desc and time directly under <gpx>.
                context = capture(
                    name.equals("name")
                        ? .metadataName
                        : name.equals("desc")
                            ? .metadataDescription
                            : name.equals("time") ? .metadataTime : nil)
            }
        case .metadata:
            context = capture(
                name.equals("name")
                    ? .metadataName
                    : name.equals("desc")
                        ? .metadataDescription
                        : name.equals("time") ? .metadataTime : nil)
        case .track:
            if name.equals("trkseg") {
                segment = []
                hasOpenSegment = true
                context = .segment
            } else if name.equals("trkpt") {
                // Not valid GPX, but written by some tools: points straight under <trk>.
                if !hasOpenSegment {
                    segment = []
                    hasOpenSegment = true
                }
                try startPoint(.trackPoint)
                context = .point
            } else {
                context = capture(name.equals("name") ? .trackName : name.equals("type") ? .trackType : nil)
            }
        case .segment:
            if name.equals("trkpt") {
                try startPoint(.trackPoint)
                context = .point
            } else {
                context = .other
            }
        case .route:
            if name.equals("rtept") {
                try startPoint(.routePoint)
                context = .point
            } else {
                context = capture(name.equals("name") ? .routeName : nil)
            }
        case .point:
            if name.equals("ele") {
                context = capture(.elevation)
            } else if name.equals("time") {
                context = capture(.time)
            } else if name.equals("extensions") {
                context = .pointExtensions
            } else if name.equals("name") && pointKind != .trackPoint {
                context = capture(.pointName)
            } else {
                context = .other
            }
        case .pointExtensions:
            if name.equalsIgnoringCase("hr") || name.equalsIgnoringCase("heartrate") {
                context = capture(.heartRate)
            } else if name.equalsIgnoringCase("cad") || name.equalsIgnoringCase("cadence") {
                context = capture(.cadence)
            } else if name.equalsIgnoringCase("atemp") || name.equalsIgnoringCase("temperature")
                || name.equalsIgnoringCase("temp")
            {
                context = capture(.temperature)
            } else {
                context = .pointExtensions  // TrackPointExtension and other wrappers
            }
        case .field, .other:
            context = .other
        }
        contexts.append(context)
    }

    private func capture(_ wanted: Field?) -> Context {
        guard let wanted else { return .other }
        field = wanted
        text.reset()
        return .field
    }

    private func end() throws {
        switch contexts.removeLast() {
        case .field:
            try finishField()
        case .point:
            finishPoint()
        case .segment:
            track.segments.append(TrackSegment(points: segment))
            segment = []
            hasOpenSegment = false
        case .track:
            if hasOpenSegment {
                track.segments.append(TrackSegment(points: segment))
                segment = []
                hasOpenSegment = false
            }
            activity.tracks.append(track)
        case .route:
            activity.routes.append(route)
        case .gpx, .metadata, .pointExtensions, .other:
            break
        }
    }

    // MARK: - Points

    private func startPoint(_ kind: PointKind) throws {
        pointKind = kind
        pointName = nil
        let latitude = try coordinateAttribute("lat", limit: 90)
        let longitude = try coordinateAttribute("lon", limit: 180)
        point = TrackPoint(latitude: latitude, longitude: longitude)
    }

    private func coordinateAttribute(_ name: StaticString, limit: Double) throws -> Double {
        guard let attribute = scanner.attribute(name) else {
            throw invalid("<\(elementName)> has no \(name) attribute")
        }
        let raw = attribute.value
        guard let value = DecimalParser.parseDouble(raw.start, count: raw.count) else {
            throw invalid("<\(elementName)> has an invalid \(name) \"\(ReadError.excerpt(raw.string))\"")
        }
        guard abs(value) <= limit else {
            throw invalid(
                "<\(elementName)> \(name)=\"\(ReadError.excerpt(raw.string))\" is outside -\(Int(limit))…\(Int(limit))")
        }
        return value
    }

    private var elementName: String {
        switch pointKind {
        case .trackPoint: return "trkpt"
        case .routePoint: return "rtept"
        case .waypoint: return "wpt"
        }
    }

    private func finishPoint() {
        switch pointKind {
        case .trackPoint: segment.append(point)
        case .routePoint: route.points.append(point)
        case .waypoint: activity.waypoints.append(Waypoint(name: pointName, point: point))
        }
    }

    // MARK: - Fields

    private func finishField() throws {
        guard let current = field else { return }
        field = nil
        switch current {
        case .elevation: point.elevationMeters = try number("elevation")
        case .heartRate: point.heartRateBPM = skipped.tolerating { try number("heart rate") }
        case .cadence: point.cadence = skipped.tolerating { try number("cadence") }
        case .temperature: point.temperatureCelsius = skipped.tolerating { try number("temperature") }
        case .time: point.time = try time()
        case .metadataTime: activity.metadata.time = try time()
        case .metadataName: activity.metadata.name = text.string()
        case .metadataDescription: activity.metadata.description = text.string()
        case .trackName: track.name = text.string()
        case .trackType: track.type = text.string()
        case .routeName: route.name = text.string()
        case .pointName: pointName = text.string()
        }
    }

    /// The captured text as a number; an empty element means "absent". Extension values are not
    /// the course: one that cannot be read (`null`, `--`) is left out through ``SkippedValues``.
    @inline(__always) private func number(_ what: String) throws -> Double? {
        try text.number(what, at: scanner)
    }

    private func time() throws -> Date? {
        try text.date(at: scanner, sawZoneless: &sawZonelessTime)
    }

    private func invalid(_ message: String) -> ReadError {
        scanner.invalid(message)
    }
}
