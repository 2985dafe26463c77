import Foundation

/// Reads FIT activity files (Garmin's binary Flexible and Interoperable Data Transfer protocol,
/// as written by Garmin, Suunto, COROS, Wahoo and Polar watches and by Strava).
///
/// Each FIT file of the stream (files may be chained) becomes one ``Track`` of one segment;
/// `record` messages become its points, a record without a position keeping its time, heart
/// rate and elevation with non-finite coordinates. Timer stop → start events become
/// ``Activity/timerPauses``: time that is never moving, while the track stays one segment (its
/// distance counts the hop across a pause, as the device's own GPX export does). `lap` messages
/// become ``Activity/laps`` and the `session` totals ``Activity/deviceTotals``.
///
/// Damage never loses what came before it: a truncated or corrupt file gives the records before
/// the damage and a warning naming the byte offset; it is an error only when no record precedes
/// it. A CRC mismatch is a warning. See `FITDecoder` (internal) for the protocol details.
public struct FITReader: Sendable {
    /// The activity and what else the file held.
    public struct Result: Sendable {
        /// Tracks (one per FIT file), laps, the device's totals, metadata and warnings.
        public var activity: Activity
        /// Message counts, the device, and where decoding stopped if the file was damaged.
        public var summary: FITSummary
    }

    public init() {}

    /// Reads a whole FIT stream.
    /// - Throws: ``ReadError/malformedBinary(_:byteOffset:)`` for a file that is not FIT or is
    ///   damaged before its first record; ``ReadError/io(_:)`` from the stream.
    public func read(from stream: ByteStream) throws -> Activity {
        try decode(from: stream).activity
    }

    /// Reads a whole FIT stream and says what it held.
    /// - Throws: As ``read(from:)``.
    /// - Complexity: O(n) in the bytes of the stream; memory grows with the records, not the bytes.
    public func decode(from stream: ByteStream) throws -> Result {
        let decoder = FITDecoder(stream: stream)
        var builder = FITActivityBuilder()
        let outcome: FITDecodeOutcome
        do {
            outcome = try decoder.decode(into: &builder)
        } catch let damage as FITDamage {
            throw ReadError.malformedBinary(damage.reason, byteOffset: damage.byteOffset)
        }
        if let damage = outcome.damage, builder.summary.recordCount == 0 {
            throw ReadError.malformedBinary(damage.reason, byteOffset: damage.byteOffset)
        }
        return builder.finish(outcome)
    }
}
