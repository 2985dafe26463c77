/// The few message and field numbers of the FIT profile Runnect reads, with the names of the
/// enumerations it reports (sport, manufacturer). Numbers are the profile's; the names are the
/// profile's own spellings.
enum FITProfile {
    /// `timestamp` (a `date_time`) has this number in every message.
    static let timestampField: UInt8 = 253

    enum Message {
        static let fileID: UInt16 = 0
        static let session: UInt16 = 18
        static let lap: UInt16 = 19
        static let record: UInt16 = 20
        static let event: UInt16 = 21
        static let activity: UInt16 = 34
    }

    enum FileID {
        static let type: UInt8 = 0, manufacturer: UInt8 = 1, product: UInt8 = 2
        static let timeCreated: UInt8 = 4, productName: UInt8 = 8
    }

    enum Record {
        static let positionLat: UInt8 = 0, positionLong: UInt8 = 1, altitude: UInt8 = 2
        static let heartRate: UInt8 = 3, cadence: UInt8 = 4, distance: UInt8 = 5, speed: UInt8 = 6
        static let temperature: UInt8 = 13, enhancedSpeed: UInt8 = 73, enhancedAltitude: UInt8 = 78
    }

    enum Event {
        static let event: UInt8 = 0, eventType: UInt8 = 1
        /// `event` value of the timer.
        static let timer: Int64 = 0
        /// `event_type` values: `start`, and the four kinds of stop.
        static let start: Int64 = 0
        static let stops: Set<Int64> = [1, 4, 8, 9]  // stop, stop_all, stop_disable, stop_disable_all
    }

    /// Fields `lap` and `session` share in meaning (their numbers differ from total_ascent on).
    struct Totals {
        let startTime: UInt8 = 2, elapsedTime: UInt8 = 7, timerTime: UInt8 = 8, distance: UInt8 = 9
        let calories: UInt8 = 11
        let ascent: UInt8
        let descent: UInt8
        let sport: UInt8
        static let lap = Totals(ascent: 21, descent: 22, sport: 25)
        static let session = Totals(ascent: 22, descent: 23, sport: 5)
    }

    enum Session {
        static let subSport: UInt8 = 6
    }

    enum Activity {
        static let localTimestamp: UInt8 = 5
    }

    /// Semicircles to degrees: 180 / 2³¹.
    static let degreesPerSemicircle = 180.0 / 2_147_483_648.0

    /// The profile's name for a `sport` value, or `sport N`.
    static func sportName(_ value: Int64) -> String {
        let names = [
            "generic", "running", "cycling", "transition", "fitness_equipment", "swimming",
            "basketball", "soccer", "tennis", "american_football", "training", "walking",
            "cross_country_skiing", "alpine_skiing", "snowboarding", "rowing", "mountaineering",
            "hiking", "multisport", "paddling",
        ]
        return value >= 0 && value < names.count ? names[Int(value)] : "sport \(value)"
    }

    /// The profile's name for a `sub_sport` value (the first few), or `sub sport N`.
    static func subSportName(_ value: Int64) -> String {
        let names = ["generic", "treadmill", "street", "trail", "track"]
        return value >= 0 && value < names.count ? names[Int(value)] : "sub sport \(value)"
    }

    /// A readable name for a `manufacturer` value, or `manufacturer N`.
    static func manufacturerName(_ value: Int64) -> String {
        let names: [Int64: String] = [
            1: "Garmin", 13: "Dynastream", 15: "Dynastream", 23: "Suunto",
            32: "Wahoo Fitness", 95: "Stryd", 123: "Polar", 255: "Development",
            260: "Zwift", 265: "Strava", 294: "COROS",
        ]
        return names[value] ?? "manufacturer \(value)"
    }
}
