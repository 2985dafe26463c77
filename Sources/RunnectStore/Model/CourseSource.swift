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
        let stream = HashingByteStream(try FileByteStream(path: path))
        activity = try ActivityReader.read(from: stream)
        contentHash = try stream.finish()
        var url = URL(fileURLWithPath: path)
        if url.pathExtension.lowercased() == "gz" { url.deletePathExtension() }  // run.tcx.gz → run
        fileName = path == "-" ? nil : url.deletingPathExtension().lastPathComponent
    }

    /// A source from parts already at hand.
    public init(activity: Activity, contentHash: String, fileName: String? = nil) {
        self.activity = activity
        self.contentHash = contentHash
        self.fileName = fileName
    }
}
