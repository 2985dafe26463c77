import Foundation

/// Reads Garmin Training Center XML (TCX): activities → laps → tracks → trackpoints, and courses.
///
/// Each `<Activity>` becomes one ``Activity`` with one ``Track`` whose segments are the
/// activity's `<Track>` elements, in order (empty ones included): a lap's `<Track>` is a segment,
/// as a GPX `<trkseg>` is. Trackpoints keep time, position, altitude, heart rate, cadence (the
/// `<Cadence>` element, else the `TPX` extension's `RunCadence`), and the device's own distance
/// (`DistanceMeters`) and speed (`TPX/Speed`). A trackpoint without
/// `<Position>` is kept for its time and heart rate with a non-finite position, which the
/// analysis passes over (see ``ActivityStats/distanceMeters``). Laps are kept with the device's
/// totals (`TotalTimeSeconds`, `DistanceMeters`, `Calories`), and their sums are the activity's
/// ``Activity/deviceTotals``.
///
/// A `<Course>` (a planned route, `<Courses>`) becomes an ``Activity`` whose `<Track>`s are
/// ``Route``s, named after the course, and whose `<CoursePoint>`s are waypoints.
///
/// Like ``GPXReader``, the file is streamed through `XMLScanner` (no DOM, no DTD, no entity
/// expansion), elements are matched by local name, and whitespace or a byte order mark before the
/// XML declaration is accepted (Polar V800 exports start with spaces). Zone-less times are taken
/// as UTC, with a warning.
public struct TCXReader: Sendable {
    public init() {}

    /// Every activity and course of the document, in document order; one empty activity when the
    /// document holds none.
    /// - Throws: ``ReadError`` with the line and column of the first problem.
    public func readAll(from stream: ByteStream) throws -> [Activity] {
        try TCXParser(scanner: XMLScanner(stream: stream)).parse()
    }

    /// The whole document as one activity: the tracks, routes, waypoints and laps of all its
    /// activities and courses, with the device totals summed (see ``Activity/merging(_:format:)``).
    /// - Throws: ``ReadError`` with the line and column of the first problem.
    public func read(from stream: ByteStream) throws -> Activity {
        Activity.merging(try readAll(from: stream))
    }
}

/// The state machine behind ``TCXReader``: one instance per document.
private final class TCXParser: XMLContextParser {
    enum Context: UInt8, XMLParserContext {
        case root, activities, activity, creator, lap, track, trackpoint, position, heartRate, extensions
        case courses, course, coursePoint, field, other
    }

    enum Field {
        case activityID, notes, creatorName, courseName, pointName
        case lapTime, lapDistance, lapCalories
        case time, latitude, longitude, altitude, distance, heartRate, cadence, runCadence, speed
    }

    let scanner: XMLScanner
    // Unchecked exclusivity on contexts, segment, point and field, changed per element or per
    // point. Reading + measuring 20,000 TCX points (12 MB; runnect-bench gpx, release, callgrind,
    // 2026-11-24) took 634 M instructions with all runtime checks, 423 M without them on these
    // four (420 M with none in the module). Private to the parser, never accessed re-entrantly.
    @exclusivity(unchecked) var contexts: [Context] = []
    private var activities: [Activity] = []

    /// The `<Activity>` or `<Course>` being read.
    private var current = Activity(format: .tcx)
    private var isCourse = false
    private var track = Track()
    @exclusivity(unchecked) private var segment: [TrackPoint] = []
    private var lap = Lap()
    @exclusivity(unchecked) private var point = TrackPoint(latitude: .nan, longitude: .nan)
    private var runCadence: Double?
    private var pointName: String?

    @exclusivity(unchecked) var field: Field?
    let text = XMLTextCapture()
    var sawZonelessTime = false
    var skipped = SkippedValues()

    init(scanner: XMLScanner) {
        self.scanner = scanner
    }

    func endOfDocument(warnings: [String]) -> [Activity] {
        if activities.isEmpty { activities.append(Activity(format: .tcx)) }
        for index in activities.indices { activities[index].warnings += warnings }
        return activities
    }

    // MARK: - Elements

    static let rootName: StaticString = "TrainingCenterDatabase"

    func rootContext() -> Context { .root }

    func context(of name: ByteSpan, in parent: Context) throws -> Context {
        switch parent {
        case .root:
            return name.equals("Activities") ? .activities : name.equals("Courses") ? .courses : .other
        case .activities:
            if name.equals("Activity") {
                startActivity(course: false)
                track.type = nonEmpty(scanner.attributeText("Sport"))
                return .activity
            } else if name.equals("MultiSportSession") || name.equals("FirstSport") || name.equals("NextSport") {
                return .activities  // their <Activity>s are read like any other
            }
            return .other
        case .courses:
            guard name.equals("Course") else { return .other }
            startActivity(course: true)
            return .course
        case .activity:
            if name.equals("Lap") {
                startLap()
                return .lap
            } else if name.equals("Creator") {
                return .creator
            }
            return capture(name.equals("Id") ? .activityID : name.equals("Notes") ? .notes : nil)
        case .course:
            if name.equals("Lap") {
                startLap()
                return .lap
            } else if name.equals("Track") {
                segment = []
                return .track
            } else if name.equals("CoursePoint") {
                startPoint()
                return .coursePoint
            }
            return capture(name.equals("Name") ? .courseName : name.equals("Notes") ? .notes : nil)
        case .creator:
            return capture(name.equals("Name") ? .creatorName : nil)
        case .lap:
            guard !name.equals("Track") else {
                segment = []
                return .track
            }
            return capture(
                name.equals("TotalTimeSeconds")
                    ? .lapTime
                    : name.equals("DistanceMeters")
                        ? .lapDistance
                        : name.equals("Calories") ? .lapCalories : nil)
        case .track:
            guard name.equals("Trackpoint") else { return .other }
            startPoint()
            return .trackpoint
        case .trackpoint, .coursePoint:
            if name.equals("Position") {
                return .position
            } else if name.equals("HeartRateBpm") {
                return .heartRate
            } else if name.equals("Extensions") {
                return .extensions
            } else if name.equals("Time") {
                return capture(.time)
            } else if name.equals("AltitudeMeters") {
                return capture(.altitude)
            } else if name.equals("Cadence") {
                return capture(.cadence)
            } else if name.equals("DistanceMeters") && parent == .trackpoint {
                return capture(.distance)
            } else if name.equals("Name") && parent == .coursePoint {
                return capture(.pointName)
            }
            return .other
        case .position:
            return capture(
                name.equals("LatitudeDegrees") ? .latitude : name.equals("LongitudeDegrees") ? .longitude : nil)
        case .heartRate:
            return capture(name.equals("Value") ? .heartRate : nil)
        case .extensions:
            // TPX (ActivityExtension v2) under any prefix.
            return name.equals("RunCadence")
                ? capture(.runCadence) : name.equals("Speed") ? capture(.speed) : .extensions
        case .field, .other:
            return .other
        }
    }

    func end(_ context: Context) {
        switch context {
        case .trackpoint:
            if point.cadence == nil { point.cadence = runCadence }
            segment.append(point)
        case .coursePoint:
            current.waypoints.append(Waypoint(name: pointName, point: point))
        case .track:
            if isCourse {
                current.routes.append(Route(points: segment))  // named after the course at its end
            } else {
                track.segments.append(TrackSegment(points: segment))
            }
            segment = []
        case .lap:
            current.laps.append(lap)
        case .activity, .course:
            finishActivity()
        case .root, .activities, .creator, .position, .heartRate, .extensions, .courses, .field, .other:
            break
        }
    }

    private func startActivity(course: Bool) {
        current = Activity(format: .tcx)
        isCourse = course
        track = Track()
    }

    private func finishActivity() {
        if !isCourse { current.tracks = [track] }
        for index in current.routes.indices where current.routes[index].name == nil {
            current.routes[index].name = current.metadata.name
        }
        current.deviceTotals = DeviceTotals.summing(current.laps.map(\.totals), sport: track.type)
        current.warnAboutTimesGoingBack()
        activities.append(current)
    }

    private func startLap() {
        lap = Lap()
        lap.startTime = nonEmpty(scanner.attributeText("StartTime")).flatMap { ISO8601Parser.parse($0) }.map { parsed in
            if !parsed.hadZone { sawZonelessTime = true }
            return Date(timeIntervalSince1970: parsed.secondsSince1970)
        }
    }

    private func startPoint() {
        point = TrackPoint(latitude: .nan, longitude: .nan)
        runCadence = nil
        pointName = nil
    }

    /// An attribute's value; `nil` when it is absent or empty.
    private func nonEmpty(_ value: String?) -> String? {
        value?.isEmpty == false ? value : nil
    }

    // MARK: - Fields

    func finish(_ field: Field) throws {
        switch field {
        case .time: point.time = try time()
        case .latitude: point.latitude = try coordinate("latitude", limit: 90) ?? .nan
        case .longitude: point.longitude = try coordinate("longitude", limit: 180) ?? .nan
        case .altitude: point.elevationMeters = try number("altitude")
        case .heartRate: point.heartRateBPM = try number("heart rate")
        case .cadence: point.cadence = try number("cadence")
        case .runCadence: runCadence = skipped.tolerating { try number("run cadence") }
        case .speed: point.deviceSpeedMetersPerSecond = skipped.tolerating { try number("speed") }
        case .distance: point.deviceDistanceMeters = try number("distance")
        case .lapTime: lap.totals.timerTimeSeconds = try number("lap time")
        case .lapDistance: lap.totals.distanceMeters = try number("lap distance")
        case .lapCalories: lap.totals.calories = try number("calories")
        case .activityID: current.metadata.time = try time()
        case .notes: current.metadata.description = text.string()
        case .creatorName: current.metadata.creator = text.string()
        case .courseName: current.metadata.name = text.string()
        case .pointName: pointName = text.string()
        }
    }

    private func coordinate(_ what: String, limit: Double) throws -> Double? {
        guard let value = try number(what) else { return nil }
        guard abs(value) <= limit else {
            throw scanner.invalid("\(what) \(ReadError.excerpt(text.raw)) is outside -\(Int(limit))…\(Int(limit))")
        }
        return value
    }
}
