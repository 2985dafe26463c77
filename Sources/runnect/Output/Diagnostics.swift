import Foundation

/// Errors and warnings go to standard error, one line each, prefixed with the tool's name.
enum Diagnostics {
    static func error(_ message: String) {
        write("runnect: error: \(message)\n")
    }

    /// Information that is not a problem (a file skipped because it is already imported).
    static func note(_ message: String) {
        write("runnect: \(message)\n")
    }

    static func warning(_ message: String) {
        write("runnect: warning: \(message)\n")
    }

    /// One line: a control character in the message (a file name, a title) is shown escaped.
    private static func write(_ text: String) {
        FileHandle.standardError.write(Data((String(text.dropLast()).forTerminal + "\n").utf8))
    }
}
