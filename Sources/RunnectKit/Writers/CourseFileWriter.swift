import Foundation

/// A writer of files a watch takes a course or a run in: ``GPXWriter``, ``TCXWriter`` and
/// ``FITWriter``.
///
/// Each checks its input before it writes a byte (a refused course never leaves half a file)
/// and hands its output to a ``ByteSink`` in chunks, so its memory does not grow with the file.
///
/// ```swift
/// let writers: [any CourseFileWriter] = [GPXWriter(), TCXWriter(), FITWriter()]
/// for writer in writers { try writer.data(for: activity).write(to: url(for: writer)) }
/// ```
public protocol CourseFileWriter: Sendable {
    /// Course or run, name, description, pace.
    var options: ExportOptions { get set }

    /// Writes `activity` (its ``Activity/courseSegments``) into `sink`.
    /// - Parameters:
    ///   - activity: The course or run.
    ///   - sink: Where the bytes go, a chunk at a time.
    /// - Throws: ``WriteError`` before anything is written, or the sink's error.
    func write<Sink: ByteSink>(_ activity: Activity, to sink: inout Sink) throws
}

extension CourseFileWriter {
    /// The whole file in memory (for a small course, such as the discovery index's).
    /// - Throws: ``WriteError``.
    public func data(for activity: Activity) throws -> Data {
        var data = Data()
        try write(activity, to: &data)
        return data
    }
}
