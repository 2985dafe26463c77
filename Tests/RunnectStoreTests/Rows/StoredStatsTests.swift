import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Store: the stats column's own versioned format")
struct StoredStatsTests {
    /// Version 1's keys as schema version 1 wrote them (see Tests/Fixtures/store-v1): frozen, so
    /// that renaming a `--json` key cannot silently change what is stored.
    static let versionOneKeys: Set<String> = [
        "avg_cadence_spm", "avg_heart_rate_bpm", "avg_pace_s_per_km", "bounds", "distance_3d_m", "distance_m",
        "elapsed_time_s", "elevation_gain_m", "elevation_loss_m", "end_time", "max_cadence_spm",
        "max_elevation_m", "max_heart_rate_bpm", "max_speed_m_s", "min_elevation_m", "moving_pace_s_per_km",
        "moving_time_s", "points", "segments", "start_time",
    ]

    @Test("a sample's stats are written with version 1's keys and read back equal", arguments: SampleTracks.files)
    func roundTrip(file: String) throws {
        let stats = try ActivityReader.read(path: SampleTracks.path(file)).stats()
        let json = try StoredStats(stats).json()
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == Self.versionOneKeys)
        let back = try StoredStats.decode(Data(json.utf8)).stats
        // What is stored is the figures at their JSON resolution: the output's own rounding.
        let output = try JSONDecoder().decode(ActivityStats.self, from: JSONEncoder().encode(stats))
        #expect(back == output)
    }

    @Test("every row of the schema-1 fixture reads, and writes back to the same text")
    func fixtureRows() async throws {
        let fixture = PackageFolder.url("Tests/Fixtures/store-v1/courses.sqlite")
        let texts = try await withTemporaryDirectory { folder -> [String] in
            let copy = folder.appendingPathComponent("courses.sqlite")
            try FileManager.default.copyItem(at: fixture, to: copy)
            let store = try await CourseStore(path: copy.path, user: "minji")
            return try await store.pool.read { try String.fetchAll($0, sql: "SELECT stats FROM course ORDER BY id") }
        }
        #expect(texts.count == 8)
        for text in texts {
            let stored = try StoredStats.decode(Data(text.utf8))
            #expect(try stored.json() == text)
        }
    }

    @Test("a newer version is refused, not misread")
    func newerVersion() {
        let json = #"{"v":2,"points":2,"segments":1,"distance_m":10}"#
        #expect(throws: DecodingError.self) { try StoredStats.decode(Data(json.utf8)) }
    }
}
