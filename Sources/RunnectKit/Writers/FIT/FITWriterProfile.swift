/// The message and field numbers and enumeration values of the FIT profile that ``FITWriter``
/// writes beyond those the reader knows (``FITProfile``); numbers are the profile's.
enum FITWriterProfile {
    static let course: UInt16 = 31
    static let coursePoint: UInt16 = 32

    /// `file` values of `file_id.type`.
    static let fileTypeActivity: UInt8 = 4
    static let fileTypeCourse: UInt8 = 6
    /// `manufacturer` 255: development (no device of a maker's own).
    static let manufacturerDevelopment: UInt16 = 255
    /// `sport` running, `sub_sport` generic.
    static let sportRunning: UInt8 = 1
    static let subSportGeneric: UInt8 = 0
    /// `event` values: session, lap and activity ends.
    static let eventSession: UInt8 = 8
    static let eventLap: UInt8 = 9
    static let eventActivity: UInt8 = 26
    /// `event_type` values: start, stop, stop_all, stop_disable_all.
    static let eventTypeStart: UInt8 = 0
    static let eventTypeStop: UInt8 = 1
    static let eventTypeStopAll: UInt8 = 4
    static let eventTypeStopDisableAll: UInt8 = 9
    /// `event.event_group`, the field.
    static let eventGroupField: UInt8 = 4
    /// `course_point` generic.
    static let coursePointGeneric: UInt8 = 0

    enum Course {
        static let sport: UInt8 = 4, name: UInt8 = 5
    }

    enum CoursePoint {
        static let timestamp: UInt8 = 1, positionLat: UInt8 = 2, positionLong: UInt8 = 3, distance: UInt8 = 4
        static let type: UInt8 = 5, name: UInt8 = 6
        /// "Start", "Finish" and their NUL fit in 16 bytes.
        static let nameBytes = 16
        static let fields: [FITField] = [
            .uint16(FITWriterProfile.messageIndex), .uint32(timestamp), .sint32(positionLat), .sint32(positionLong),
            .uint32(distance), .enumeration(type), .string(name, size: nameBytes),
        ]
    }

    /// `message_index`, in every message that has one.
    static let messageIndex: UInt8 = 254

    /// Fields `lap` and `session` write, as numbered in each (they differ from field 13 on).
    struct Totals {
        let event: UInt8 = 0, eventType: UInt8 = 1, startTime: UInt8 = 2, startLat: UInt8 = 3, startLong: UInt8 = 4
        let elapsedTime: UInt8 = 7, timerTime: UInt8 = 8, distance: UInt8 = 9
        let averageHeartRate: UInt8
        let maximumHeartRate: UInt8
        let averageCadence: UInt8
        let maximumCadence: UInt8
        let ascent: UInt8
        let descent: UInt8
        let sport: UInt8
        static let lap = Totals(
            averageHeartRate: 15, maximumHeartRate: 16, averageCadence: 17, maximumCadence: 18,
            ascent: 21, descent: 22, sport: 25)
        static let session = Totals(
            averageHeartRate: 16, maximumHeartRate: 17, averageCadence: 18, maximumCadence: 19,
            ascent: 22, descent: 23, sport: 5)
    }

    enum Lap {
        static let endLat: UInt8 = 5, endLong: UInt8 = 6
    }

    enum Session {
        static let subSport: UInt8 = 6, firstLapIndex: UInt8 = 25, numLaps: UInt8 = 26, trigger: UInt8 = 28
    }

    enum Activity {
        static let totalTimerTime: UInt8 = 0, numSessions: UInt8 = 1, type: UInt8 = 2, event: UInt8 = 3
        static let eventType: UInt8 = 4
    }
}
