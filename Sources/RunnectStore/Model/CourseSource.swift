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

    /// Reads a file received whole (a server's upload), as ``init(path:)`` reads one from disk:
    /// the format detected from the content, gzip inflated, the bytes hashed.
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - fileName: The name it came with, or `nil`; its extensions (`.gpx.gz`, `.fit`) are
    ///     dropped for the default title, and a folder part is ignored.
    ///   - inflateLimit: The most bytes a gzip file may inflate to.
    /// - Throws: RunnectKit's `ReadError` when the bytes cannot be read as a course.
    public init(bytes: [UInt8], fileName: String?, inflateLimit: Int = GzipByteStream.defaultMaxOutputBytes) throws {
        let stream = HashingByteStream(MemoryByteStream(bytes))
        let all = try ActivityReader.readAll(from: stream, inflateLimit: inflateLimit)
        guard let first = all.first else { throw ReadError.unrecognizedFormat("the file holds no activity") }
        activity = all.count == 1 ? first : Activity.merging(all, format: first.format)
        contentHash = try stream.finish()
        self.fileName = fileName.flatMap(Self.stem)
    }

    /// A file name without its folder and extensions (`run.tcx.gz` → `run`); `nil` when nothing
    /// is left.
    static func stem(_ name: String) -> String? {
        var url = URL(fileURLWithPath: (name as NSString).lastPathComponent)
        if url.pathExtension.lowercased() == "gz" { url.deletePathExtension() }
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
