import Foundation

/// One value printed as a line of JSON on standard output, keys sorted and slashes as they are:
/// the `--json` output of the commands that print one object.
enum JSONLine {
    static func print<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        Swift.print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
