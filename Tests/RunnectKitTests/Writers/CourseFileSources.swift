import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

/// The inputs the course-file tests write: every file of `../shared/tracks` (gpx/, tcx/, fit/ and
/// the edge cases) that reads as an activity with at least two positioned points, and the
/// project's samples. Each is written as a course, and, when every point of its tracks has a
/// time, as a run too, the way `runnect export` chooses.
struct CourseFileSource: CustomTestStringConvertible, Sendable {
    let label: String
    let activity: Activity

    var testDescription: String { label }

    static let all: [CourseFileSource] = {
        var sources: [CourseFileSource] = []
        let corpus =
            SharedCorpus.isAvailable
            ? ["gpx", "tcx", "fit"].flatMap { SharedCorpus.files(format: $0) } + SharedCorpus.edgeFiles : []
        var paths = Set<String>()
        for file in corpus where paths.insert(file).inserted {
            if let activity = try? ActivityReader.read(path: SharedCorpus.url(file).path),
                positioned(activity).count >= 2
            {
                sources.append(CourseFileSource(label: file, activity: activity))
            }
        }
        let samples = (try? FileManager.default.contentsOfDirectory(atPath: SampleTracks.folder.path)) ?? []
        for name in samples.sorted() where !name.hasSuffix(".md") {
            if let activity = try? ActivityReader.read(path: SampleTracks.path(name)) {
                sources.append(CourseFileSource(label: "SampleTracks/" + name, activity: activity))
            }
        }
        return sources
    }()

    /// Whether the source is written as a run too: the library's one rule (`Activity.isRun`), as
    /// `runnect export` chooses.
    var isRun: Bool { activity.isRun }

    /// Finite coordinates and a latitude within ±90°: what every format can write.
    static func hasPosition(_ point: TrackPoint) -> Bool {
        point.latitude.isFinite && point.longitude.isFinite && abs(point.latitude) <= 90
    }

    /// The positioned points of the course segments, in order.
    static func positioned(_ activity: Activity) -> [TrackPoint] {
        activity.courseSegments.joined().filter(hasPosition)
    }

    /// The points a format writes for `kind`: a course keeps its positioned points; a run in TCX
    /// or FIT keeps every point (with its time), in GPX the positioned ones.
    func expectedPoints(_ kind: ExportKind, keepsUnpositioned: Bool) -> [[TrackPoint]] {
        activity.courseSegments.map { points in
            kind == .run && keepsUnpositioned ? points : points.filter(Self.hasPosition)
        }.filter { !$0.isEmpty }
    }
}

/// The three formats, written and read back through Runnect's own readers.
enum CourseFileFormat: String, CaseIterable, Sendable {
    case gpx, tcx, fit

    var keepsUnpositioned: Bool { self != .gpx }
    /// GPSBabel's name for the format.
    var gpsbabelFormat: String {
        switch self {
        case .gpx: return "gpx"
        case .tcx: return "gtrnctr"
        case .fit: return "garmin_fit"
        }
    }

    func writer(_ options: ExportOptions) -> any CourseFileWriter {
        switch self {
        case .gpx: return GPXWriter(options: options)
        case .tcx: return TCXWriter(options: options)
        case .fit: return FITWriter(options: options)
        }
    }

    func data(_ activity: Activity, _ options: ExportOptions) throws -> Data {
        try writer(options).data(for: activity)
    }

    func read(_ data: Data) throws -> Activity {
        try ActivityReader.read(from: MemoryByteStream(data))
    }
}
