/// What a backend's integrity check found (``StoreBackend/check()``), and the image names its
/// courses hold, for ``CourseStore/check(imagesFolder:)`` to look for in a folder.
package struct StoreCheckFindings: Sendable {
    /// `"sqlite"` or `"postgresql"`.
    package var backend: String
    package var schemaVersion: Int
    package var checks: [StoreCheckReport.Check]
    /// Every course's and deleted course's image name, by course id, as the same snapshot held them.
    package var images: [StoredImage]

    package init(backend: String, schemaVersion: Int, checks: [StoreCheckReport.Check], images: [StoredImage]) {
        self.backend = backend
        self.schemaVersion = schemaVersion
        self.checks = checks
        self.images = images
    }
}

/// A course's map image as stored (`course.image`, or `deleted_course.image` for a course kept
/// for records): a file name in the server's images folder.
package struct StoredImage: Sendable, Hashable {
    package var courseID: Int64
    /// Whether the course was deleted and is kept for other runners' records.
    package var isDeleted: Bool
    package var name: String

    package init(courseID: Int64, isDeleted: Bool, name: String) {
        self.courseID = courseID
        self.isDeleted = isDeleted
        self.name = name
    }
}
