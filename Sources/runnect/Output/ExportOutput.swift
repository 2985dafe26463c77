import ArgumentParser
import Foundation
import RunnectKit

/// Writes an output file, or standard output.
enum ExportOutput {
    /// Writes `data` to `path`, or to standard output for `nil` and `-` (see ``stream(to:_:)``).
    static func write(_ data: Data, to path: String?) throws {
        _ = try stream(to: path) { try $0.write(data) }
    }

    /// Writes what `body` hands its sink to `path`, or to standard output for `nil` and `-`, a
    /// chunk at a time. A regular file is replaced atomically once `body` returns (and left as
    /// it was when `body` throws); a device or a pipe (`/dev/null`, a FIFO) is written into,
    /// never replaced (``OutputFile``).
    /// - Returns: The bytes written.
    /// - Throws: What `body` throws (a ``WriteError`` before anything was written); an output
    ///   that cannot be written is reported and exits 73.
    static func stream(to path: String?, _ body: (inout CountingSink<FileDescriptorSink>) throws -> Void) throws -> Int
    {
        var count = 0
        do {
            if let path, path != "-" {
                try OutputFile.write(to: path) { file in
                    var sink = CountingSink(file)
                    try body(&sink)
                    count = sink.count
                }
            } else {
                var sink = CountingSink(FileDescriptorSink.standardOutput)
                try body(&sink)
                count = sink.count
            }
        } catch let error as OutputFileError {
            Diagnostics.error("\(error)")
            throw ExitStatus.cannotCreate
        }
        return count
    }
}
