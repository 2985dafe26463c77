import ArgumentParser
import Foundation

/// Writes an output file (or standard output) in one piece.
enum ExportOutput {
    static func write(_ data: Data, to path: String?) throws {
        guard let path, path != "-" else {
            FileHandle.standardOutput.write(data)
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            Diagnostics.error("\(path): cannot write: \(error.localizedDescription)")
            throw ExitStatus.cannotCreate
        }
    }
}
