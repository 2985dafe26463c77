/// The searchable text of one course, as given to ``SQLiteSearchIndex/index(_:courseID:fields:)``.
package struct SearchFields: Sendable, Equatable {
    var title: String
    var description: String?
    /// The departure parts that are present, in order: region, city, town, detail, name.
    var departure: [String]

    package init(title: String, description: String? = nil, departure: [String] = []) {
        self.title = title
        self.description = description
        self.departure = departure
    }
}
