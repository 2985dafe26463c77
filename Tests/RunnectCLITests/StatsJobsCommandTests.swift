import Foundation
import RunnectTestSupport
import Testing

/// `stats --jobs N`: files read in parallel, printed in input order, failures where they were.
@Suite("runnect stats --jobs (end to end)")
struct StatsJobsCommandTests {
    @Test("every corpus file with a bad one among them: --jobs 3 prints what --jobs 1 prints, in order", .sharedCorpus)
    func sameOutputInOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stats-jobs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.gpx")
        try Data("<gpx><trk><trkseg><trkpt lat=\"91\"".utf8).write(to: bad)
        var files = SharedCorpus.reference.keys.sorted().map { SharedCorpus.url($0).path }
        files.insert(bad.path, at: files.count / 2)
        files.append("no/such/file.gpx")

        for mode in [["--json"], []] {
            let one = try RunnectProcess.run(["stats", "--jobs", "1"] + mode + files)
            let three = try RunnectProcess.run(["stats", "--jobs", "3"] + mode + files)
            #expect(three.stdout == one.stdout, "\(mode): standard output differs")
            #expect(three.stderr == one.stderr, "\(mode): standard error differs")
            #expect(three.status == one.status && one.status == 65, "\(one.status) \(three.status)")
        }
        let lines = try RunnectProcess.run(["stats", "--jobs", "2", "--json"] + files).stdoutLines
        let named = try lines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["file"] as? String
        }
        // One line per activity: files in input order (a TCX file may give several in a row).
        var order: [String] = []
        for name in named.compactMap({ $0 }) where order.last != name { order.append(name) }
        #expect(order == files.filter { order.contains($0) }, "JSON lines follow the input order")
    }

    @Test("--jobs 0 is a usage error")
    func zeroJobs() throws {
        #expect(try RunnectProcess.run(["stats", "--jobs", "0", "-"], stdin: "").status == 64)
    }

    @Test("--jobs past 1,024 is a usage error, not a crash (Int.max overflowed the read-ahead)")
    func tooManyJobs() throws {
        let files = ["SampleTracks/olympic_park_route.gpx", "SampleTracks/namsan_loop_two_segments.gpx"]
        let huge = try RunnectProcess.run(["stats", "--jobs", "\(Int.max)"] + files)
        #expect(huge.status == 64)
        #expect(huge.stderr.contains("--jobs must be at most 1024"))
        #expect(try RunnectProcess.run(["stats", "--jobs", "1024"] + files).status == 0)
    }
}
