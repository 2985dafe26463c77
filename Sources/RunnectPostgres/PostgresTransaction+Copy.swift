import Foundation
import RunnectStore

extension PostgresTransaction {
    // MARK: - Copy (not yet on PostgreSQL)

    /// What the copy primitives throw until `db copy` runs on PostgreSQL.
    static var copyNotYet: StoreError {
        .database("`runnect db copy` does not run on PostgreSQL yet; copy between SQLite files")
    }

    func storedCourses(after id: Int64, limit: Int) throws -> [StoredCourse] { throw Self.copyNotYet }
    func storedRecords(after id: Int64, limit: Int) throws -> [NewRecord] { throw Self.copyNotYet }
    func storedScraps() throws -> [StoredScrap] { throw Self.copyNotYet }
    func storedUsers() throws -> [String] { throw Self.copyNotYet }
    func courseIdentity(id: Int64) throws -> StoredIdentity? { throw Self.copyNotYet }
    func recordIdentity(id: Int64) throws -> StoredIdentity? { throw Self.copyNotYet }
    func insertScrap(_ scrap: StoredScrap) throws -> Bool { throw Self.copyNotYet }
    func identitiesCopied() throws { throw Self.copyNotYet }
}
