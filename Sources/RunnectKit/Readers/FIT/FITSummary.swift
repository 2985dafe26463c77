/// What a FIT file held besides the activity itself: message counts, the device, and where
/// decoding stopped if the file was damaged. Given by ``FITReader/decode(from:)``.
public struct FITSummary: Sendable, Equatable {
    /// FIT files in the stream (more than one when files are chained).
    public var fileCount = 0
    /// `record` messages, with or without a position.
    public var recordCount = 0
    /// `record` messages with both a latitude and a longitude.
    public var recordsWithPosition = 0
    /// Timer `event` messages that start the timer.
    public var timerStartEvents = 0
    /// Timer `event` messages that stop it (`stop`, `stop_all`, `stop_disable`, `stop_disable_all`).
    public var timerStopEvents = 0
    /// Each `session` message's totals, in file order.
    public var sessions: [DeviceTotals] = []
    /// The local time zone's offset from UTC when the activity was recorded, seconds (from the
    /// `activity` message's `local_timestamp`); `nil` when the file does not say.
    public var localTimeOffsetSeconds: Int?
    /// The `file_id` manufacturer (a name for the common ones, else `manufacturer N`).
    public var manufacturer: String?
    /// The `file_id` product name, else its product number.
    public var product: String?
    /// Byte offset where decoding stopped at damage (truncation, an undefined local message…);
    /// `nil` when every file was read to its end.
    public var damageByteOffset: Int?

    public init() {}
}
