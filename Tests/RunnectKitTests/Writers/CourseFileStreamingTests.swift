import Foundation
import Testing

@testable import RunnectKit

/// The course-file writers hand their output over in chunks as they make it: a 200,000-point
/// course never exists as one text in memory. (`runnect export` on such a course is measured
/// from outside, its peak RSS, in the CLI tests.)
@Suite("Course files: streamed in chunks")
struct CourseFileStreamingTests {
    static let course = CourseFileTestData.long(count: 200_000)

    @Test(
        "200,000 points: every chunk at most 64 KiB, as many chunks as the size needs, all 200,000 read back",
        arguments: ["gpx", "gpx run", "tcx", "fit", "fit run"])
    func chunks(_ name: String) throws {
        let kind: ExportKind = name.hasSuffix("run") ? .run : .course
        let options = ExportOptions(kind: kind)
        var log = ChunkLog()
        let format = try #require(CourseFileFormat(rawValue: String(name.prefix(3))))
        try format.writer(options).write(Self.course, to: &log)
        let total = log.bytes.count
        #expect(total > (name.hasPrefix("fit") ? 3_000_000 : 10_000_000), "\(name): \(total) bytes")
        #expect(log.chunks.max()! <= 65_536, "\(name): a chunk of \(log.chunks.max()!) bytes")
        #expect(log.chunks.count >= total / 65_536, "\(name): \(log.chunks.count) chunks for \(total) bytes")
        let points = try ActivityReader.read(from: MemoryByteStream(log.bytes)).courseSegments.joined().count
        #expect(points == 200_000)
    }
}
