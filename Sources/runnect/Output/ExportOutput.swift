import ArgumentParser
import Foundation
import RunnectKit

/// Writes an output file (or standard output) in one piece.
enum ExportOutput {
    /// Writes `data` to `path`, or to standard output for `nil` and `-`. A regular file is replaced
    /// atomically; a device or a pipe (`/dev/null`, a FIFO) is written into, never replaced
    /// (``OutputFile``).
    static func write(_ data: Data, to path: String?) throws {
        guard let path, path != "-" else {
            FileHandle.standardOutput.write(data)
            return
        }
        do {
            try OutputFile.write(data, to: path)
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.cannotCreate
        }
    }
}
