import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

@Suite("Analysis: ActivityStats JSON")
struct ActivityStatsJSONAnalysisTests {
    static let documentedKeys = [
        "points", "segments", "distance_m", "distance_3d_m", "elapsed_time_s", "moving_time_s",
        "avg_pace_s_per_km", "moving_pace_s_per_km", "max_speed_m_s", "elevation_gain_m",
        "elevation_loss_m", "min_elevation_m", "max_elevation_m", "bounds", "start_time", "end_time",
        "avg_heart_rate_bpm", "max_heart_rate_bpm", "avg_cadence_spm", "max_cadence_spm",
    ]

    /// What `runnect stats --json` writes: Foundation's encoder with sorted keys, because on Linux
    /// its unsorted key order changes from run to run.
    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private enum SharedNumber {
        static func double(_ value: Any?) -> Double? { SharedCorpus.double(value) }
    }

    /// Offsets of `"key":` in `text`, failing the test for a key that is missing.
    private func offsets(of keys: [String], in text: String) throws -> [Int] {
        try keys.map { key in
            let range = try #require(text.range(of: "\"\(key)\":"), "missing key \(key)")
            return text.distance(from: text.startIndex, to: range.lowerBound)
        }
    }

    @Test("Missing figures are null, every key is present, sorted and the same on every run")
    func nullsAndOrder() throws {
        let points = (0...4).map { AnalysisTrackBuilder.point(at: Double($0) * 10, seconds: nil) }
        let text = try json(ActivityStats(segments: [points]))

        let positions = try offsets(of: Self.documentedKeys.sorted(), in: text)
        #expect(positions == positions.sorted())
        #expect(try json(ActivityStats(segments: [points])) == text)
        for key in [
            "distance_3d_m", "elapsed_time_s", "moving_time_s", "avg_pace_s_per_km",
            "max_speed_m_s", "elevation_gain_m", "start_time", "end_time", "avg_heart_rate_bpm",
            "max_cadence_spm",
        ] {
            #expect(text.contains("\"\(key)\":null"), "\(key) should be null")
        }
        #expect(text.contains("\"points\":5") && text.contains("\"segments\":1"))
        #expect(!text.contains("\"splits\""))
        #expect(!text.contains("\"segment_stats\""))

        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == Set(Self.documentedKeys))
    }

    @Test("Foundation's JSONEncoder writes the same keys, nulls included, and decodes back")
    func foundationEncoder() throws {
        let points = (0...4).map { AnalysisTrackBuilder.point(at: Double($0) * 10, seconds: nil) }
        let stats = ActivityStats(segments: [points])
        let data = try JSONEncoder().encode(stats)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == Set(Self.documentedKeys))
        #expect(object["elapsed_time_s"] is NSNull)
        // Figures are written at their resolution (mm, ms): decoding and encoding again is stable.
        let decoded = try JSONDecoder().decode(ActivityStats.self, from: data)
        #expect(try json(decoded) == json(stats))
        #expect(abs(decoded.distanceMeters - stats.distanceMeters) <= 0.0005)
    }

    @Test("Times are ISO 8601 UTC with Z, bounds an object; splits and segment_stats when asked")
    func timesBoundsAndExtras() throws {
        var points = AnalysisTrackBuilder.steadyRun(to: 1200, stepMeters: 10, speed: 2.5)
        points[0].heartRateBPM = 150
        points[1].time = AnalysisTrackBuilder.startTime.addingTimeInterval(4.5)
        let stats = ActivityStats(
            segments: [points],
            options: StatsOptions(includeSplits: true, includeSegments: true))
        let text = try json(stats)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])

        #expect(object["start_time"] as? String == "2024-04-07T06:00:00Z")
        #expect(object["end_time"] as? String == "2024-04-07T06:08:00Z")
        let bounds = try #require(object["bounds"] as? [String: Any])
        #expect(Set(bounds.keys) == ["min_lat", "min_lon", "max_lat", "max_lon"])

        let splits = try #require(object["splits"] as? [[String: Any]])
        #expect(
            Set(splits[0].keys) == [
                "index", "distance_m", "elapsed_time_s", "moving_time_s", "pace_s_per_km",
                "elevation_gain_m", "elevation_loss_m", "end_distance_m",
            ])
        #expect(splits[0]["index"] as? Int == 1)
        #expect(SharedNumber.double(splits[0]["distance_m"]) == 1000)
        #expect(SharedNumber.double(splits[0]["elapsed_time_s"]) == 400)
        #expect(splits[0]["elevation_gain_m"] is NSNull)
        let segments = try #require(object["segment_stats"] as? [[String: Any]])
        #expect(segments.first?["points"] as? Int == 121)

        let decoded = try JSONDecoder().decode(ActivityStats.self, from: Data(text.utf8))
        #expect(try json(decoded) == text)
        #expect(SharedNumber.double(object["distance_m"]) == 1200, "rounded to the millimetre")
    }

    @Test("Fractional seconds appear only when present")
    func fractionalSeconds() throws {
        #expect(RunnerFormat.timestamp(AnalysisTrackBuilder.startTime) == "2024-04-07T06:00:00Z")
        #expect(
            RunnerFormat.timestamp(AnalysisTrackBuilder.startTime.addingTimeInterval(5.25))
                == "2024-04-07T06:00:05.25Z")
    }

    @Test("Options decode from partial JSON with defaults and round-trip")
    func optionsCoding() throws {
        let partial = try JSONDecoder().decode(StatsOptions.self, from: Data(#"{"split_distance_m":1609.344}"#.utf8))
        #expect(partial == StatsOptions(splitDistanceMeters: 1609.344))
        let options = StatsOptions(
            movingSpeedThresholdMetersPerSecond: 1, movingVerticalSpeedThresholdMetersPerHour: 300,
            movingVerticalWindowSeconds: 30, movingVerticalMinimumHorizontalSpeedMetersPerSecond: 0.1,
            elevationHysteresisMeters: 3, elevationSpikeVerticalSpeedMetersPerSecond: 4, elevationSpikeSlackMeters: 2,
            splitDistanceMeters: 500, includeSplits: true, includeSegments: true)
        let encoded = try JSONEncoder().encode(options)
        #expect(try JSONDecoder().decode(StatsOptions.self, from: encoded) == options)
        let keys = try #require(JSONSerialization.jsonObject(with: encoded) as? [String: Any]).keys
        #expect(
            Set(keys) == [
                "moving_speed_threshold_m_s", "moving_vertical_speed_threshold_m_h", "moving_vertical_window_s",
                "moving_vertical_min_horizontal_speed_m_s", "elevation_hysteresis_m",
                "elevation_spike_vertical_speed_m_s", "elevation_spike_slack_m", "split_distance_m", "include_splits",
                "include_segments",
            ])
        #expect(StatsOptions().movingSpeedThresholdMetersPerSecond == 0.894)
        #expect(StatsOptions().movingVerticalSpeedThresholdMetersPerHour == 400)
        #expect(StatsOptions().movingVerticalWindowSeconds == 60)
        #expect(StatsOptions().movingVerticalMinimumHorizontalSpeedMetersPerSecond == 0.2)
        #expect(StatsOptions().elevationSpikeVerticalSpeedMetersPerSecond == 5)
        #expect(StatsOptions().elevationSpikeSlackMeters == 1)
        #expect(StatsOptions().splitDistanceMeters == 1000)
    }
}
