import Foundation

/// Turns the messages of ``FITDecoder`` into an ``Activity``: `record` → points (one segment per
/// FIT file, as the device's own GPX export has), timer `event` → ``Activity/timerPauses``,
/// `lap` → laps, `session` → device totals, `file_id` and `activity` → metadata.
struct FITActivityBuilder: FITMessageHandler {
    private(set) var summary = FITSummary()
    private var tracks: [Track] = []
    private var points: [TrackPoint] = []
    private var laps: [Lap] = []
    private var fileSport: String?
    private var firstSubSport: String?
    private var metadata = ActivityMetadata()
    private var sawFileID = false
    private var lastRecordDistanceMeters: Double?

    /// Time the timer was stopped at, while it is stopped.
    private var stoppedAt: Date?
    /// Timer stop → start intervals, in the order the file gives them.
    private var pauses: [DateInterval] = []
    /// Latest time of any message seen: the time of an event that carries none.
    private var latestTime: Date?

    mutating func fileBegins(index: Int, byteOffset: Int) {
        closeTrack()
        closePause(at: latestTime)
    }

    mutating func message(_ message: FITDataMessage) {
        switch message.globalNumber {
        case FITProfile.Message.record: record(message)
        case FITProfile.Message.event: event(message)
        case FITProfile.Message.lap:
            laps.append(
                Lap(
                    startTime: date(message.integer(FITProfile.Totals.lap.startTime)),
                    totals: totals(message, FITProfile.Totals.lap)))
        case FITProfile.Message.session: session(message)
        case FITProfile.Message.fileID: fileID(message)
        case FITProfile.Message.activity:
            if summary.localTimeOffsetSeconds == nil, let utc = message.timestamp,
                let local = message.integer(FITProfile.Activity.localTimestamp)
            {
                summary.localTimeOffsetSeconds = Int(local) - Int(utc)
            }
        default: break
        }
    }

    // MARK: - Messages

    private mutating func record(_ message: FITDataMessage) {
        summary.recordCount += 1
        var point: TrackPoint
        if let lat = message.integer(FITProfile.Record.positionLat),
            let lon = message.integer(FITProfile.Record.positionLong)
        {
            point = TrackPoint(
                latitude: Double(lat) * FITProfile.degreesPerSemicircle,
                longitude: Double(lon) * FITProfile.degreesPerSemicircle)
            summary.recordsWithPosition += 1
        } else {
            point = TrackPoint(latitude: .nan, longitude: .nan)
        }
        point.elevationMeters =
            message.scaled(FITProfile.Record.enhancedAltitude, scale: 5, offset: 500)
            ?? message.scaled(FITProfile.Record.altitude, scale: 5, offset: 500)
        point.time = date(message.timestamp.map(Int64.init))
        if let time = point.time { latestTime = max(latestTime ?? time, time) }
        Self.reading(message, FITProfile.Record.heartRate, scale: 1, into: &point, DeviceReadings.heartRate)
        Self.reading(message, FITProfile.Record.cadence, scale: 1, into: &point, DeviceReadings.cadence)
        Self.reading(message, FITProfile.Record.temperature, scale: 1, into: &point, DeviceReadings.temperature)
        if !Self.reading(message, FITProfile.Record.enhancedSpeed, scale: 1000, into: &point, DeviceReadings.speed) {
            Self.reading(message, FITProfile.Record.speed, scale: 1000, into: &point, DeviceReadings.speed)
        }
        Self.reading(message, FITProfile.Record.distance, scale: 100, into: &point, DeviceReadings.distance)
        if let distance = point.deviceDistanceMeters { lastRecordDistanceMeters = distance }
        points.append(point)
    }

    /// Sets the device reading `field` of `point` from the record field `number` (`raw / scale` in
    /// the reading's unit), straight from the integer when it is one (millions of records: no
    /// rounding through a double), else from its number as a float field gives it.
    /// - Returns: Whether the record had the field.
    @discardableResult
    @inline(__always)
    private static func reading(
        _ message: FITDataMessage, _ number: UInt8, scale: Int64, into point: inout TrackPoint,
        _ field: DeviceReadings.Field
    ) -> Bool {
        if let raw = message.integer(number) {
            point.setDeviceReading(field, whole: raw, stepsEach: Int64(field.stepsPerUnit) / scale)
            return true
        }
        guard let value = message.scaled(number, scale: Double(scale)) else { return false }
        point.setDeviceReading(field, value)
        return true
    }

    private mutating func event(_ message: FITDataMessage) {
        guard message.integer(FITProfile.Event.event) == FITProfile.Event.timer,
            let type = message.integer(FITProfile.Event.eventType)
        else { return }
        let time = date(message.timestamp.map(Int64.init)) ?? latestTime
        if let time { latestTime = max(latestTime ?? time, time) }
        if type == FITProfile.Event.start {
            summary.timerStartEvents += 1
            closePause(at: time)
        } else if FITProfile.Event.stops.contains(type) {
            summary.timerStopEvents += 1
            if stoppedAt == nil { stoppedAt = time }
        }
    }

    /// Ends the pause under way, if any, at `time`. Records written while the timer was stopped
    /// (Suunto writes one a second) stay in the track: their legs are not moving time.
    private mutating func closePause(at time: Date?) {
        defer { stoppedAt = nil }
        guard let start = stoppedAt, let end = time, end > start else { return }
        pauses.append(DateInterval(start: start, end: end))
    }

    private mutating func session(_ message: FITDataMessage) {
        let sessionTotals = totals(message, FITProfile.Totals.session)
        summary.sessions.append(sessionTotals)
        if fileSport == nil { fileSport = sessionTotals.sport }
        if firstSubSport == nil, let subSport = message.integer(FITProfile.Session.subSport) {
            firstSubSport = FITProfile.subSportName(subSport)
        }
    }

    private mutating func fileID(_ message: FITDataMessage) {
        guard !sawFileID else { return }
        sawFileID = true
        let manufacturer = message.integer(FITProfile.FileID.manufacturer).map(FITProfile.manufacturerName)
        let product =
            message.string(FITProfile.FileID.productName)
            ?? message.integer(FITProfile.FileID.product).map { "product \($0)" }
        summary.manufacturer = manufacturer
        summary.product = product
        metadata.time = date(message.integer(FITProfile.FileID.timeCreated))
        switch (manufacturer, product) {
        case (let maker?, let name?) where name.hasPrefix("product "): metadata.creator = "\(maker) (\(name))"
        case (_, let name?): metadata.creator = name
        case (let maker?, nil): metadata.creator = maker
        case (nil, nil): break
        }
    }

    /// The device totals of a `lap` or `session` message.
    private func totals(_ message: FITDataMessage, _ fields: FITProfile.Totals) -> DeviceTotals {
        DeviceTotals(
            distanceMeters: message.scaled(fields.distance, scale: 100),
            elapsedTimeSeconds: message.scaled(fields.elapsedTime, scale: 1000),
            timerTimeSeconds: message.scaled(fields.timerTime, scale: 1000),
            ascentMeters: message.number(fields.ascent),
            descentMeters: message.number(fields.descent),
            calories: message.number(fields.calories),
            sport: message.integer(fields.sport).map(FITProfile.sportName))
    }

    /// A FIT `date_time` as a date; values below 0x10000000 are relative times, not dates.
    private func date(_ value: Int64?) -> Date? {
        guard let value, value >= Int64(FITDecoder.minimumAbsoluteTimestamp), value <= Int64(UInt32.max) else {
            return nil
        }
        return Date(timeIntervalSince1970: FITDecoder.epochOffsetSeconds + Double(value))
    }

    // MARK: - Tracks

    /// One track per FIT file: its records in one segment.
    private mutating func closeTrack() {
        if !points.isEmpty {
            tracks.append(Track(type: fileSport, segments: [TrackSegment(points: points)]))
        }
        points = []
        fileSport = nil
    }

    // MARK: - Result

    mutating func finish(_ outcome: FITDecodeOutcome) -> FITReader.Result {
        closeTrack()
        // A stop never followed by a start ends the activity; records after it are not moving.
        closePause(at: latestTime)
        summary.fileCount = outcome.fileCount
        summary.damageByteOffset = outcome.damage?.byteOffset

        var warnings = outcome.warnings
        if let damage = outcome.damage {
            warnings.append(
                "byte \(damage.byteOffset): \(damage.reason); the figures are from the "
                    + "\(summary.recordCount) record(s) before it")
        }
        let device = deviceTotals()
        if summary.recordCount > 0 && summary.recordsWithPosition == 0 {
            let kind = firstSubSport == "treadmill" ? " (treadmill)" : ""
            let given =
                device?.distanceMeters.map { String(format: "time, heart rate and the device's distance (%.2f m)", $0) }
                ?? "time and heart rate"
            warnings.append(
                "none of the \(summary.recordCount) records has a position\(kind): \(given) are given, "
                    + "but no geodesic distance")
        }
        if let start = tracks.lazy.flatMap(\.segments).flatMap(\.points).compactMap(\.time).first
            ?? metadata.time
        {
            metadata.name = activityName(sport: summary.sessions.first?.sport, start: start)
        }
        var activity = Activity(
            format: .fit, metadata: metadata, tracks: tracks, warnings: warnings,
            laps: laps, deviceTotals: device,
            // Overlapping pauses (from chained files, or times that run backwards) joined.
            timerPauses: pauses.mergedInTimeOrder())
        activity.warnAboutTimesGoingBack()
        return FITReader.Result(activity: activity, summary: summary)
    }

    /// The sessions' totals added up; without a session, the last record's distance alone.
    private func deviceTotals() -> DeviceTotals? {
        guard !summary.sessions.isEmpty else {
            return lastRecordDistanceMeters.map { DeviceTotals(distanceMeters: $0) }
        }
        return DeviceTotals.summing(summary.sessions, sport: summary.sessions.lazy.compactMap(\.sport).first)
    }

    /// `Running 2019-06-15 05:42`: the sport and the local start time (UTC, said so, when the
    /// file gives no time zone), as watches name activities.
    private func activityName(sport: String?, start: Date) -> String {
        let offset = summary.localTimeOffsetSeconds
        let stamp = ISO8601Format.string(secondsSince1970: start.timeIntervalSince1970 + Double(offset ?? 0))
        let when = stamp.prefix(16).replacingOccurrences(of: "T", with: " ") + (offset == nil ? " UTC" : "")
        let words = (sport ?? "activity").replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst() + " " + when
    }
}
