import Foundation
import Testing
@testable import RunnectKit

/// Checks of Runnect's figures against one `reference.json` entry, shared by the corpus suites.
enum ReferenceExpectations {
    /// The bounds bit for bit, or none when the reference has none.
    static func bounds(_ ours: Bounds?, _ reference: Any?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let bounds = reference as? [String: Any] else {
            #expect(ours == nil, sourceLocation: sourceLocation)
            return
        }
        let ours = try #require(ours, sourceLocation: sourceLocation)
        #expect(ours.minLatitude == SharedCorpus.double(bounds["min_lat"]), sourceLocation: sourceLocation)
        #expect(ours.maxLatitude == SharedCorpus.double(bounds["max_lat"]), sourceLocation: sourceLocation)
        #expect(ours.minLongitude == SharedCorpus.double(bounds["min_lon"]), sourceLocation: sourceLocation)
        #expect(ours.maxLongitude == SharedCorpus.double(bounds["max_lon"]), sourceLocation: sourceLocation)
    }

    /// A time within `toleranceSeconds` of the reference's ISO 8601 text, or none when it has none.
    static func time(_ ours: Date?, _ reference: Any?, toleranceSeconds: Double = 1,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let text = reference as? String else {
            #expect(ours == nil, sourceLocation: sourceLocation)
            return
        }
        let expected = try #require(ISO8601Parser.parse(text), sourceLocation: sourceLocation)
        let actual = try #require(ours, sourceLocation: sourceLocation)
        #expect(abs(actual.timeIntervalSince1970 - expected.secondsSince1970) < toleranceSeconds,
                "\(actual) vs \(text)", sourceLocation: sourceLocation)
    }
}
