import Foundation

/// Writes a course or a run as Garmin Training Center XML (TCX v2), which Garmin watches and
/// Garmin Connect import as a course.
///
/// - A **course** is a `<Courses><Course>`: its name (TCX allows 15 characters: longer names are
///   cut), one `<Lap>` with the total time at the options' pace and the total distance, a
///   `<Track>` per segment whose trackpoints carry the time at that pace and `DistanceMeters`
///   accumulated geodesically (WGS84, GeographicLib) along the whole path, and `CoursePoint`s
///   "Start" and "Finish".
/// - A **run** is an `<Activities><Activity Sport="Running">` with a `<Lap>` per segment (the
///   stretches between the recording's pauses; a TCX reader reads each lap's `<Track>` as one):
///   its start, timer time, geodesic distance, heart rate and cadence figures; trackpoints keep
///   their own times, heart rate, and running cadence (`TPX/RunCadence`, Garmin's
///   ActivityExtension v2). Points without a position stay, without `<Position>`, for their time
///   and heart rate. Calories, which TCX requires, are the source's laps' when it has one per
///   segment, else 0.
///
/// The document validates against the TCX v2 schema (with ActivityExtension v2). Coordinates
/// read back as the same `Double`s; a longitude of exactly 180° is written −180°. Distances are
/// written to the millimetre, times to the millisecond. Streamed to the sink in chunks, like
/// ``GPXWriter``.
public struct TCXWriter: CourseFileWriter {
    /// Course or run, name, description, pace.
    public var options: ExportOptions

    /// A writer with these options.
    public init(options: ExportOptions = ExportOptions()) {
        self.options = options
    }

    /// The longest course name TCX allows (`RestrictedToken_t`), characters.
    public static let maximumCourseNameLength = 15

    static let namespace = "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
    static let extensionNamespace = "http://www.garmin.com/xmlschemas/ActivityExtension/v2"

    /// Writes `activity` (its ``Activity/courseSegments``) as a TCX document into `sink`.
    /// - Parameters:
    ///   - activity: The course or run.
    ///   - sink: Where the bytes go, a chunk at a time.
    /// - Throws: ``WriteError`` before anything is written, or the sink's error.
    /// - Complexity: O(n) in the number of points (one geodesic per leg); memory independent of
    ///   the text's length.
    public func write<Sink: ByteSink>(_ activity: Activity, to sink: inout Sink) throws {
        let plan = try ExportPlan(activity: activity, options: options, keepingUnpositioned: true, measuring: true)
        var out = ChunkedOutput(sink)
        try out.append(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<TrainingCenterDatabase xmlns=\"\(Self.namespace)\" "
                + "xmlns:ns3=\"\(Self.extensionNamespace)\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                + "xsi:schemaLocation=\"\(Self.namespace) http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd "
                + "\(Self.extensionNamespace) http://www.garmin.com/xmlschemas/ActivityExtensionv2.xsd\">\n")
        if plan.kind == .course {
            try writeCourse(plan, into: &out)
        } else {
            try writeRun(plan, laps: activity.laps, into: &out)
        }
        try out.append("</TrainingCenterDatabase>\n")
        try out.flush()
        sink = out.sink
    }

    // MARK: - Course

    private func writeCourse(_ plan: ExportPlan, into out: inout ChunkedOutput<some ByteSink>) throws {
        let first = plan.firstPosition
        let last = plan.lastPosition
        // No Begin/End position or altitude: GPSBabel (1.8) then reads no trackpoint of the course.
        var lap = "<Lap><TotalTimeSeconds>" + Self.seconds(plan.endTime.timeIntervalSince(plan.startTime))
        lap += "</TotalTimeSeconds><DistanceMeters>" + Self.meters(plan.totalMeters) + "</DistanceMeters>"
        try out.append(
            " <Courses>\n  <Course>\n   <Name>" + XMLText.escaped(Self.courseName(plan.name)) + "</Name>\n   " + lap
                + "<Intensity>Active</Intensity></Lap>\n")
        for (s, segment) in plan.segments.enumerated() {
            try out.append("   <Track>\n")
            for (i, point) in segment.points.enumerated() {
                try Self.trackpoint(point, time: plan.time(s, i), meters: plan.meters(s, i), into: &out)
            }
            try out.append("   </Track>\n")
        }
        if let description = plan.description {
            try out.append("   <Notes>" + XMLText.escaped(description) + "</Notes>\n")
        }
        let ends = [("Start", first, plan.startTime), ("Finish", last, plan.endTime)]
        for (name, point, time) in ends {
            try out.append(
                "   <CoursePoint><Name>\(name)</Name><Time>" + GPXWriter.timestamp(time) + "</Time><Position>"
                    + Self.position(point) + "</Position>" + Self.altitude(point, "AltitudeMeters")
                    + "<PointType>Generic</PointType></CoursePoint>\n")
        }
        try out.append("  </Course>\n </Courses>\n")
    }

    /// The name cut to ``maximumCourseNameLength`` characters (Unicode scalars, as XML Schema
    /// counts them), never inside a character.
    static func courseName(_ name: String) -> String {
        var result = ""
        var count = 0
        for character in name {
            count += character.unicodeScalars.count
            if count > maximumCourseNameLength { break }
            result.append(character)
        }
        let trimmed = result.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? "Course" : trimmed
    }

    // MARK: - Run

    private func writeRun(_ plan: ExportPlan, laps: [Lap], into out: inout ChunkedOutput<some ByteSink>) throws {
        try out.append(
            " <Activities>\n  <Activity Sport=\"Running\">\n   <Id>" + GPXWriter.timestamp(plan.startTime) + "</Id>\n")
        for (s, segment) in plan.segments.enumerated() {
            let figures = RunLapFigures(plan: plan, segment: s)
            let calories = laps.count == plan.segments.count ? laps[s].totals.calories : nil
            var lap = "   <Lap StartTime=\"" + GPXWriter.timestamp(figures.start) + "\"><TotalTimeSeconds>"
            lap += Self.seconds(figures.timerSeconds) + "</TotalTimeSeconds><DistanceMeters>"
            lap += Self.meters(figures.meters) + "</DistanceMeters><Calories>"
            lap += "\(GPXWriter.wholeNumber(calories, in: 0...65535) ?? 0)</Calories>"
            if let average = GPXWriter.wholeNumber(figures.averageHeartRate, in: 1...255),
                let maximum = GPXWriter.wholeNumber(figures.maximumHeartRate, in: 1...255)
            {
                lap += "<AverageHeartRateBpm><Value>\(average)</Value></AverageHeartRateBpm>"
                lap += "<MaximumHeartRateBpm><Value>\(maximum)</Value></MaximumHeartRateBpm>"
            }
            try out.append(lap + "<Intensity>Active</Intensity><TriggerMethod>Manual</TriggerMethod>\n    <Track>\n")
            for (i, point) in segment.points.enumerated() {
                try Self.trackpoint(point, time: point.time!, meters: plan.meters(s, i), run: true, into: &out)
            }
            try out.append("    </Track>\n   </Lap>\n")
        }
        if let description = plan.description {
            try out.append("   <Notes>" + XMLText.escaped(description) + "</Notes>\n")
        }
        try out.append("  </Activity>\n </Activities>\n")
    }

    // MARK: - Pieces

    /// One `<Trackpoint>`, written piece by piece into the output (no text of its own).
    private static func trackpoint(
        _ point: TrackPoint, time: Date, meters: Double, run: Bool = false,
        into out: inout ChunkedOutput<some ByteSink>
    ) throws {
        try out.append("    <Trackpoint><Time>" + GPXWriter.timestamp(time) + "</Time>")
        if SegmentMeasurement.hasPosition(point) {
            try out.append("<Position><LatitudeDegrees>")
            try out.append(decimal: point.latitude)
            try out.append("</LatitudeDegrees><LongitudeDegrees>")
            try out.append(decimal: GPXWriter.schemaLongitude(point.longitude))
            try out.append("</LongitudeDegrees></Position>")
        }
        if let elevation = point.elevationMeters, elevation.isFinite {
            try out.append("<AltitudeMeters>")
            try out.append(decimal: elevation)
            try out.append("</AltitudeMeters>")
        }
        try out.append("<DistanceMeters>")
        try out.append(decimal: (meters * 1000).rounded() / 1000)
        try out.append("</DistanceMeters>")
        if run {
            if let bpm = GPXWriter.wholeNumber(point.heartRateBPM, in: 1...255) {
                try out.append("<HeartRateBpm><Value>\(bpm)</Value></HeartRateBpm>")
            }
            if let cadence = GPXWriter.wholeNumber(point.cadence, in: 0...254) {
                try out.append(
                    "<Extensions><ns3:TPX><ns3:RunCadence>\(cadence)</ns3:RunCadence></ns3:TPX></Extensions>")
            }
        }
        try out.append("</Trackpoint>\n")
    }

    @inline(__always)
    private static func position(_ point: TrackPoint) -> String {
        "<LatitudeDegrees>" + XMLText.decimal(point.latitude) + "</LatitudeDegrees><LongitudeDegrees>"
            + XMLText.decimal(GPXWriter.schemaLongitude(point.longitude)) + "</LongitudeDegrees>"
    }

    @inline(__always)
    private static func altitude(_ point: TrackPoint, _ element: String) -> String {
        guard let meters = point.elevationMeters, meters.isFinite else { return "" }
        return "<\(element)>" + XMLText.decimal(meters) + "</\(element)>"
    }

    /// Metres to the millimetre.
    static func meters(_ value: Double) -> String {
        XMLText.decimal((value * 1000).rounded() / 1000)
    }

    /// Seconds to the millisecond.
    static func seconds(_ value: Double) -> String {
        XMLText.decimal((value * 1000).rounded() / 1000)
    }
}
