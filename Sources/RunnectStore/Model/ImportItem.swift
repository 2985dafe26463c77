/// A file to import, with what to store it under.
public struct ImportItem: Sendable, Hashable {
    /// The file; `-` reads standard input.
    public var path: String
    /// 1–40 characters; `nil` takes the file's own name (see ``CourseDraft``).
    public var title: String?
    /// `nil` takes the file's own description.
    public var description: String?
    /// Where the course starts.
    public var departure: Departure?

    /// An item; every field but `path` is optional.
    public init(path: String, title: String? = nil, description: String? = nil, departure: Departure? = nil) {
        self.path = path
        self.title = title
        self.description = description
        self.departure = departure
    }
}
