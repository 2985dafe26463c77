import Foundation
import RunnectTestSupport
import Testing

/// `runnect stats` on one large GPX file reads it on two threads (GPXReader's split read); given
/// as many files as `--jobs` and processors, it reads each whole (the cores are busy already).
/// Both must print the same bytes.
@Suite("runnect stats: a large GPX file read on two threads (end to end)")
struct StatsSplitReadCommandTests {
    /// A GPX run of `count` points (about 210 bytes each), times, elevation and heart rate.
    static func run(count: Int) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
              xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
              <metadata><name>Split</name></metadata>
              <trk><name>Run</name><trkseg>

            """
        for i in 0..<count {
            let seconds = i % 60
            let minutes = i / 60 % 60
            let hours = 6 + i / 3600
            text += """
                    <trkpt lat="\(37.5 + Double(i) * 1e-5)" lon="\(127.0 + Double(i % 97) * 1e-5)">\
                <ele>\(10 + i % 13)</ele><time>2024-04-07T\(String(format: "%02d:%02d:%02d", hours, minutes, seconds))Z</time>\
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(120 + i % 40)</gpxtpx:hr>\
                </gpxtpx:TrackPointExtension></extensions></trkpt>

                """
        }
        return text + "    </trkseg></trk>\n</gpx>\n"
    }

    @Test("a 6 MB file, and the same with an error after its middle: the bytes of the whole read")
    func sameAsWholeRead() throws {
        let good = Self.run(count: 30_000)
        #expect(good.utf8.count > 5 << 20)
        let lastPoint = try #require(good.range(of: "<trkpt lat=\"\(37.5 + Double(29_000) * 1e-5)\""))
        let bad = good.replacingCharacters(in: lastPoint, with: "<trkpt lat=\"97\"")
        for text in [good, bad] {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("split-\(UUID().uuidString).gpx")
            try Data(text.utf8).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            // As many copies as processors, read at once: each is read whole.
            let copies = max(2, ProcessInfo.processInfo.activeProcessorCount)
            for options in [["--json"], ["--json", "--splits", "--segments"], []] {
                let one = try RunnectProcess.run(["stats"] + options + [url.path])
                let whole = try RunnectProcess.run(
                    ["stats", "--jobs", "\(copies)"] + options + Array(repeating: url.path, count: copies))
                #expect(one.status == whole.status)
                // Text reports have a blank line between them.
                let separator = options.contains("--json") || one.stdout.isEmpty ? "" : "\n"
                #expect(
                    Array(repeating: one.stdout, count: copies).joined(separator: separator) == whole.stdout,
                    "\(options)")
                #expect(Array(repeating: one.stderr, count: copies).joined() == whole.stderr, "\(options)")
                #expect(text == good ? one.status == 0 : one.stderr.contains("line "), "\(one.stderr)")
            }
        }
    }
}
