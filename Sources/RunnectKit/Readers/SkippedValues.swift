/// Values a reader left out because they could not be read, where leaving them out loses nothing
/// of the course (an extension's `--` heart rate): counted, and reported once as a warning.
struct SkippedValues {
    private(set) var count = 0
    private var first = ""

    /// Counts one more, keeping the first one's error for the warning.
    mutating func record(_ error: any Error) {
        if count == 0 { first = "\(error)" }
        count += 1
    }

    /// Reads a value the reader can do without: on error, counts it and gives `nil`.
    mutating func tolerating(_ read: () throws -> Double?) -> Double? {
        do {
            return try read()
        } catch {
            record(error)
            return nil
        }
    }

    /// The warning for the activity; `nil` when nothing was left out.
    var warning: String? {
        count == 0 ? nil : "\(count) unreadable extension value(s) left out (first: \(first))"
    }
}
