import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Store: CSV table (RFC 4180)")
struct CSVTableTests {
    @Test("quoted fields hold commas, line breaks and doubled quotes; CRLF, BOM and blank lines")
    func quoting() throws {
        let text = "\u{FEFF}\"a\",b,\"c, d\"\r\n1,\"two\r\nlines\",\"say \"\"hi\"\"\"\r\n\r\n,,\nx,y\"z,\"\"\n"
        let table = try CSVTable(bytes: Array(text.utf8))
        #expect(table.header == ["a", "b", "c, d"])
        #expect(table.rows == [["1", "two\r\nlines", "say \"hi\""], ["", "", ""], ["x", "y\"z", ""]])
        #expect(table.rowLines == [2, 5, 6])
        #expect(table.column("c, d") == 2 && table.column("nope") == nil)
    }

    @Test("the last record needs no line break; a repeated header name finds the first column")
    func endAndRepeats() throws {
        let table = try CSVTable(bytes: Array("Distance,Filename,Distance\n1.0,a.gpx,1000".utf8))
        #expect(table.rows == [["1.0", "a.gpx", "1000"]])
        #expect(table.column("Distance") == 0)
    }

    @Test("an unclosed quote is an error naming the line it opens on")
    func unclosed() throws {
        let error = try #require(throws: CSVTable.Malformed.self) {
            try CSVTable(bytes: Array("a,b\n1,2\n3,\"open\nstill open".utf8))
        }
        #expect(error == CSVTable.Malformed(line: 3, message: "a quoted field is not closed"))
        #expect(throws: CSVTable.Malformed.self) { try CSVTable(bytes: []) }
    }
}

@Suite("Store: Strava export")
struct StravaExportTests {
    /// A small TCX run near `latitude`.
    static func tcx(latitude: Double) -> String {
        var points = ""
        for i in 0..<30 {
            points +=
                "<Trackpoint><Time>2026-05-01T06:\(String(format: "%02d", i)):00Z</Time><Position>"
                + "<LatitudeDegrees>\(latitude + Double(i) * 2e-4)</LatitudeDegrees><LongitudeDegrees>127.1</LongitudeDegrees>"
                + "</Position><DistanceMeters>\(Double(i) * 22.2)</DistanceMeters></Trackpoint>\n"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities>
            <Activity Sport="Running"><Id>2026-05-01T06:00:00Z</Id><Lap StartTime="2026-05-01T06:00:00Z">
            <TotalTimeSeconds>1740</TotalTimeSeconds><DistanceMeters>650</DistanceMeters><Track>
            \(points)</Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """
    }

    static func gzip(_ source: URL, to target: URL) throws {
        _ = FileManager.default.createFile(atPath: target.path, contents: nil)
        let output = try FileHandle(forWritingTo: target)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c", source.path]
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
    }

    static let longName = "서울 둘레길 1코스 수락산 불암산 구간 새벽 트레일 러닝, 비 온 뒤 미끄러운 길 조심"

    /// An export folder: five activities with files (GPX, GPX gzipped, TCX, TCX gzipped, a broken
    /// GPX), one manual activity without a file, and tricky quoting in the CSV.
    static func makeExport(in folder: URL) throws {
        let activities = folder.appendingPathComponent("activities")
        try FileManager.default.createDirectory(at: activities, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: SampleTracks.path("banpo_hangang_night_run.gpx"),
            toPath: activities.appendingPathComponent("101.gpx").path)
        try gzip(
            URL(fileURLWithPath: SampleTracks.path("namsan_loop_two_segments.gpx")),
            to: activities.appendingPathComponent("102.gpx.gz"))
        let tcxFile = folder.appendingPathComponent("run.tcx")
        try Self.tcx(latitude: 37.51).write(to: tcxFile, atomically: true, encoding: .utf8)
        try gzip(tcxFile, to: activities.appendingPathComponent("103.tcx.gz"))
        try FileManager.default.removeItem(at: tcxFile)
        try Self.tcx(latitude: 37.52).write(
            to: activities.appendingPathComponent("106.tcx"), atomically: true, encoding: .utf8)
        try "<gpx><trk><trkseg><trkpt lat=\"37.5\" lon=\"127\">".write(
            to: activities.appendingPathComponent("104.gpx"), atomically: true, encoding: .utf8)

        let header =
            "Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,Distance,"
            + "Max Heart Rate,Relative Effort,Commute,Activity Private Note,Activity Gear,Filename,Athlete Weight,"
            + "Bike Weight,Elapsed Time,Moving Time,Distance"
        let rows = [
            "101,\"May 2, 2025, 12:04:31 PM\",\"반포 한강 야간 러닝, 10K\",Run,\"첫 줄\n둘째 줄, \"\"달빛\"\" 코스\",3483,10.14,173,,false,,,activities/101.gpx,,,3483,3330,10140",
            "102,\"May 3, 2025, 6:00:00 AM\",\"남산 \"\"순환\"\" 코스\",Run,,2900,6.1,,,false,,,activities/102.gpx.gz,,,,,",
            "103,\"May 1, 2026, 6:00:00 AM\",\"\(longName)\",Run,,1740,0.65,,,false,,,activities/103.tcx.gz,,,,,",
            "104,\"May 4, 2025, 7:00:00 AM\",망가진 파일,Run,,,,,,false,,,activities/104.gpx,,,,,",
            "105,\"May 5, 2025, 7:00:00 AM\",트레드밀 (수동 입력),Run,,1800,5.0,,,false,,,,,,,,",
            "106,\"May 6, 2025, 7:00:00 AM\",석촌호수 한 바퀴,Walk,,,,,,false,,,activities/106.tcx,,,,,",
        ]
        try ([header] + rows).joined(separator: "\r\n").write(
            to: folder.appendingPathComponent("activities.csv"), atomically: true, encoding: .utf8)
    }

    @Test("activities.csv gives names, types, descriptions, dates and files; manual activities have none")
    func entries() async throws {
        try await withTemporaryDirectory { folder in
            try Self.makeExport(in: folder)
            #expect(StravaExport.isExport(folder: folder.path))
            let export = try StravaExport(folder: folder.path)
            #expect(export.entries.count == 6 && export.recorded.count == 5)
            let first = export.entries[0]
            #expect(first.activityID == "101" && first.name == "반포 한강 야간 러닝, 10K" && first.type == "Run")
            #expect(first.description == "첫 줄\n둘째 줄, \"달빛\" 코스")
            #expect(first.date == Date(timeIntervalSince1970: 1_746_187_471))
            #expect(first.fileName == "activities/101.gpx" && first.line == 2)
            #expect(export.entries[1].name == "남산 \"순환\" 코스" && export.entries[1].line == 4)
            #expect(export.entries[4].fileName == nil && export.entries[5].type == "Walk")
            #expect(
                export.recorded.map { StravaExport.fileKind($0.fileName!) } == [
                    "gpx", "gpx.gz", "tcx.gz", "gpx", "tcx",
                ])
            let (items, refused) = export.importItems()
            #expect(refused.isEmpty)
            #expect(items[2].title == String(Self.longName.prefix(40)).trimmingCharacters(in: .whitespaces))
            #expect(items[1].description == nil)
        }
    }

    @Test("importing an export: titles and descriptions from the CSV, the broken file fails, a re-run imports nothing")
    func importExport() async throws {
        try await withTemporaryDirectory { folder in
            try Self.makeExport(in: folder)
            let export = try StravaExport(folder: folder.path)
            try await withTemporaryStore { store, _ in
                var outcomes: [ImportOutcome] = []
                let summary = try await BulkImporter(store: store, jobs: 2).run(export.importItems().items) {
                    outcomes += $0
                }
                #expect(summary.imported == 4 && summary.failed == 1 && summary.skipped == 0)
                var courses: [String: Course] = [:]
                for case .imported(let item, let course) in outcomes {
                    courses[(item.path as NSString).lastPathComponent] = course
                }
                #expect(courses["101.gpx"]?.title == "반포 한강 야간 러닝, 10K")
                #expect(courses["101.gpx"]?.description == "첫 줄\n둘째 줄, \"달빛\" 코스")
                #expect(courses["102.gpx.gz"]?.title == "남산 \"순환\" 코스")
                #expect(courses["102.gpx.gz"]?.sourceFormat == "gpx-1.1")
                #expect(courses["103.tcx.gz"]?.sourceFormat == "tcx" && courses["106.tcx"]?.title == "석촌호수 한 바퀴")
                // The stored geometry keeps the laps and the device's totals.
                let stored = try await store.activity(id: try #require(courses["103.tcx.gz"]?.id))
                #expect(stored.laps.count == 1 && stored.deviceTotals?.distanceMeters == 650)
                #expect(stored.deviceTotals?.timerTimeSeconds == 1740 && stored.deviceTotals?.sport == "Running")
                // The gzipped GPX measures as the plain sample does.
                let plain = try ActivityReader.read(path: SampleTracks.path("namsan_loop_two_segments.gpx")).stats()
                #expect(abs((courses["102.gpx.gz"]?.stats.distanceMeters ?? 0) - plain.distanceMeters) < 0.001)
                for case .failed(let item, let error) in outcomes {
                    #expect(item.path.hasSuffix("activities/104.gpx"))
                    #expect("\(error)".contains("not closed"), "\(error)")
                }

                let again = try await BulkImporter(store: store).run(export.importItems().items)
                #expect(again.imported == 0 && again.skipped == 4 && again.failed == 1)
            }
        }
    }

    @Test("a folder whose activities.csv has no Filename column, or a broken one, is refused with the reason")
    func badTables() async throws {
        try await withTemporaryDirectory { folder in
            let table = folder.appendingPathComponent("activities.csv")
            try "Activity ID,Activity Name\n1,x\n".write(to: table, atomically: true, encoding: .utf8)
            let missing = try #require(throws: StravaExportError.self) { try StravaExport(folder: folder.path) }
            #expect(missing == .missingColumn(path: table.path, column: "Filename"))
            try "Activity ID,Filename\n1,\"activities/1.gpx\n".write(to: table, atomically: true, encoding: .utf8)
            let broken = try #require(throws: StravaExportError.self) { try StravaExport(folder: folder.path) }
            #expect(broken.description == "\(table.path): line 2: a quoted field is not closed")
        }
    }

    @Test(
        "a Filename leading outside the export folder (.., absolute, a link out) or to a FIFO is refused; the rest import"
    )
    func escapingRows() async throws {
        try await withTemporaryDirectory { root in
            let export = root.appendingPathComponent("export")
            let activities = export.appendingPathComponent("activities")
            let secret = root.appendingPathComponent("secret")
            for folder in [activities, secret] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            try FileManager.default.copyItem(
                atPath: SampleTracks.path("olympic_park_route.gpx"), toPath: secret.appendingPathComponent("x.gpx").path
            )
            try FileManager.default.copyItem(
                atPath: SampleTracks.path("banpo_hangang_night_run.gpx"),
                toPath: activities.appendingPathComponent("1.gpx").path)
            try FileManager.default.createSymbolicLink(
                atPath: activities.appendingPathComponent("2.gpx").path,
                withDestinationPath: "../../secret/x.gpx")
            try FileManager.default.createSymbolicLink(
                atPath: activities.appendingPathComponent("inside.gpx").path,
                withDestinationPath: "1.gpx")
            #expect(mkfifo(activities.appendingPathComponent("3.gpx").path, 0o600) == 0)
            let rows = [
                "Activity ID,Activity Name,Activity Description,Filename",
                "1,\"first \u{1B}]0;pwned\u{07}\",\"a\u{0}b\r\nline two\",activities/1.gpx",
                "2,dot-dot,,../secret/x.gpx", "3,link out,,activities/2.gpx", "4,fifo,,activities/3.gpx",
                "5,absolute,,\(secret.appendingPathComponent("x.gpx").path)", "6,sneaky,,activities/../../secret/x.gpx",
                "7,missing,,activities/404.gpx",
            ]
            try rows.joined(separator: "\n").write(
                to: export.appendingPathComponent("activities.csv"), atomically: true, encoding: .utf8)
            let table = export.appendingPathComponent("activities.csv").path

            let parsed = try StravaExport(folder: export.path)
            // Cells are file text: controls replaced, line breaks kept in the description only
            // (whose CR LF makes the first row take lines 2 and 3).
            #expect(parsed.entries[0].name == "first \u{FFFD}]0;pwned\u{FFFD}")
            #expect(parsed.entries[0].description == "a\u{FFFD}b\nline two")
            let (items, refused) = parsed.importItems()
            #expect(items.map { ($0.path as NSString).lastPathComponent } == ["1.gpx", "404.gpx"])
            let errors = refused.compactMap { outcome -> StravaExportError? in
                if case .failed(_, let error) = outcome { return error as? StravaExportError }
                return nil
            }
            #expect(
                errors == [
                    .outsideFolder(path: table, line: 4, fileName: "../secret/x.gpx"),
                    .outsideFolder(path: table, line: 5, fileName: "activities/2.gpx"),
                    .notARegularFile(path: table, line: 6, fileName: "activities/3.gpx"),
                    .outsideFolder(path: table, line: 7, fileName: secret.appendingPathComponent("x.gpx").path),
                    .outsideFolder(path: table, line: 8, fileName: "activities/../../secret/x.gpx"),
                ])
            #expect(
                errors.first?.description
                    == "\(table): line 4: Filename \"../secret/x.gpx\" is outside the export folder; refused")
            // A link that stays inside the folder is fine.
            #expect(try parsed.path(of: StravaExport.Entry(fileName: "activities/inside.gpx", line: 9)) != nil)

            try await withTemporaryStore { store, _ in
                let summary = try await BulkImporter(store: store).run(items)
                #expect(summary.imported == 1 && summary.failed == 1)
                await #expect(try store.list(.mine(uploaded: nil)).map(\.title) == ["first \u{FFFD}]0;pwned\u{FFFD}"])
            }
        }
    }
}
