import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

#if canImport(Glibc)
    import Glibc
#endif

/// A large GPX file read in two parts on two threads (`GPXReader+Split.swift`) gives exactly the
/// activity of the whole read, or gives up (`nil`) and the file is read whole: never anything else.
@Suite("GPX split read")
struct GPXSplitReadTests {
    /// A scratch file holding `text`, removed after `body`.
    static func withFile<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("split-\(UUID().uuidString).gpx")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }

    /// The split read of the file at `path`, its cut looked for from `searchFrom`.
    static func split(_ path: String, searchFrom: Int) throws -> Activity? {
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let size = Int(
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).intValue)
        return GPXReader.readSplit(descriptor: descriptor, size: size, searchFrom: searchFrom)
    }

    /// The whole read of the file at `path` (what the split read must equal), or its error.
    static func whole(_ path: String) -> Result<Activity, Error> {
        Result { try GPXReader().read(from: FileByteStream(path: path)) }
    }

    /// Splits `path` with the cut looked for from each of `starts`: every split that is not
    /// given up equals the whole read, and a file the whole read refuses is never split.
    /// - Returns: how many splits were joined.
    @discardableResult
    static func checkSplits(
        _ path: String, starts: [Int], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int {
        let expected = whole(path)
        var joined = 0
        for start in starts {
            guard let activity = try split(path, searchFrom: start) else { continue }
            joined += 1
            switch expected {
            case .success(let whole):
                #expect(activity == whole, "\(path) cut from \(start)", sourceLocation: sourceLocation)
                let options = StatsOptions(includeSplits: true, includeSegments: true)
                #expect(
                    activity.stats(options: options) == whole.stats(options: options), sourceLocation: sourceLocation)
            case .failure(let error):
                Issue.record(
                    "\(path) cut from \(start) was joined, the whole read fails: \(error)",
                    sourceLocation: sourceLocation)
            }
        }
        return joined
    }

    /// Every `step` bytes of the file at `path`.
    static func starts(_ path: String, every step: Int) throws -> [Int] {
        let size = try Data(contentsOf: URL(fileURLWithPath: path)).count
        return Array(stride(from: 1, to: size, by: max(step, 1)))
    }

    @Test(
        "every GPX file of the shared corpus, cut at 15 places: the whole read's activity, or given up", .sharedCorpus)
    func corpus() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: SharedCorpus.tracks.path)
            .filter { $0.hasSuffix(".gpx") }.sorted()
        #expect(files.count >= 15)
        var joinedFiles = 0
        for file in files {
            let path = SharedCorpus.url(file).path
            let size = try Data(contentsOf: URL(fileURLWithPath: path)).count
            if try Self.checkSplits(path, starts: try Self.starts(path, every: size / 16 + 1)) > 0 { joinedFiles += 1 }
        }
        #expect(joinedFiles >= 8, "most of the corpus's tracks split somewhere")
    }

    /// A generated GPX document: `count` points in one `<trk>` (with `extra` markup written
    /// before point `at`), under `prefix`.
    static func document(
        count: Int, prefix: String = "", at: Int = -1, extra: String = "", after: String = "",
        times: (Int) -> String = { "2024-04-07T06:\(String(format: "%02d:%02d", $0 / 60 % 60, $0 % 60)).000Z" }
    ) -> String {
        let p = prefix
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <\(p)gpx version="1.1" creator="test" xmlns\(p.isEmpty ? "" : ":" + p.dropLast())="http://www.topografix.com/GPX/1/1"
              xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
              <\(p)metadata><\(p)name>Generated</\(p)name></\(p)metadata>
              <\(p)trk><\(p)name>Run</\(p)name><\(p)trkseg>

            """
        for i in 0..<count {
            if i == at { text += extra }
            text += """
                    <\(p)trkpt lat="\(37.5 + Double(i) * 1e-5)" lon="\(127.0 + Double(i % 97) * 1e-5)">\
                <\(p)ele>\(10 + i % 13)</\(p)ele><\(p)time>\(times(i))</\(p)time>\
                <\(p)extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(120 + i % 40)</gpxtpx:hr>\
                </gpxtpx:TrackPointExtension></\(p)extensions></\(p)trkpt>

                """
        }
        text += "    </\(p)trkseg></\(p)trk>\n\(after)</\(p)gpx>\n"
        return text
    }

    @Test(
        "generated files cut every 1,001 bytes: plain, prefixed, several tracks and segments, routes and waypoints after"
    )
    func generated() throws {
        let documents = [
            Self.document(count: 300),
            Self.document(count: 300, prefix: "gpx:"),
            Self.document(
                count: 300, at: 150,
                extra:
                    "</trkseg><trkseg><!-- a new segment --></trkseg></trk><trk><name>Second</name><type>run</type><trkseg>"
            ),
            Self.document(
                count: 300, at: 120, extra: "</trkseg><trkseg>",
                after:
                    "<rte><name>R</name><rtept lat=\"1\" lon=\"2\"/></rte><wpt lat=\"3\" lon=\"4\"><name>W</name></wpt>\n"
            ),
            // Times back across the middle, and zone-less times only in the second half.
            Self.document(
                count: 300,
                times: { i in i < 160 ? "2024-04-07T06:00:\(String(format: "%02d", i % 60))Z" : "2024-04-07T05:00:00" }),
        ]
        for document in documents {
            try Self.withFile(document) { path in
                let joined = try Self.checkSplits(path, starts: try Self.starts(path, every: 1001))
                #expect(joined > 10)
            }
        }
    }

    @Test(
        "a clock that jumps to 2085, at the end or in the middle of a segment: the split read warns as the whole read does"
    )
    func clockJumpsAhead() throws {
        let in2085 = "2085-12-21T16:46:58Z"
        let documents = [
            Self.document(
                count: 300,
                times: { i in i == 299 ? in2085 : "2024-04-07T06:\(String(format: "%02d:%02d", i / 60, i % 60))Z" }),
            Self.document(
                count: 300,
                times: { i in
                    i < 140
                        ? "2024-04-07T06:\(String(format: "%02d:%02d", i / 60, i % 60))Z"
                        : "2085-12-21T16:\(String(format: "%02d:%02d", i / 60, i % 60))Z"
                }),
        ]
        for document in documents {
            try Self.withFile(document) { path in
                let whole = try Self.whole(path).get()
                #expect(whole.warnings.filter { $0.contains("the time jumps ahead") }.count == 1, "\(whole.warnings)")
                #expect(try Self.checkSplits(path, starts: try Self.starts(path, every: 1001)) > 10)
            }
        }
    }

    @Test("cut inside a comment, CDATA or a processing instruction: given up, never joined wrong")
    func awkwardPlaces() throws {
        let fake = "<trkpt lat=\"1\" lon=\"1\"><ele>9999</ele></trkpt>"
        for extra in [
            "<!-- \(fake) \(fake) -->", "<desc><![CDATA[ \(fake) ]]></desc>", "<?runnect \(fake) ?>",
        ] {
            let document = Self.document(count: 200, at: 100, extra: extra)
            try Self.withFile(document) { path in
                // Cut looked for just before the fake points: the cut lands inside them.
                let markup = try #require(document.range(of: extra))
                let before = document.utf8.distance(from: document.startIndex, to: markup.lowerBound)
                let inside = try Self.split(path, searchFrom: before + 2)
                #expect(inside == nil, "\(extra.prefix(12)): the cut inside it is given up")
                try Self.checkSplits(path, starts: try Self.starts(path, every: 997))
            }
        }
    }

    @Test(
        "what the second part cannot set alone gives the split up: metadata or the spanning track's name after the cut")
    func sharedState() throws {
        for document in [
            Self.document(count: 200, at: 150, extra: "</trkseg><name>Renamed</name><trkseg>"),
            Self.document(count: 200, at: 150, extra: "</trkseg><type>walk</type><trkseg>"),
            Self.document(count: 200, after: "<time>2024-01-01T00:00:00Z</time>"),
            Self.document(count: 200, after: "<name></name>"),
        ] {
            try Self.withFile(document) { path in
                let size = document.utf8.count
                let split = try Self.split(path, searchFrom: size / 2)
                #expect(split == nil)
                try Self.checkSplits(path, starts: try Self.starts(path, every: 997))
            }
        }
    }

    @Test("a different prefix on the points than on the root, or points outside a segment: given up")
    func mismatchedNames() throws {
        var mixed = Self.document(count: 200)
        mixed = mixed.replacingOccurrences(of: "<trkpt", with: "<g:trkpt").replacingOccurrences(
            of: "</trkpt>", with: "</g:trkpt>")
        let bare = Self.document(count: 200).replacingOccurrences(of: "<trkseg>", with: "").replacingOccurrences(
            of: "</trkseg>", with: "")
        for document in [mixed, bare] {
            try Self.withFile(document) { path in
                let split = try Self.split(path, searchFrom: document.utf8.count / 2)
                #expect(split == nil)
                try Self.checkSplits(path, starts: try Self.starts(path, every: 997))
            }
        }
    }

    @Test("errors before and after the cut: given up; ActivityReader's error is the whole read's, line and column")
    func errors() throws {
        // Big enough for ActivityReader to split (GPXReader.splitThresholdBytes).
        let count = GPXReader.splitThresholdBytes / 150
        let good = Self.document(count: count)
        let errors: [(String, String)] = [
            ("lat=\"\(37.5 + Double(count * 3 / 4) * 1e-5)\"", "lat=\"97.5\""),  // out of range after the cut
            ("lat=\"\(37.5 + Double(count / 4) * 1e-5)\"", "lat=\"x\""),  // before the cut
            ("<gpxtpx:hr>\(120 + (count * 3 / 4) % 40)</gpxtpx:hr>", "<gpxtpx:hr>--</gpxtpx:hr>"),  // skipped after
            ("</trkseg></trk>", "</trkseg></trk><trk>"),  // unclosed at the end
            ("</gpx>", "</gpx><gpx/>"),  // content after the root
        ]
        for (from, to) in errors {
            let range = try #require(good.range(of: from, options: from.hasPrefix("lat") ? [] : .backwards))
            let document = good.replacingCharacters(in: range, with: to)
            try Self.withFile(document) { path in
                let split = try Self.split(path, searchFrom: document.utf8.count / 2)
                #expect(split == nil, "\(to)")
                let parallel = Result { try ActivityReader.readAll(path: path) }
                let sequential = Result { try ActivityReader.readAll(path: path, parallel: false) }
                switch (parallel, sequential) {
                case (.success(let a), .success(let b)):
                    #expect(a == b)
                    #expect(
                        a[0].warnings.contains { $0.contains("line ") }, "the skipped value's line: \(a[0].warnings)")
                case (.failure(let a), .failure(let b)):
                    #expect("\(a)" == "\(b)")
                    #expect("\(a)".contains("line"), "\(a)")
                default:
                    Issue.record("\(to): parallel \(parallel), sequential \(sequential)")
                }
            }
        }
    }

    @Test("a large file through ActivityReader: split (both halves' points), equal to the whole read")
    func throughActivityReader() throws {
        let count = GPXReader.splitThresholdBytes / 150
        let document = Self.document(count: count)
        #expect(document.utf8.count >= GPXReader.splitThresholdBytes)
        try Self.withFile(document) { path in
            let split = try Self.split(path, searchFrom: document.utf8.count / 2)
            #expect(split != nil)
            let parallel = try ActivityReader.readAll(path: path)
            let sequential = try ActivityReader.readAll(path: path, parallel: false)
            #expect(parallel == sequential)
            #expect(parallel[0].tracks[0].segments.map(\.points.count) == [count])
        }
    }

    @Test("the cut: the first trkpt start tag from the search start, any prefix, never an end tag or a longer name")
    func findCut() {
        func cut(_ text: String) -> (Int, String)? {
            GPXReader.findCut(in: ArraySlice(Array(text.utf8))).map {
                ($0.offset, String(decoding: $0.prefix, as: UTF8.self))
            }
        }
        #expect(cut("</trkpt>\n <trkpt lat=") ?? (-1, "?") == (10, ""))
        #expect(cut("<x:trkpt>") ?? (-1, "?") == (0, "x:"))
        #expect(cut("<mytrkpt a=''/><trkptx/>") == nil)
        #expect(cut("<:trkpt ") == nil)
        #expect(cut("   <trkp") == nil)
        #expect(cut("<trkpt") == nil)  // the name may go on past the bytes searched
    }
}
