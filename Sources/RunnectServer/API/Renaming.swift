import Foundation

/// A rename's body (`{title}`) and what it answers of the thing renamed (`{id, title}`): a
/// course's and a record's alike (API §3.3 #11, §3.5 #23).
enum Renaming {
    struct Body: Decodable, Sendable { var title: String }

    struct Renamed: Encodable, Sendable {
        var id: Int64
        var title: String
    }
}
