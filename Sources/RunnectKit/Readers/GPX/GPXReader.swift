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
        try read(from: stream, expectedBytes: nil)
    }

    /// `expectedBytes`: the document's size when known (a regular file), to size the points'
    /// storage once instead of growing it (see ``GPXParser/expectedBytes``).
    func read(from stream: ByteStream, expectedBytes: Int?) throws -> Activity {
        let parser = GPXParser(scanner: XMLScanner(stream: stream))
        parser.expectedBytes = expectedBytes
        return try parser.parse()
    }
}

/// The state machine behind ``GPXReader``: one instance per document, or per part of a document
/// read in two parts (see `GPXReader+Split.swift`).
final class GPXParser: XMLContextParser {
    enum Context: UInt8, XMLParserContext {
        case gpx, metadata, track, segment, route, point, pointExtensions, field, other
    }

    enum Field {
        case metadataName, metadataDescription, metadataTime
        case trackName, trackType, routeName, pointName
        case elevation, time, heartRate, cadence, temperature
    }

    private enum PointKind { case trackPoint, routePoint, waypoint }

    let scanner: XMLScanner
    // Unchecked exclusivity on the three properties changed per element or per point: the
    // runtime checks on them cost 24 M of 445 M instructions reading + measuring a 20,000-point
    // GPX (contexts 19 M, point 3 M, segment 2 M; callgrind, 2026-11-24). Private to the parser.
    @exclusivity(unchecked) var contexts: [Context] = []
    private(set) var activity = Activity(format: .gpx)

    var track = Track()
    @exclusivity(unchecked) var segment: [TrackPoint] = []
    var hasOpenSegment = false
    private var route = Route()
    @exclusivity(unchecked) private var point = TrackPoint(latitude: 0, longitude: 0)
    private var pointName: String?
    private var pointKind = PointKind.trackPoint

    var field: Field?
    /// The captured text of the current field.
    let text = XMLTextCapture()
    var sawZonelessTime = false
    var skipped = SkippedValues()

    /// Bytes the parse will read in all, when known: once, when a segment reaches
    /// ``pointsBeforeEstimate`` points, its storage is reserved for as many points as the bytes
    /// left would hold at its bytes per point so far. A long recording's points are then written
    /// once into storage that is never copied (growing by doubling wrote and page-faulted about
    /// 2.2 times the final storage: 57 MB for the 200,000 points of big.gpx), and what is reserved
    /// and never written costs address space, not memory. Once per document: a file of many
    /// segments grows all but the first as before.
    var expectedBytes: Int?
    static let pointsBeforeEstimate = 1024
    /// Where the open segment started, bytes into the document.
    private var segmentStartOffset = 0
    private var estimated = false

    /// A part of a split read: the activity is not the whole document's, so the end of the
    /// document leaves its times unchecked (the joined activity's are checked).
    var isPart = false
    /// A part's times (see ``endOfDocument(warnings:)``), when it reached its end.
    private(set) var timeSpan = TimeOrder.Span()
    /// A part that starts inside a track the part before it opened: until that track closes, its
    /// name and type are the other part's to set.
    var continuesTrack = false
    /// Whether this part set what the part before it may have set too (the document's metadata,
    /// or the name or type of the track it continues): the parts cannot simply be joined then.
    private(set) var setSharedState = false

    init(scanner: XMLScanner) {
        self.scanner = scanner
    }

    func endOfDocument(warnings: [String]) -> Activity {
        if isPart {
            // The part's times in document order, checked on its own thread: the joined
            // activity's are checked whole only when a part's go back, or the second part's
            // start before the first's end.
            var times = TimeOrder.Span()
            for track in activity.tracks { for segment in track.segments { times.add(segment.points) } }
            if scanner.stoppedInsideRoot {  // a first part: its last track and segment are still open
                for segment in track.segments { times.add(segment.points) }
                times.add(segment)
            }
            timeSpan = times
            return activity
        }
        activity.warnAboutTimesGoingBack()
        activity.warnings += warnings
        return activity
    }

    // MARK: - Elements

    static let rootName: StaticString = "gpx"

    func rootContext() -> Context {
        if let version = scanner.attribute("version")?.value {
            activity.format = version.equals("1.0") ? .gpx10 : version.equals("1.1") ? .gpx11 : .gpx
        }
        if let creator = scanner.attributeText("creator") { activity.metadata.creator = creator }
        return .gpx
    }

    func context(of name: ByteSpan, in parent: Context) throws -> Context {
        switch parent {
        case .gpx:
            if name.equals("trk") {
                track = Track()
                return .track
            } else if name.equals("wpt") {
                try startPoint(.waypoint)
                return .point
            } else if name.equals("rte") {
                route = Route()
                return .route
            } else if name.equals("metadata") {
                return .metadata
            }
            return capture(metadataField(name))  // GPX 1.0 keeps name, desc and time directly under <gpx>
        case .metadata:
            return capture(metadataField(name))
        case .track:
            if name.equals("trkseg") {
                segment = []
                segmentStartOffset = scanner.byteOffset
                hasOpenSegment = true
                return .segment
            } else if name.equals("trkpt") {
                // Not valid GPX, but written by some tools: points straight under <trk>.
                if !hasOpenSegment {
                    segment = []
                    segmentStartOffset = scanner.byteOffset
                    hasOpenSegment = true
                }
                try startPoint(.trackPoint)
                return .point
            }
            return capture(name.equals("name") ? .trackName : name.equals("type") ? .trackType : nil)
        case .segment:
            guard name.equals("trkpt") else { return .other }
            try startPoint(.trackPoint)
            return .point
        case .route:
            guard name.equals("rtept") else { return capture(name.equals("name") ? .routeName : nil) }
            try startPoint(.routePoint)
            return .point
        case .point:
            if name.equals("ele") {
                return capture(.elevation)
            } else if name.equals("time") {
                return capture(.time)
            } else if name.equals("extensions") {
                return .pointExtensions
            } else if name.equals("name") && pointKind != .trackPoint {
                return capture(.pointName)
            }
            return .other
        case .pointExtensions:
            if name.equalsIgnoringCase("hr") || name.equalsIgnoringCase("heartrate") {
                return capture(.heartRate)
            } else if name.equalsIgnoringCase("cad") || name.equalsIgnoringCase("cadence") {
                return capture(.cadence)
            } else if name.equalsIgnoringCase("atemp") || name.equalsIgnoringCase("temperature")
                || name.equalsIgnoringCase("temp")
            {
                return capture(.temperature)
            }
            return .pointExtensions  // TrackPointExtension and other wrappers
        case .field, .other:
            return .other
        }
    }

    /// `<name>`, `<desc>` and `<time>` of the document (under `<metadata>`, or `<gpx>` in GPX 1.0).
    private func metadataField(_ name: ByteSpan) -> Field? {
        name.equals("name")
            ? .metadataName : name.equals("desc") ? .metadataDescription : name.equals("time") ? .metadataTime : nil
    }

    func end(_ context: Context) {
        switch context {
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
            continuesTrack = false
        case .route:
            activity.routes.append(route)
        case .gpx, .metadata, .pointExtensions, .field, .other:
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
        case .trackPoint:
            segment.append(point)
            if segment.count == Self.pointsBeforeEstimate && !estimated { reserveForEstimate() }
        case .routePoint: route.points.append(point)
        case .waypoint: activity.waypoints.append(Waypoint(name: pointName, point: point))
        }
    }

    /// Reserves the open segment's storage for the points the rest of the document would hold
    /// (see ``expectedBytes``).
    @inline(never) private func reserveForEstimate() {
        estimated = true
        guard let expectedBytes else { return }
        let offset = scanner.byteOffset
        let bytesPerPoint = max(Double(offset - segmentStartOffset) / Double(segment.count), 16)
        let left = Double(max(expectedBytes - offset, 0))
        let estimate = Double(segment.count) + left / bytesPerPoint * 1.02 + 16
        segment.reserveCapacity(Int(min(estimate, Double(Int32.max))))
        if let reserved {
            segment.withUnsafeBufferPointer {
                if let base = $0.baseAddress {
                    reserved(UnsafeRawPointer(base), segment.capacity * MemoryLayout<TrackPoint>.stride)
                }
            }
        }
    }

    /// Told where the storage reserved for the estimate lies (start, bytes): a split read's first
    /// part hands it to the second, which readies its pages when it is done first.
    var reserved: ((UnsafeRawPointer, Int) -> Void)?

    // MARK: - Fields

    /// Extension values are not the course: one that cannot be read (`null`, `--`) is left out
    /// through ``SkippedValues``.
    func finish(_ field: Field) throws {
        switch field {
        case .elevation: point.elevationMeters = try number("elevation")
        case .heartRate: point.heartRateBPM = skipped.tolerating { try number("heart rate") }
        case .cadence: point.cadence = skipped.tolerating { try number("cadence") }
        case .temperature: point.temperatureCelsius = skipped.tolerating { try number("temperature") }
        case .time: point.time = try time()
        case .metadataTime:
            activity.metadata.time = try time()
            setSharedState = true
        case .metadataName:
            activity.metadata.name = text.string()
            setSharedState = true
        case .metadataDescription:
            activity.metadata.description = text.string()
            setSharedState = true
        case .trackName:
            track.name = text.string()
            if continuesTrack { setSharedState = true }
        case .trackType:
            track.type = text.string()
            if continuesTrack { setSharedState = true }
        case .routeName: route.name = text.string()
        case .pointName: pointName = text.string()
        }
    }

    private func invalid(_ message: String) -> ReadError {
        scanner.invalid(message)
    }
}
