import Foundation

/// Why a writer refused its input.
public enum WriteError: Error, Equatable, Sendable {
    /// GeoJSON `properties` must be a JSON object (or absent); the value encoded as something else.
    case propertiesNotAnObject(String)
    /// A preview size outside what the writer draws (width and height 16…8192 pixels).
    case invalidSize(width: Int, height: Int)
    /// A course or run file needs a path: at least two points with a position.
    case tooFewPoints(positioned: Int)
    /// A run is written with its own times, and these points have none.
    case missingTimes(count: Int)
    /// A course's pace must be a positive number of seconds per kilometre.
    case invalidPace(Double)
    /// FIT counts time in whole seconds from 1989-12-31 in 32 bits (dates from 1998-07-03 on):
    /// this time is outside.
    case timeOutOfRange(Date)
}

extension WriteError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .propertiesNotAnObject(let type):
            return "GeoJSON properties must encode as a JSON object; \(type) does not"
        case .invalidSize(let width, let height):
            return "preview size \(width)x\(height) is outside 16x16…8192x8192 pixels"
        case .tooFewPoints(let positioned):
            return "a course needs at least 2 points with a position to be written; this one has \(positioned)"
        case .missingTimes(let count):
            return "\(count) point(s) of the run have no time; write it as a course instead (runnect: --kind course)"
        case .invalidPace(let pace):
            return "the pace must be a positive number of seconds per kilometre, not \(pace)"
        case .timeOutOfRange(let date):
            return "the time \(ISO8601Format.string(secondsSince1970: date.timeIntervalSince1970)) is outside "
                + "what a FIT date can hold (1998-07-03 to 2126-02-06)"
        }
    }
}
