import ArgumentParser

/// A record named on the command line: `record:R` as records print, or `R`.
///
/// Records print as `record:R` and courses as `#C`, so that a record's number is never taken for
/// a course's (`show 2` is course 2).
struct RecordID: ExpressibleByArgument {
    /// The record's id in the store.
    var value: Int64

    static let prefix = "record:"

    init?(argument: String) {
        let digits = argument.hasPrefix(Self.prefix) ? argument.dropFirst(Self.prefix.count) : Substring(argument)
        guard let value = Int64(digits) else { return nil }
        self.value = value
    }

    /// `record:R`, as records print.
    static func label(_ id: Int64) -> String { "\(prefix)\(id)" }
}
