import Foundation
import RunnectKit
import RunnectStore

/// A course or a recorded run as a file to download, written as `runnect export` writes it:
/// GPX, TCX and FIT with RunnectKit's writers (a course's times at 6:00 per km from when it was
/// stored, a run's own), GeoJSON with the course's report as properties (its owner left out),
/// and the SVG preview.
///
/// Its ``etag`` is made from what goes into the file, not from the file, so a request can be
/// answered 304, or from ``DownloadCache``, before the path is read or a byte written.
struct CourseFile: Sendable {
    /// A download's `format`.
    enum Format: String, CaseIterable, Sendable {
        case gpx, tcx, fit, geojson, svg

        /// What a record's run is downloaded as (a run has no GeoJSON or preview here).
        static let runFormats: [Format] = [.gpx, .tcx, .fit]

        var contentType: String {
            switch self {
            case .gpx: "application/gpx+xml"
            case .tcx: "application/vnd.garmin.tcx+xml"
            case .fit: "application/vnd.ant.fit"
            case .geojson: "application/geo+json"
            case .svg: "image/svg+xml"
            }
        }
    }

    /// What a file is made of, short of the path: what its ETag is made from.
    struct Source: Sendable {
        var format: Format
        /// `course-12` or `record-7`: where the file comes from.
        var key: String
        /// The title, which names the file.
        var title: String
        /// Everything else the file holds but the path, as text (the path is named by its
        /// content hash, and never changes under an id).
        var fingerprint: String

        /// The strong ETag: the first 128 bits of the SHA-256 of the format, the writers'
        /// version, the source and its fingerprint, quoted.
        var etag: String {
            EntityTag.of(
                Array([Self.writersVersion, format.rawValue, key, title, fingerprint].joined(separator: "\n").utf8))
        }

        /// Bumped whenever a writer's output changes for the same input, so that no client keeps
        /// an old file as current.
        static let writersVersion = "runnect-files-1"
    }

    /// The file's bytes.
    var bytes: [UInt8]
    var source: Source

    /// Where a course's file comes from, without its path: what the format writes of the course
    /// beside the path (named by its content hash), so that a change the file does not show (a
    /// scrap of a popular course) keeps its tag and its kept copy.
    static func source(course: Course, format: Format) throws -> Source {
        let fingerprint: String
        switch format {
        case .gpx, .tcx, .fit:
            // The title (in the tag already), the description, and the times' start.
            fingerprint = [
                course.contentHash, course.description ?? "", String(course.createdAt.timeIntervalSince1970),
            ].joined(separator: "\n")
        case .svg:
            fingerprint = course.contentHash
        case .geojson:
            // Every figure of the report is a property.
            var report = CourseReport(course)
            report.includesOwner = false
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            fingerprint = course.contentHash + String(decoding: try encoder.encode(report), as: UTF8.self)
        }
        return Source(format: format, key: "course-\(course.id)", title: course.title, fingerprint: fingerprint)
    }

    /// Where a record's file comes from, without its run.
    static func source(record: RunRecord, format: Format) -> Source {
        Source(format: format, key: "record-\(record.id)", title: record.title, fingerprint: record.contentHash)
    }

    /// A course's file.
    /// - Throws: RunnectKit's `WriteError` (a course with no path to follow), encoding errors.
    static func course(_ course: Course, activity: Activity, format: Format) throws -> CourseFile {
        let source = try source(course: course, format: format)
        switch format {
        case .gpx, .tcx, .fit:
            let options = ExportOptions(
                kind: .course, name: course.title, description: course.description, startTime: course.createdAt)
            return CourseFile(bytes: try write(activity, format: format, options: options), source: source)
        case .geojson:
            var report = CourseReport(course)
            report.includesOwner = false
            let document = try GeoJSONWriter.document(for: activity, id: course.id, properties: report)
            return CourseFile(bytes: Array(document), source: source)
        case .svg:
            var options = SVGPreviewOptions()
            options.title = course.title
            return CourseFile(
                bytes: Array(try SVGPreview(activity: activity, options: options).svg.utf8), source: source)
        }
    }

    /// A record's run as a file (GPX, TCX or FIT only), with its own times.
    /// - Throws: RunnectKit's `WriteError`.
    static func run(_ record: RunRecord, activity: Activity, format: Format) throws -> CourseFile {
        let options = ExportOptions(kind: .run, name: record.title)
        return CourseFile(
            bytes: try write(activity, format: format, options: options),
            source: source(record: record, format: format))
    }

    private static func write(_ activity: Activity, format: Format, options: ExportOptions) throws -> [UInt8] {
        let writer: any CourseFileWriter =
            switch format {
            case .tcx: TCXWriter(options: options)
            case .fit: FITWriter(options: options)
            default: GPXWriter(options: options)
            }
        return Array(try writer.data(for: activity))
    }

    /// `Content-Disposition` for a file of `title`: `attachment` with an ASCII `filename` (an
    /// ASCII title's letters and digits, else `fallback`) and the title itself in RFC 5987's
    /// `filename*`, with anything a file system or a header cannot hold left out.
    static func disposition(title: String, fallback: String, format: Format) -> String {
        let ext = format.rawValue
        var ascii = ""
        for scalar in title.unicodeScalars {
            if CharacterSet.asciiAlphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar) {
                ascii.unicodeScalars.append(scalar)
            } else if !ascii.isEmpty, ascii.last != "_" {
                ascii.append("_")
            }
        }
        ascii = String(ascii.trimmingCharacters(in: CharacterSet(charactersIn: "_.-")).prefix(60))
        // A title in another script keeps only its digits here ("10K"): the id says more.
        if ascii.count < 3 || title.unicodeScalars.contains(where: { !$0.isASCII }) { ascii = fallback }
        let unsafe = CharacterSet(charactersIn: "/\\\"").union(.controlCharacters).union(.newlines)
        let kept = String(String.UnicodeScalarView(title.unicodeScalars.filter { !unsafe.contains($0) }))
            .trimmingCharacters(in: .whitespaces)
        var header = "attachment; filename=\"\(ascii).\(ext)\""
        let allowed = CharacterSet(charactersIn: "!#$&+-.^_`|~").union(.asciiAlphanumerics)
        if !kept.isEmpty, let encoded = "\(kept).\(ext)".addingPercentEncoding(withAllowedCharacters: allowed) {
            header += "; filename*=UTF-8''\(encoded)"
        }
        return header
    }
}

extension CharacterSet {
    /// A–Z, a–z, 0–9 only (`alphanumerics` holds every script's letters and digits).
    fileprivate static let asciiAlphanumerics = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
}
