import Foundation

/// Writes a course or a run as GPX 1.1, the format every tool reads (gpxpy, GPSBabel, Strava,
/// Garmin Connect) and that watches import as a course.
///
/// - A **course** is one `<trk>` (what watches import as a course) with a `<trkseg>` per
///   segment: positions, and elevations where known. With ``writesRoutes`` it is one `<rte>` per
///   segment instead (a planned route).
/// - A **run** keeps, at every point with a position, its time and, in Garmin's
///   `gpxtpx:TrackPointExtension` (v1), its heart rate, cadence and air temperature.
///
/// The document validates against the GPX 1.1 schema and Garmin's TrackPointExtension v1
/// schema. Coordinates and elevations are written in the shortest decimal form that reads back
/// as the same `Double` (never rounded to a number of places); a longitude of exactly 180° is
/// written −180° (the schema's range is −180 ≤ lon < 180). Heart rates and cadences are whole
/// numbers in GPX, so they are rounded. Names lose controls and characters XML forbids, and
/// markup is escaped. The activity's waypoints become `<wpt>`s.
///
/// The text is handed to the sink in chunks as it is made (``ByteSink``): its memory does not
/// grow with the number of points.
///
/// ```swift
/// try OutputFile.write(to: "namsan.gpx") { sink in
///     try GPXWriter(options: ExportOptions(name: "남산 순환")).write(activity, to: &sink)
/// }
/// ```
public struct GPXWriter: CourseFileWriter {
    /// Course or run, name, description.
    public var options: ExportOptions
    /// Whether a course is written as `<rte>`s (one per segment) instead of one `<trk>`. Routes
    /// carry positions and elevations only, so a run is then written as a course.
    public var writesRoutes: Bool

    /// A writer with these options.
    /// - Parameters:
    ///   - options: Course or run, name, description.
    ///   - writesRoutes: `<rte>`s instead of a `<trk>`.
    public init(options: ExportOptions = ExportOptions(), writesRoutes: Bool = false) {
        self.options = options
        self.writesRoutes = writesRoutes
    }

    static let namespace = "http://www.topografix.com/GPX/1/1"
    static let extensionNamespace = "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"

    /// Writes `activity` (its ``Activity/courseSegments``) as a GPX document into `sink`.
    /// - Parameters:
    ///   - activity: The course or run.
    ///   - sink: Where the bytes go, a chunk at a time.
    /// - Throws: ``WriteError`` before anything is written (fewer than 2 positioned points; a run
    ///   with untimed points), or the sink's error.
    /// - Complexity: O(n) in the number of points; memory independent of the text's length.
    public func write<Sink: ByteSink>(_ activity: Activity, to sink: inout Sink) throws {
        var options = options
        if writesRoutes { options.kind = .course }
        let plan = try ExportPlan(activity: activity, options: options, keepingUnpositioned: false, measuring: false)
        let isRun = plan.kind == .run
        var out = ChunkedOutput(sink)

        var schemas = "\(Self.namespace) http://www.topografix.com/GPX/1/1/gpx.xsd"
        var root = "<gpx version=\"1.1\" creator=\"Runnect\" xmlns=\"\(Self.namespace)\""
        if isRun {
            root += " xmlns:gpxtpx=\"\(Self.extensionNamespace)\""
            schemas += " \(Self.extensionNamespace) http://www.garmin.com/xmlschemas/TrackPointExtensionv1.xsd"
        }
        root += " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"\(schemas)\">\n"
        try out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + root)

        let name = XMLText.escaped(plan.name)
        let description = plan.description.map(XMLText.escaped)
        var metadata = " <metadata><name>\(name)</name>"
        if let description { metadata += "<desc>\(description)</desc>" }
        if isRun { metadata += "<time>\(Self.timestamp(plan.startTime))</time>" }
        try out.append(metadata + "</metadata>\n")

        for waypoint in plan.waypoints {
            let label = waypoint.name.map(XMLText.oneLine).flatMap { $0.isEmpty ? nil : XMLText.escaped($0) }
            try Self.point(waypoint.point, " <wpt", run: false, name: label, end: "</wpt>\n", into: &out)
        }

        if writesRoutes {
            for segment in plan.segments {
                try out.append(" <rte><name>\(name)</name>\n")
                for point in segment.points {
                    try Self.point(point, "  <rtept", run: false, end: "</rtept>\n", into: &out)
                }
                try out.append(" </rte>\n")
            }
        } else {
            var header = " <trk><name>\(name)</name>"
            if let description { header += "<desc>\(description)</desc>" }
            try out.append(header + "<type>running</type>\n")
            for segment in plan.segments {
                try out.append("  <trkseg>\n")
                for point in segment.points {
                    try Self.point(point, "   <trkpt", run: isRun, end: "</trkpt>\n", into: &out)
                }
                try out.append("  </trkseg>\n")
            }
            try out.append(" </trk>\n")
        }
        try out.append("</gpx>\n")
        try out.flush()
        sink = out.sink
    }

    // MARK: - Points

    /// `open` (`<trkpt`, `<rtept`, `<wpt`) with the position, then the elevation, a run's time and
    /// gpxtpx fields and a waypoint's name, then `end`; `/>` when there is nothing inside. Written
    /// piece by piece into the output: no text of the point's own.
    private static func point(
        _ point: TrackPoint, _ open: String, run: Bool, name: String? = nil, end: String,
        into out: inout ChunkedOutput<some ByteSink>
    ) throws {
        try out.append(open)
        try out.append(" lat=\"")
        try out.append(decimal: point.latitude)
        try out.append("\" lon=\"")
        try out.append(decimal: schemaLongitude(point.longitude))
        let elevation = point.elevationMeters.flatMap { $0.isFinite ? $0 : nil }
        guard elevation != nil || run || name != nil else { return try out.append("\"/>\n") }
        try out.append("\">")
        if let elevation {
            try out.append("<ele>")
            try out.append(decimal: elevation)
            try out.append("</ele>")
        }
        if run {
            try out.append("<time>" + timestamp(point.time!) + "</time>")
            let celsius = point.temperatureCelsius.flatMap { $0.isFinite ? $0 : nil }
            let bpm = wholeNumber(point.heartRateBPM, in: 1...255)
            let cadence = wholeNumber(point.cadence, in: 0...254)
            if celsius != nil || bpm != nil || cadence != nil {
                try out.append("<extensions><gpxtpx:TrackPointExtension>")
                if let celsius {
                    try out.append("<gpxtpx:atemp>")
                    try out.append(decimal: celsius)
                    try out.append("</gpxtpx:atemp>")
                }
                if let bpm { try out.append("<gpxtpx:hr>\(bpm)</gpxtpx:hr>") }
                if let cadence { try out.append("<gpxtpx:cad>\(cadence)</gpxtpx:cad>") }
                try out.append("</gpxtpx:TrackPointExtension></extensions>")
            }
        }
        if let name { try out.append("<name>" + name + "</name>") }
        try out.append(end)
    }

    /// ISO 8601 UTC to the millisecond, as the readers read it.
    static func timestamp(_ date: Date) -> String {
        ISO8601Format.string(secondsSince1970: date.timeIntervalSince1970)
    }

    /// A longitude as the GPX and TCX schemas take it: −180 ≤ lon < 180.
    static func schemaLongitude(_ longitude: Double) -> Double {
        longitude == 180 ? -180 : longitude
    }

    /// `value` rounded, when it is finite and the rounded value is in `range`.
    static func wholeNumber(_ value: Double?, in range: ClosedRange<Int>) -> Int? {
        guard let value, value.isFinite, value > Double(Int32.min), value < Double(Int32.max) else { return nil }
        let whole = Int(value.rounded())
        return range.contains(whole) ? whole : nil
    }
}
