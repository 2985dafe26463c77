import Foundation
import RunnectStore

/// Strong entity tags, and the `If-None-Match` check that answers 304 (RFC 9110 §8.8.3,
/// §13.1.2): what the page's files and the downloads share.
enum EntityTag {
    /// A strong tag for `bytes`: the first 32 hex digits of their SHA-256, quoted.
    static func of(_ bytes: [UInt8]) -> String {
        "\"" + ContentHash.of(bytes).prefix(32) + "\""
    }

    /// Whether `If-None-Match` (its header values, each a list of tags, or `*`) names `tag`, by
    /// the weak comparison RFC 9110 asks for here (`W/"x"` matches `"x"`).
    static func isNamed(_ tag: String, byIfNoneMatch values: [String]) -> Bool {
        for value in values {
            for candidate in value.split(separator: ",") {
                var candidate = candidate.trimmingCharacters(in: .whitespaces)
                if candidate == "*" { return true }
                if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
                if candidate == tag { return true }
            }
        }
        return false
    }
}
