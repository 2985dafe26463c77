import Foundation

/// Writes a course as a FIT course file, or a run as a FIT activity file: the binary format
/// Garmin (and Suunto, COROS, Wahoo) watches take courses in.
///
/// A **course** (file type 6) holds, in this order: `file_id`; `course` (its name, sport
/// running); one `lap` (start and end, total time at the options' pace, total distance, ascent and
/// descent); a timer `event` start; a `course_point` "Start"; one `record` per point with its
/// position, altitude, its distance along the path (WGS84 geodesic, GeographicLib) and a time
/// computed at the options' pace; a `course_point` "Finish"; a timer `event` stop_disable_all.
///
/// A **run** (file type 4, an activity) holds `file_id`; a timer start `event`; a `record` per
/// point with its own time, position (or none), altitude, distance, heart rate, cadence and
/// temperature, with timer stop and start `event`s at its pauses (the activity's own, and the
/// gaps between its segments); a timer stop; a `lap` per segment, one `session` and the
/// `activity` message, with Runnect's figures (geodesic distance, elapsed and timer time, heart
/// rate and cadence averages and maxima, ascent and descent with 2 m hysteresis).
///
/// Positions are semicircles, round(degrees × 2³¹ / 180): about 8 nm of latitude, so a position
/// reads back within 1 cm (a longitude of exactly 180° is −180°). Altitudes are kept to 0.2 m
/// (the profile's scale), distances to the centimetre and times to the second, as FIT stores
/// them. Both CRCs are written: the header's, and the file's over header and data. The output is
/// streamed to the sink; the data size the header needs is found first by running the same
/// encoding into a counter, so nothing is held back.
///
/// ```swift
/// let fit = try FITWriter(options: ExportOptions(paceSecondsPerKilometer: 330)).data(for: activity)
/// ```
public struct FITWriter: CourseFileWriter {
    /// Course or run, name, pace.
    public var options: ExportOptions

    /// A writer with these options.
    public init(options: ExportOptions = ExportOptions()) {
        self.options = options
    }

    /// Seconds from the Unix epoch to FIT's, 1989-12-31T00:00:00Z.
    static let epochOffsetSeconds: Double = 631_065_600
    /// The range of FIT `date_time` values that are dates (smaller ones are relative times;
    /// 0xFFFFFFFF is "invalid").
    static let timestampRange: ClosedRange<Double> = 268_435_456...4_294_967_294

    /// The longest course name written, bytes of UTF-8 (cut at a character boundary).
    static let maximumNameBytes = 63

    /// Writes `activity` (its ``Activity/courseSegments``) as a FIT file into `sink`.
    /// - Parameters:
    ///   - activity: The course or run.
    ///   - sink: Where the bytes go, a chunk at a time.
    /// - Throws: ``WriteError`` before anything is written (too few points, untimed points of a
    ///   run, a time FIT cannot hold), or the sink's error.
    /// - Complexity: O(n) in the number of points, encoded twice (the first time only counted).
    public func write<Sink: ByteSink>(_ activity: Activity, to sink: inout Sink) throws {
        let plan = try ExportPlan(activity: activity, options: options, keepingUnpositioned: true, measuring: true)
        try Self.checkTimes(plan)
        var counter = FITEncoder(CountingSink(DiscardingSink()))
        try Self.messages(plan, into: &counter)
        let dataSize = try counter.finish().count - 2
        var encoder = FITEncoder(sink)
        try encoder.header(dataSize: dataSize)
        try Self.messages(plan, into: &encoder)
        sink = try encoder.finish()
    }

    private static func messages(_ plan: ExportPlan, into encoder: inout FITEncoder<some ByteSink>) throws {
        if plan.kind == .course {
            try courseMessages(plan, into: &encoder)
        } else {
            try runMessages(plan, into: &encoder)
        }
    }

    // MARK: - Course

    private static func courseMessages(_ plan: ExportPlan, into encoder: inout FITEncoder<some ByteSink>) throws {
        let start = timestamp(plan.startTime)
        let end = timestamp(plan.endTime)
        try fileID(type: FITWriterProfile.fileTypeCourse, created: start, into: &encoder)

        let name = nameBytes(plan.name)
        try encoder.define(
            Local.course, global: FITWriterProfile.course,
            [.string(FITWriterProfile.Course.name, size: name.count + 1), .enumeration(FITWriterProfile.Course.sport)])
        try encoder.begin(Local.course)
        try encoder.string(name, size: name.count + 1)
        try encoder.uint8(FITWriterProfile.sportRunning)

        var ascent = 0.0
        var descent = 0.0
        for segment in plan.segments {
            ascent += segment.measurement!.elevationGainMeters
            descent += segment.measurement!.elevationLossMeters
        }
        let hasElevation = plan.segments.contains { $0.measurement!.hasElevation }
        let seconds = plan.endTime.timeIntervalSince(plan.startTime)
        try lap(
            LapValues(
                index: 0, start: start, end: end, first: plan.firstPosition, last: plan.lastPosition,
                elapsedSeconds: seconds, timerSeconds: seconds, meters: plan.totalMeters,
                ascent: hasElevation ? ascent : nil, descent: hasElevation ? descent : nil),
            into: &encoder)

        try defineEvent(into: &encoder)
        try event(FITWriterProfile.eventTypeStart, at: start, into: &encoder)
        try encoder.define(Local.coursePoint, global: FITWriterProfile.coursePoint, FITWriterProfile.CoursePoint.fields)
        try coursePoint(0, "Start", plan.firstPosition, at: start, meters: 0, into: &encoder)
        try encoder.define(Local.record, global: FITProfile.Message.record, recordFields(run: false))
        for (s, segment) in plan.segments.enumerated() {
            for (i, point) in segment.points.enumerated() {
                try record(point, at: timestamp(plan.time(s, i)), meters: plan.meters(s, i), run: false, into: &encoder)
            }
        }
        try coursePoint(1, "Finish", plan.lastPosition, at: end, meters: plan.totalMeters, into: &encoder)
        try event(FITWriterProfile.eventTypeStopDisableAll, at: end, into: &encoder)
    }

    private static func coursePoint(
        _ index: UInt16, _ name: String, _ point: TrackPoint, at time: UInt32, meters: Double,
        into encoder: inout FITEncoder<some ByteSink>
    ) throws {
        try encoder.begin(Local.coursePoint)
        try encoder.uint16(index)
        try encoder.uint32(time)
        try encoder.sint32(semicircles(point.latitude))
        try encoder.sint32(semicircles(point.longitude))
        try encoder.uint32(centimeters(meters))
        try encoder.uint8(FITWriterProfile.coursePointGeneric)
        try encoder.string(Array(name.utf8), size: FITWriterProfile.CoursePoint.nameBytes)
    }

    // MARK: - Messages both files have

    /// Local message types: one per message kind, each defined once before its first use.
    enum Local {
        static let fileID: UInt8 = 0, course: UInt8 = 1, lap: UInt8 = 2, event: UInt8 = 3, record: UInt8 = 4
        static let coursePoint: UInt8 = 5, session: UInt8 = 6, activity: UInt8 = 7
    }

    static func fileID(type: UInt8, created: UInt32, into encoder: inout FITEncoder<some ByteSink>) throws {
        try encoder.define(
            Local.fileID, global: FITProfile.Message.fileID,
            [
                .enumeration(FITProfile.FileID.type), .uint16(FITProfile.FileID.manufacturer),
                .uint16(FITProfile.FileID.product), .uint32(FITProfile.FileID.timeCreated),
            ])
        try encoder.begin(Local.fileID)
        try encoder.uint8(type)
        try encoder.uint16(FITWriterProfile.manufacturerDevelopment)
        try encoder.uint16(0)
        try encoder.uint32(created)
    }

    /// A timer event (after ``defineEvent(into:)``).
    static func event(_ type: UInt8, at time: UInt32, into encoder: inout FITEncoder<some ByteSink>) throws {
        try encoder.begin(Local.event)
        try encoder.uint32(time)
        try encoder.uint8(UInt8(FITProfile.Event.timer))
        try encoder.uint8(type)
        try encoder.uint8(0)  // event_group
    }

    static func defineEvent(into encoder: inout FITEncoder<some ByteSink>) throws {
        try encoder.define(
            Local.event, global: FITProfile.Message.event,
            [
                .uint32(FITProfile.timestampField), .enumeration(FITProfile.Event.event),
                .enumeration(FITProfile.Event.eventType), .uint8(FITWriterProfile.eventGroupField),
            ])
    }

    static func recordFields(run: Bool) -> [FITField] {
        var fields: [FITField] = [
            .uint32(FITProfile.timestampField), .sint32(FITProfile.Record.positionLat),
            .sint32(FITProfile.Record.positionLong), .uint16(FITProfile.Record.altitude),
            .uint32(FITProfile.Record.distance),
        ]
        if run {
            fields += [
                .uint8(FITProfile.Record.heartRate), .uint8(FITProfile.Record.cadence),
                .sint8(FITProfile.Record.temperature),
            ]
        }
        return fields
    }

    static func record(
        _ point: TrackPoint, at time: UInt32, meters: Double, run: Bool, into encoder: inout FITEncoder<some ByteSink>
    ) throws {
        try encoder.begin(Local.record)
        try encoder.uint32(time)
        if SegmentMeasurement.hasPosition(point) {
            try encoder.sint32(semicircles(point.latitude))
            try encoder.sint32(semicircles(point.longitude))
        } else {
            try encoder.sint32(Int32.max)
            try encoder.sint32(Int32.max)
        }
        try encoder.uint16(altitude(point.elevationMeters))
        try encoder.uint32(centimeters(meters))
        if run {
            try encoder.uint8(GPXWriter.wholeNumber(point.heartRateBPM, in: 0...254).map(UInt8.init) ?? 0xFF)
            try encoder.uint8(GPXWriter.wholeNumber(point.cadence, in: 0...254).map(UInt8.init) ?? 0xFF)
            try encoder.sint8(GPXWriter.wholeNumber(point.temperatureCelsius, in: -127...126).map(Int8.init) ?? 0x7F)
        }
    }

    // MARK: - Values

    /// Degrees as semicircles, round(degrees × 2³¹ / 180); +180° is written as −180°.
    static func semicircles(_ degrees: Double) -> Int32 {
        let value = (degrees * 2_147_483_648 / 180).rounded()
        return value >= 2_147_483_648 ? Int32(value - 4_294_967_296) : Int32(value)
    }

    /// A date as FIT's `date_time`, whole seconds (checked by ``checkTimes(_:)``).
    static func timestamp(_ date: Date) -> UInt32 {
        UInt32((date.timeIntervalSince1970 - epochOffsetSeconds).rounded())
    }

    /// Metres as the profile's centimetres; invalid beyond 32 bits.
    static func centimeters(_ meters: Double) -> UInt32 {
        let value = (meters * 100).rounded()
        return value >= 0 && value < 4_294_967_295 ? UInt32(value) : UInt32.max
    }

    /// An altitude as the profile's `altitude`: (metres + 500) × 5, invalid outside −500…12,606 m.
    static func altitude(_ meters: Double?) -> UInt16 {
        guard let meters, meters.isFinite else { return UInt16.max }
        let value = ((meters + 500) * 5).rounded()
        return value >= 0 && value < 65_535 ? UInt16(value) : UInt16.max
    }

    /// The name as UTF-8, cut to ``maximumNameBytes`` at a character boundary.
    static func nameBytes(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for character in name {
            let utf8 = Array(character.utf8)
            if bytes.count + utf8.count > maximumNameBytes { break }
            bytes += utf8
        }
        return bytes
    }

    /// Refuses a time FIT cannot hold (every point of a run; a course's start and end).
    private static func checkTimes(_ plan: ExportPlan) throws {
        func check(_ date: Date) throws {
            guard timestampRange.contains((date.timeIntervalSince1970 - epochOffsetSeconds).rounded()) else {
                throw WriteError.timeOutOfRange(date)
            }
        }
        if plan.kind == .course {
            try check(plan.startTime)
            try check(plan.endTime)
        } else {
            for segment in plan.segments {
                for point in segment.points { try check(point.time!) }
            }
        }
    }
}
