import Foundation

extension FITWriter {
    /// What a `lap` message says (and, summed, a `session`).
    struct LapValues {
        var index: UInt16
        var start: UInt32
        var end: UInt32
        var first: TrackPoint?
        var last: TrackPoint?
        var elapsedSeconds: Double
        var timerSeconds: Double
        var meters: Double
        var averageHeartRate: Double? = nil
        var maximumHeartRate: Double? = nil
        var averageCadence: Double? = nil
        var maximumCadence: Double? = nil
        var ascent: Double?
        var descent: Double?
    }

    /// The activity file of a run: records with the timer events of its pauses, then a lap per
    /// segment, the session and the activity.
    static func runMessages(_ plan: ExportPlan, into encoder: inout FITEncoder<some ByteSink>) throws {
        let start = timestamp(plan.startTime)
        let end = max(timestamp(plan.endTime), start)
        try fileID(type: FITWriterProfile.fileTypeActivity, created: start, into: &encoder)
        try defineEvent(into: &encoder)
        try event(FITWriterProfile.eventTypeStart, at: start, into: &encoder)
        try encoder.define(Local.record, global: FITProfile.Message.record, recordFields(run: true))

        // Timer stop at a pause's start once a record comes after it, start again at its end.
        var pause = 0
        var stopped = false
        for (s, segment) in plan.segments.enumerated() {
            for (i, point) in segment.points.enumerated() {
                let time = point.time!
                while pause < plan.pauses.count {
                    if !stopped, plan.pauses[pause].start < time {
                        try event(
                            FITWriterProfile.eventTypeStopAll, at: timestamp(plan.pauses[pause].start), into: &encoder)
                        stopped = true
                    } else if stopped, plan.pauses[pause].end <= time {
                        try event(
                            FITWriterProfile.eventTypeStart, at: timestamp(plan.pauses[pause].end), into: &encoder)
                        stopped = false
                        pause += 1
                    } else {
                        break
                    }
                }
                try record(point, at: timestamp(time), meters: plan.meters(s, i), run: true, into: &encoder)
            }
        }
        if !stopped { try event(FITWriterProfile.eventTypeStopAll, at: end, into: &encoder) }

        var laps: [LapValues] = []
        for s in plan.segments.indices {
            let figures = RunLapFigures(plan: plan, segment: s)
            let points = plan.segments[s].points
            let lap = LapValues(
                index: UInt16(truncatingIfNeeded: s), start: timestamp(figures.start), end: timestamp(figures.end),
                first: points.first(where: SegmentMeasurement.hasPosition),
                last: points.last(where: SegmentMeasurement.hasPosition),
                elapsedSeconds: figures.end.timeIntervalSince(figures.start), timerSeconds: figures.timerSeconds,
                meters: figures.meters, averageHeartRate: figures.averageHeartRate,
                maximumHeartRate: figures.maximumHeartRate, averageCadence: figures.averageCadence,
                maximumCadence: figures.maximumCadence, ascent: figures.ascentMeters, descent: figures.descentMeters)
            try self.lap(lap, into: &encoder)
            laps.append(lap)
        }
        let timer = laps.reduce(0) { $0 + $1.timerSeconds }
        try session(summing: laps, plan: plan, start: start, end: end, into: &encoder)

        try encoder.define(
            Local.activity, global: FITProfile.Message.activity,
            [
                .uint32(FITProfile.timestampField), .uint32(FITWriterProfile.Activity.totalTimerTime),
                .uint16(FITWriterProfile.Activity.numSessions), .enumeration(FITWriterProfile.Activity.type),
                .enumeration(FITWriterProfile.Activity.event), .enumeration(FITWriterProfile.Activity.eventType),
            ])
        try encoder.begin(Local.activity)
        try encoder.uint32(end)
        try encoder.uint32(milliseconds(timer))
        try encoder.uint16(1)
        try encoder.uint8(0)  // manual
        try encoder.uint8(FITWriterProfile.eventActivity)
        try encoder.uint8(FITWriterProfile.eventTypeStop)
    }

    /// A `lap` message; the first one defines the layout.
    static func lap(_ lap: LapValues, into encoder: inout FITEncoder<some ByteSink>) throws {
        let fields = FITWriterProfile.Totals.lap
        if lap.index == 0 {
            try encoder.define(
                Local.lap, global: FITProfile.Message.lap,
                [.uint16(FITWriterProfile.messageIndex), .uint32(FITProfile.timestampField)] + totalsFields(fields)
                    + [.sint32(FITWriterProfile.Lap.endLat), .sint32(FITWriterProfile.Lap.endLong)])
        }
        try encoder.begin(Local.lap)
        try encoder.uint16(lap.index)
        try encoder.uint32(lap.end)
        try totals(lap, event: FITWriterProfile.eventLap, into: &encoder)
        try position(lap.last, into: &encoder)
    }

    private static func session(
        summing laps: [LapValues], plan: ExportPlan, start: UInt32, end: UInt32,
        into encoder: inout FITEncoder<some ByteSink>
    ) throws {
        var heartRate = SegmentMeasurement.Tally()
        var cadence = SegmentMeasurement.Tally()
        for segment in plan.segments {
            heartRate.add(segment.measurement!.heartRate)
            cadence.add(segment.measurement!.cadence)
        }
        let ascents = laps.compactMap(\.ascent)
        let descents = laps.compactMap(\.descent)
        let whole = LapValues(
            index: 0, start: start, end: end, first: laps.first?.first, last: laps.last?.last,
            elapsedSeconds: plan.endTime.timeIntervalSince(plan.startTime),
            timerSeconds: laps.reduce(0) { $0 + $1.timerSeconds }, meters: plan.totalMeters,
            averageHeartRate: heartRate.mean,
            maximumHeartRate: laps.compactMap(\.maximumHeartRate).max(),
            averageCadence: cadence.mean,
            maximumCadence: laps.compactMap(\.maximumCadence).max(),
            ascent: ascents.isEmpty ? nil : ascents.reduce(0, +),
            descent: descents.isEmpty ? nil : descents.reduce(0, +))
        let fields = FITWriterProfile.Totals.session
        try encoder.define(
            Local.session, global: FITProfile.Message.session,
            [.uint16(FITWriterProfile.messageIndex), .uint32(FITProfile.timestampField)] + totalsFields(fields)
                + [
                    .enumeration(FITWriterProfile.Session.subSport), .uint16(FITWriterProfile.Session.firstLapIndex),
                    .uint16(FITWriterProfile.Session.numLaps), .enumeration(FITWriterProfile.Session.trigger),
                ])
        try encoder.begin(Local.session)
        try encoder.uint16(0)
        try encoder.uint32(end)
        try totals(whole, event: FITWriterProfile.eventSession, into: &encoder)
        try encoder.uint8(FITWriterProfile.subSportGeneric)
        try encoder.uint16(0)
        try encoder.uint16(UInt16(truncatingIfNeeded: laps.count))
        try encoder.uint8(0)  // trigger: activity_end
    }

    /// The fields `lap` and `session` share, in the order ``totals(_:event:into:)`` writes them.
    private static func totalsFields(_ f: FITWriterProfile.Totals) -> [FITField] {
        [
            .enumeration(f.event), .enumeration(f.eventType), .uint32(f.startTime), .sint32(f.startLat),
            .sint32(f.startLong), .uint32(f.elapsedTime), .uint32(f.timerTime), .uint32(f.distance),
            .uint8(f.averageHeartRate), .uint8(f.maximumHeartRate), .uint8(f.averageCadence), .uint8(f.maximumCadence),
            .uint16(f.ascent), .uint16(f.descent), .enumeration(f.sport),
        ]
    }

    private static func totals(
        _ lap: LapValues, event: UInt8, into encoder: inout FITEncoder<some ByteSink>
    ) throws {
        func byte(_ value: Double?) -> UInt8 { GPXWriter.wholeNumber(value, in: 0...254).map(UInt8.init) ?? 0xFF }
        func meters16(_ value: Double?) -> UInt16 {
            GPXWriter.wholeNumber(value, in: 0...65534).map(UInt16.init) ?? UInt16.max
        }
        try encoder.uint8(event)
        try encoder.uint8(FITWriterProfile.eventTypeStop)
        try encoder.uint32(lap.start)
        try position(lap.first, into: &encoder)
        try encoder.uint32(milliseconds(lap.elapsedSeconds))
        try encoder.uint32(milliseconds(lap.timerSeconds))
        try encoder.uint32(centimeters(lap.meters))
        try encoder.uint8(byte(lap.averageHeartRate))
        try encoder.uint8(byte(lap.maximumHeartRate))
        try encoder.uint8(byte(lap.averageCadence))
        try encoder.uint8(byte(lap.maximumCadence))
        try encoder.uint16(meters16(lap.ascent))
        try encoder.uint16(meters16(lap.descent))
        try encoder.uint8(FITWriterProfile.sportRunning)
    }

    /// A latitude and a longitude in semicircles, or the invalid value for none.
    private static func position(_ point: TrackPoint?, into encoder: inout FITEncoder<some ByteSink>) throws {
        try encoder.sint32(point.map { semicircles($0.latitude) } ?? Int32.max)
        try encoder.sint32(point.map { semicircles($0.longitude) } ?? Int32.max)
    }

    /// Seconds as the profile's milliseconds; invalid beyond 32 bits.
    static func milliseconds(_ seconds: Double) -> UInt32 {
        let value = (seconds * 1000).rounded()
        return value >= 0 && value < 4_294_967_295 ? UInt32(value) : UInt32.max
    }
}
