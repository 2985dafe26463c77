import Foundation
import RunnectKit
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectSite

/// The downloads of each course in the index: GPX and FIT course files that read back as the
/// stored course, named by its title, timed from when it was stored.
@Suite("Discovery index: GPX and FIT downloads")
struct CourseFilesTests {
    @Test("each shared course's GPX reads back as its stored path exactly, its FIT within the semicircle")
    func downloadsReadBack() async throws {
        try await withTemporaryDirectory { folder in
            let fixture = try await DiscoveryIndexExporterTests.Fixture(
                path: folder.appendingPathComponent("courses.sqlite").path)
            let out = folder.appendingPathComponent("site")
            _ = try await DiscoveryIndexExporter(store: fixture.store).export(to: out.path)
            for course in [fixture.hangang, fixture.english, fixture.markup] {
                let stored = try await fixture.store.activity(id: course.id).courseSegments.joined().map(\.coordinate)
                #expect(stored.count == 6)
                let gpx = try ActivityReader.read(path: out.appendingPathComponent("courses/\(course.id).gpx").path)
                #expect(gpx.format == .gpx11 && gpx.metadata.name == course.title)
                #expect(gpx.metadata.description == course.description)
                #expect(gpx.courseSegments.joined().map(\.coordinate) == stored)

                let fitPath = out.appendingPathComponent("courses/\(course.id).fit").path
                let fit = try FITReader().decode(from: FileByteStream(path: fitPath))
                let points = Array(fit.activity.courseSegments.joined())
                #expect(points.count == stored.count && fit.activity.warnings.isEmpty, "\(fit.activity.warnings)")
                for (back, written) in zip(points, stored) {
                    #expect(abs(back.latitude - written.latitude) <= 90 / 2_147_483_648.0)
                    #expect(abs(back.longitude - written.longitude) <= 90 / 2_147_483_648.0)
                }
                #expect(abs(points[0].time!.timeIntervalSince(course.createdAt)) <= 0.5)
                let bytes = try Data(contentsOf: URL(fileURLWithPath: fitPath))
                #expect(bytes.range(of: Data(course.title.utf8.prefix(63))) != nil, "the course message names it")
            }
        }
    }

    @Test("the cards link the downloads; a course with no path to follow gets none, the others theirs")
    func links() throws {
        let course = Course(
            id: 7, owner: "a", title: "t", sourceFormat: "points", contentHash: "",
            stats: ActivityStats(segments: [], options: StatsOptions()), createdAt: Date(timeIntervalSince1970: 1e9))
        let entry = DiscoveryIndexEntry(course)
        #expect(entry.gpx == "courses/7.gpx" && entry.fit == "courses/7.fit")
        let one = Activity(
            format: .pointsText,
            tracks: [Track(segments: [TrackSegment(points: [TrackPoint(latitude: 37.5, longitude: 127)])])])
        let files = try CourseFiles(entry: entry, activity: one, createdAt: course.createdAt)
        #expect(files.gpx == nil && files.fit == nil && files.entry.gpx == nil && files.entry.fit == nil)
        #expect(!String(decoding: files.geoJSON, as: UTF8.self).contains("7.gpx"))
        let page = DiscoveryIndexPage.html
        #expect(
            page.contains("[[\"GPX\", c.gpx], [\"FIT\", c.fit]]") && page.contains("setAttribute(\"download\", \"\")"))
        #expect(IndexFolder.isExporterName("courses/7.gpx") && IndexFolder.isExporterName("courses/7.fit"))
        #expect(!IndexFolder.isExporterName("courses/7.tcx") && !IndexFolder.isExporterName("courses/x.fit"))
    }
}
