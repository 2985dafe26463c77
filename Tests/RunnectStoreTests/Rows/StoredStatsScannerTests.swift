import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Store: the stats column's fast reader agrees with JSONDecoder")
struct StoredStatsScannerTests {
    /// What `JSONDecoder` reads of `json` through the `Decodable` (the reference).
    static func decoded(_ json: String) throws -> ActivityStats {
        try JSONDecoder().decode(StoredStats.self, from: Data(json.utf8)).stats
    }

    @Test("a sample's stats as written read the same as JSONDecoder reads them", arguments: SampleTracks.files)
    func samples(file: String) throws {
        let stats = try ActivityReader.read(path: SampleTracks.path(file)).stats()
        let json = try StoredStats(stats).json()
        let fast = try #require(StoredStatsScanner.stats(Data(json.utf8)))
        #expect(fast == (try Self.decoded(json)))
    }

    /// Version 1 with every figure, the bounds and both times, and its text re-spaced and with
    /// the figures null.
    static let full = """
        {"avg_cadence_spm":171.5,"avg_heart_rate_bpm":148,"avg_pace_s_per_km":357.36,"bounds":{"max_lat":37.5095644380084,\
        "max_lon":126.92502258219731,"min_lat":-37.39045631770436,"min_lon":-0.0},"distance_3d_m":41620.631,\
        "distance_m":41620.455,"elapsed_time_s":14873.334,"elevation_gain_m":48.017,"elevation_loss_m":57.631,\
        "end_time":"2022-01-01T04:27:43.971Z","max_cadence_spm":190,"max_elevation_m":30,"max_heart_rate_bpm":181,\
        "max_speed_m_s":2.806,"min_elevation_m":-10.5e0,"moving_pace_s_per_km":357.36,"moving_time_s":1.4873334E4,\
        "points":120,"segments":1,"start_time":"2022-01-01T09:19:50.637+09:00"}
        """

    @Test("spacing, exponents, signed zero, a zone's offset and nulls read as JSONDecoder reads them")
    func forms() throws {
        let spaced = Self.full.replacingOccurrences(of: ",", with: " ,\n\t").replacingOccurrences(
            of: "\":", with: "\" : ")
        let nulls = #"{"points":0,"segments":0,"distance_m":0,"bounds":null,"start_time":null,"v":1}"#
        for json in [Self.full, " \(spaced) ", nulls] {
            let fast = try #require(StoredStatsScanner.stats(Data(json.utf8)), "\(json)")
            #expect(fast == (try Self.decoded(json)))
        }
        #expect(try Self.decoded(Self.full).bounds?.minLatitude == -37.39045631770436)
    }

    @Test(
        "any other form is left to JSONDecoder, which reads it or refuses it",
        arguments: [
            // Read by JSONDecoder: an escape, an unknown key.
            (#"{"points":1,"segments":1,"distance_m":2,"start_time":"2022-01-01T00:00:00\u005a"}"#, true),
            (#"{"points":1,"segments":1,"distance_m":2,"note":"x"}"#, true),
            (
                #"{"points":1,"segments":1,"distance_m":2,"bounds":{"min_lat":1,"min_lon":2,"max_lat":3,"max_lon":4,"x":5}}"#,
                true
            ),
            // Refused by JSONDecoder: a newer version, a missing or fractional count, not JSON numbers.
            (#"{"v":2,"points":1,"segments":1,"distance_m":2}"#, false),
            (#"{"segments":1,"distance_m":2}"#, false),
            (#"{"points":1.5,"segments":1,"distance_m":2}"#, false),
            (#"{"points":1,"segments":1,"distance_m":01}"#, false),
            (#"{"points":1,"segments":1,"distance_m":.5}"#, false),
            (#"{"points":1,"segments":1,"distance_m":1.}"#, false),
            (#"{"points":1,"segments":1,"distance_m":1e999}"#, false),
            (#"{"points":1,"segments":1,"distance_m":2,"start_time":"yesterday"}"#, false),
            (#"{"points":1,"segments":1,"distance_m":2,"bounds":{"min_lat":1}}"#, false),
            (#"{"points":1,"segments":1,"distance_m":2} x"#, false),
            (#"{"points":1,"segments":1,"distance_m":2"#, false),
        ])
    func otherForms(json: String, readable: Bool) throws {
        #expect(StoredStatsScanner.stats(Data(json.utf8)) == nil)
        if readable {
            #expect(try StoredStats.decode(Data(json.utf8)).stats == (try Self.decoded(json)))
        } else {
            #expect(throws: DecodingError.self) { try StoredStats.decode(Data(json.utf8)) }
        }
    }
}
