import Foundation
import RunnectKit

/// A file read and hashed for import, in one pass over its bytes.
///
/// Reading needs no store, so files can be read on several threads while one thread imports
/// them with ``CourseStore/importSource(_:title:description:departure:)``.
public struct CourseSource: Sendable {
    /// What the file holds.
    public var activity: Activity
    /// Lowercase hex SHA-256 of every byte of the file.
    public var contentHash: String
    /// The file name without its extension (the default title when the file names nothing);
    /// `nil` for standard input.
    public var fileName: String?

    /// Reads `path` (`-` for standard input), detecting the format from the content, and hashes
    /// its bytes as they stream past the reader (bytes after the document's end included).
    /// - Throws: RunnectKit's `ReadError` when the file cannot be opened or read as a course.
    public init(path: String) throws {
        try self.init(path: path, named: path == "-" ? nil : path)
    }

    /// Reads `path` as ``init(path:)`` does, named otherwise: a server's upload, kept in a
    /// temporary file, under the name its client gave.
    /// - Parameters:
    ///   - path: The file; `-` reads standard input.
    ///   - name: The name ``fileName`` is made from (its folder and extensions, `.gpx.gz` too,
    ///     dropped); `nil` for none.
    ///   - inflateLimit: The most bytes a gzip file may inflate to.
    /// - Throws: RunnectKit's `ReadError` when the file cannot be opened or read as a course.
    public init(path: String, named name: String?, inflateLimit: Int = GzipByteStream.defaultMaxOutputBytes) throws {
        let stream = HashingByteStream(try FileByteStream(path: path))
        activity = try ActivityReader.read(from: stream, inflateLimit: inflateLimit)
        contentHash = try stream.finish()
        fileName = name.flatMap(Self.stem)
    }

    /// A file name without its folder and extensions (`runs/run.tcx.gz` → `run`); `nil` when
    /// nothing is left.
    static func stem(_ name: String) -> String? {
        var url = URL(fileURLWithPath: (name as NSString).lastPathComponent)
        if url.pathExtension.lowercased() == "gz" { url.deletePathExtension() }  // run.tcx.gz → run
        let stem = url.deletingPathExtension().lastPathComponent
        return stem.isEmpty || stem == "/" ? nil : stem
    }

    /// A source from parts already at hand.
    public init(activity: Activity, contentHash: String, fileName: String? = nil) {
        self.activity = activity
        self.contentHash = contentHash
        self.fileName = fileName
    }
}
