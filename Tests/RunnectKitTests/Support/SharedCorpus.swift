import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// Comparisons of our figures with the shared corpus's reference ones (``SharedCorpus``).
extension SharedCorpus {
    /// The bounds bit for bit, or none when the reference has none.
    static func expectBounds(
        _ ours: Bounds?, _ reference: Any?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard let bounds = reference as? [String: Any] else {
            #expect(ours == nil, sourceLocation: sourceLocation)
            return
        }
        let ours = try #require(ours, sourceLocation: sourceLocation)
        #expect(ours.minLatitude == double(bounds["min_lat"]), sourceLocation: sourceLocation)
        #expect(ours.maxLatitude == double(bounds["max_lat"]), sourceLocation: sourceLocation)
        #expect(ours.minLongitude == double(bounds["min_lon"]), sourceLocation: sourceLocation)
        #expect(ours.maxLongitude == double(bounds["max_lon"]), sourceLocation: sourceLocation)
    }

    /// Expects `ours` to be the reference's ISO 8601 time within `toleranceSeconds`, or `nil`
    /// where the reference has none.
    static func expectTime(
        _ ours: Date?, _ reference: Any?, toleranceSeconds: Double,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard let text = reference as? String else {
            #expect(ours == nil, sourceLocation: sourceLocation)
            return
        }
        let expected = try #require(ISO8601Parser.parse(text), sourceLocation: sourceLocation)
        let actual = try #require(ours, sourceLocation: sourceLocation)
        #expect(
            abs(actual.timeIntervalSince1970 - expected.secondsSince1970) < toleranceSeconds,
            "\(actual) vs \(text)", sourceLocation: sourceLocation)
    }
}
