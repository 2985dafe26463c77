import Foundation
import RunnectKit

/// A database a ``CourseStore`` keeps its courses in: SQLite (``SQLiteBackend``, in this module) or
/// PostgreSQL (in `RunnectPostgres`, which conforms across the module boundary).
///
/// Everything the store decides (validation, who may change what, which course a run followed,
/// how a batch survives a failing file) is written once, in ``CourseStore``, over the few
/// primitives of ``StoreTransaction``; a backend only says how each primitive is done in its SQL.
package protocol StoreBackend: Sendable {
    /// What messages name: the file's path, or the URL without its password.
    var location: String { get }
    /// Who acts when no runner is named: `$RUNNECT_USER` (or the login) on SQLite, the role that
    /// connected on PostgreSQL.
    var defaultUser: String { get }
    /// The newest schema version this build knows, on this backend.
    var supportedSchemaVersion: Int { get }
    /// The schema version of the database.
    func schemaVersion() async throws -> Int
    /// How many transactions run at once (SQLite's readers and writer, PostgreSQL's pool).
    var connectionLimit: Int { get }

    /// Runs `body` on a consistent snapshot, as runner `user` (who must be a name
    /// ``CourseStore/acting(as:)`` accepted).
    func read<T: Sendable>(as user: String, _ body: @escaping @Sendable (any StoreTransaction) async throws -> T)
        async throws -> T
    /// Runs `body` in a write transaction as runner `user`: committed when it returns, rolled back
    /// when it throws. The backend's own errors reach the caller as ``StoreError``s; what `body`
    /// throws otherwise passes through.
    func write<T: Sendable>(as user: String, _ body: @escaping @Sendable (any StoreTransaction) async throws -> T)
        async throws -> T
    /// Runs `body` in a write transaction that may run beside another of the same runner: a
    /// copy's batches, whose rows never overlap. (``write(as:_:)`` may make them wait for each other.)
    func writeBeside<T: Sendable>(
        as user: String, _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T
    /// How many of a copy's batches are written side by side (``writeBeside(as:_:)``).
    var copyWriters: Int { get }
    /// Brings the search index into the shape fastest to query (after a bulk import).
    func optimizeSearch() async throws
    /// `runnect db optimize`: the backend's upkeep after bulk imports, each step told as it ends.
    func optimize(stepDone: @escaping @Sendable (OptimizeReport.Step) -> Void) async throws -> OptimizeReport
    /// Segments of the search's token index (a figure of the benchmarks); 0 where it has none.
    func searchIndexSegments() async throws -> Int
    /// `runnect db check`: the database's own integrity checks and the consistency its schema
    /// implies (search entries and their index, counters, records' courses), on one snapshot
    /// where the backend allows, without blocking writers for long; and the image names stored.
    func check() async throws -> StoreCheckFindings
    /// Makes the database's size on disk its data's (SQLite copies its write-ahead log into the
    /// file; a figure of the benchmarks).
    func checkpoint() async throws
    /// Makes sure each of these users can act on the store: nothing on SQLite (a user is a
    /// name), a runner's login role on PostgreSQL (as `runnect db add-user NAME --no-password
    /// --existing`), for a copy's owners. Needs an administrator on PostgreSQL, which refuses,
    /// before writing anything, names that differ from their trimmed NFC form, and names of
    /// existing roles that are not runners unless `enrollingExisting`. Returns the existing
    /// roles that became runners.
    func ensureUsers(_ names: [String], enrollingExisting: Bool) async throws -> [String]
    /// Called by a copy before its first course: a backend may set aside upkeep it does better
    /// at once, after the courses (PostgreSQL drops the pieces' box index of a store that has
    /// no course yet). Returns whether ``copyCoursesEnded()`` has anything to restore.
    func copyCoursesBegin() async throws -> Bool
    /// After a copy's courses, or when the copy stops: restores what ``copyCoursesBegin()`` set
    /// aside.
    func copyCoursesEnded() async throws
}

extension StoreBackend {
    /// One transaction after the other, as ``write(as:_:)``: SQLite has one writer.
    package func writeBeside<T: Sendable>(
        as user: String, _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        try await write(as: user, body)
    }

    package var copyWriters: Int { 1 }
    package func checkpoint() async throws {}
    package func searchIndexSegments() async throws -> Int { 0 }
    package func copyCoursesBegin() async throws -> Bool { false }
    package func copyCoursesEnded() async throws {}
}

/// A course's start, finish and matchable length, as the spatial index keeps them.
package struct CourseStart: Sendable, Equatable {
    package var id: Int64
    package var start: Coordinate
    package var finish: Coordinate
    package var pathMeters: Double

    package init(id: Int64, start: Coordinate, finish: Coordinate, pathMeters: Double) {
        self.id = id
        self.start = start
        self.finish = finish
        self.pathMeters = pathMeters
    }
}

/// Counts of a store, as the acting user may read them.
package struct StoreCounts: Sendable, Equatable {
    package var schemaVersion: Int
    package var courses: Int
    package var sharedCourses: Int
    package var owners: Int
    package var scraps: Int

    package init(schemaVersion: Int, courses: Int, sharedCourses: Int, owners: Int, scraps: Int) {
        self.schemaVersion = schemaVersion
        self.courses = courses
        self.sharedCourses = sharedCourses
        self.owners = owners
        self.scraps = scraps
    }
}

/// The primitives of one transaction of a ``StoreBackend``, all for the backend's ``StoreBackend/user``.
///
/// Ids of courses are those of the `course` table; "as the user sees it" means with
/// ``Course/isScrapped`` set for the user. No primitive checks rights beyond what its SQL says:
/// ``CourseStore`` asks first (and on PostgreSQL the row-level security policies stand behind).
package protocol StoreTransaction: StoreCopyTransaction, StoreRunnerTransaction, StoreRecordCourseTransaction,
    Sendable
{
    /// The courses a list read left out as unreadable (``courses(ids:)``, ``courses(in:sort:)``):
    /// a row that does not decode is skipped there, never failing the rest.
    var unreadable: UnreadableRows { get }

    // MARK: Courses

    /// The course as the user sees it; `nil` when there is none (or the user may not read it).
    func course(id: Int64) async throws -> Course?
    /// The courses with these ids as the user sees them, in the order given; unknown ids left out.
    func courses(ids: [Int64]) async throws -> [Course]
    /// The stored ActivityCodec bytes of course `id`; `nil` when there is none.
    func courseGeometry(id: Int64) async throws -> Data?
    /// A page of the ids of `scope` in the order of `sort` (ties by id, as ``CourseStore/list(_:sort:page:)``
    /// documents).
    func courseIDs(_ scope: CourseListScope, sort: CourseSort, limit: Int, offset: Int) async throws -> [Int64]
    /// Every course of `scope` (shared, or all the user may read) in the order of `sort`.
    func courses(in scope: SearchScope, sort: CourseSort) async throws -> [Course]
    /// A page of the ids of the courses matching every keyword (already checked by
    /// ``CourseStore/checkKeywords(_:)``), as ``CourseStore/search(keywords:scope:sort:page:)``
    /// documents.
    func searchIDs(_ request: SearchRequest) async throws -> [Int64]

    /// Inserts the course row, its search entry and its spatial entries; the owner and the
    /// creation date are the user and now unless the draft is preset. Returns the course as read
    /// back (dates as stored).
    /// - Throws: ``StoreError/duplicate(existingID:)`` when the owner stored the same content
    ///   before, without leaving the transaction unusable.
    func insertCourse(_ draft: CourseDraft) async throws -> Course
    /// Sets a course's title and re-indexes its text.
    func setTitle(id: Int64, title: String) async throws
    /// Shares a course with this title and description, and re-indexes its text.
    func share(id: Int64, title: String, description: String, at date: Date) async throws
    /// Makes a course private again and removes every user's scraps of it.
    func unshare(id: Int64) async throws
    /// How many records course `id` has: the user's and other runners'.
    func recordCounts(course id: Int64) async throws -> (own: Int, others: Int)
    /// Deletes courses with their records, scraps, search and spatial entries.
    func deleteCourses(ids: [Int64]) async throws
    /// Adds the user's scrap of a course.
    func addScrap(course id: Int64, at date: Date) async throws
    /// Removes the user's scrap of a course.
    func removeScrap(course id: Int64) async throws
    /// What ``CourseStore/summary()`` shows.
    func counts() async throws -> StoreCounts

    // MARK: Near-me search

    /// A page of the courses of `scope` whose path passes within `withinMeters` of `point`,
    /// closest first. The contract every backend keeps (the tests hold SQLite to it, and hold the
    /// backends to the same ids):
    ///
    /// - **Distance**: the shortest geodesic distance on WGS84 from `point` to the course's path,
    ///   i.e. to the closest point of any leg of its `Activity.courseSegments` (legs
    ///   between consecutive points with a position, none between segments; a one-point segment
    ///   is that point), not only to its points. `meters` is that distance to within 1 m
    ///   (SQLite: RunnectKit's `Geodesic.distance(from:toSegments:cutoff:)`, about 10 µm;
    ///   PostGIS: `ST_Distance` on `geography`, whose edges are great-circle arcs: they part from
    ///   the ellipsoid's geodesics by under a millimetre on legs of a few kilometres).
    /// - **Radius**: inclusive, a course at exactly `withinMeters` is in (`ST_DWithin`).
    /// - **Order**: by distance, then by id ascending; `offset` courses skipped, then `limit`.
    /// - **Scope**: as ``courseIDs(_:sort:limit:offset:)`` reads `CourseListScope`; ``NearbyScope/all``
    ///   is every course the user may read (on SQLite, every course).
    ///
    /// Callers have checked `point` (valid) and `withinMeters` (0 < d ≤
    /// ``CourseStore/maximumNearbyMeters``).
    func nearbyCourses(
        to point: Coordinate, withinMeters: Double, scope: NearbyScope, limit: Int, offset: Int
    ) async throws -> [CourseDistance]
    /// The distances (as ``nearbyCourses(to:withinMeters:scope:limit:offset:)`` defines them) of
    /// those of courses `ids` whose path passes within `withinMeters` of `point`; the others, and
    /// unknown ids, are left out. What keyword search near a point filters its matches with.
    func courseDistances(ids: [Int64], to point: Coordinate, withinMeters: Double) async throws -> [Int64: Double]

    // MARK: Savepoints

    /// Begins (or begins again) savepoint `name`.
    func beginSavepoint(_ name: String) async throws
    /// Keeps what was done since savepoint `name` began, and ends it.
    func releaseSavepoint(_ name: String) async throws
    /// Undoes what was done since savepoint `name` began, and ends it.
    func rollbackSavepoint(_ name: String) async throws
    /// `error` as a ``StoreError`` when it is this backend's own database error (which a batch
    /// survives by rolling back to a savepoint); `nil` for anything else.
    func storeError(_ error: any Error) -> StoreError?

    // MARK: Records

    /// The id of the user's record of the same content, if any.
    func recordID(contentHash: String) async throws -> Int64?
    /// Courses whose start lies in one of `pieces` and whose finish lies in `finishBox` (rights
    /// checked by ``canSee(course:)`` afterwards; a backend may leave out what the user cannot
    /// see already). A course starting in two pieces may come twice.
    func courseStarts(in pieces: [Bounds], finishingIn finishBox: Bounds) async throws -> [CourseStart]
    /// Whether the user can see course `id`: their own, a shared one, or one they scrapped.
    func canSee(course id: Int64) async throws -> Bool
    /// Inserts a record (owner and creation date as given) and returns its id.
    /// - Throws: ``StoreError/duplicateRecord(existingID:)`` when the owner recorded the same
    ///   content (another writer, since ``recordID(contentHash:)`` said none), leaving the
    ///   transaction usable.
    func insertRecord(_ record: NewRecord) async throws -> Int64
    /// How many of the user's other records of `course` took at most `seconds`.
    func recordsAtLeastAsFast(course: Int64, seconds: Double, excluding id: Int64) async throws -> Int
    /// The user's record `id`; `nil` when there is none.
    func record(id: Int64) async throws -> RunRecord?
    /// The stored run of the user's record `id`; `nil` when there is none.
    func recordGeometry(id: Int64) async throws -> Data?
    /// A page of the user's records, of one course or all: newest first (`start_time`, then id),
    /// or fastest first with ``RecordSort/time`` (then id).
    func records(course: Int64?, sort: RecordSort, limit: Int, offset: Int) async throws -> [RunRecord]
    /// Every record of the user of `course`, by id.
    func allRecords(course: Int64) async throws -> [RunRecord]
    /// Every runner's records of `course` (the course's counter).
    func recordCount(course: Int64) async throws -> Int
    /// The user's best course time on `course`.
    func bestCourseTime(course: Int64) async throws -> Double?
    /// Sets the title of the user's record `id`.
    func setRecordTitle(id: Int64, title: String) async throws
    /// Deletes the user's records with these ids.
    func deleteRecords(ids: [Int64]) async throws
}

/// The primitives a copy of a whole store reads and writes with (``CourseStore/copy(from:batchSize:enrollingExistingRoles:progress:)``):
/// every owner's rows, as an administrator sees them on PostgreSQL.
package protocol StoreCopyTransaction {
    /// Up to `limit` courses with ids above `id`, by id.
    func storedCourses(after id: Int64, limit: Int) async throws -> [StoredCourse]
    /// Up to `limit` records with ids above `id`, by id, as ``NewRecord``s with their ids.
    func storedRecords(after id: Int64, limit: Int) async throws -> [NewRecord]
    /// Every scrap.
    func storedScraps() async throws -> [StoredScrap]
    /// Every name owning a course or a record, or scrapping a course.
    func storedUsers() async throws -> [String]
    /// The owner and content of those of courses `ids` that are here, whoever owns them.
    func courseIdentities(ids: [Int64]) async throws -> [Int64: StoredIdentity]
    /// Inserts a copy's drafts (each with its source id, preset owner, dates and sharing) and
    /// their search entries, in order, until one holds content its owner has here under another
    /// id: then that draft's position and the id it has here (the caller throws, and the
    /// transaction writes nothing); `nil` when every draft was inserted.
    func insertCopiedCourses(_ drafts: [CourseDraft]) async throws -> (index: Int, existingID: Int64)?
    /// The owner and content of record `id`, whoever owns it; `nil` when there is none.
    func recordIdentity(id: Int64) async throws -> StoredIdentity?
    /// Adds a scrap unless it is there; whether it was added.
    func insertScrap(_ scrap: StoredScrap) async throws -> Bool
    /// Every course kept for other runners' records after its owner deleted it, by id.
    func storedDeletedCourses() async throws -> [StoredDeletedCourse]
    /// Keeps these deleted courses (those not here yet) and moves the course ids past theirs, so
    /// that no new course takes a deleted one's id; how many were added.
    /// - Throws: ``StoreError/copyConflict(kind:id:reason:)`` when a course here has the id of one.
    func insertDeletedCourses(_ courses: [StoredDeletedCourse]) async throws -> Int
    /// After rows were inserted with their own ids: new rows get ids above them.
    func identitiesCopied() async throws
}

/// A record about to be inserted: what ``StoreTransaction/insertRecord(_:)`` writes.
package struct NewRecord: Sendable {
    /// The id to keep (a copy), else `nil` for a new one.
    package var id: Int64?
    package var owner: String
    package var courseID: Int64
    package var title: String
    package var sourceFormat: String
    package var contentHash: String
    package var createdAt: Date
    package var startTime: Date?
    package var distanceMeters: Double
    package var pointCount: Int
    package var deviceTimerSeconds: Double?
    package var courseTimeSeconds: Double
    package var courseDistanceMeters: Double
    package var matchCoverage: Double
    /// The stats JSON text (``StoredStats``).
    package var statsJSON: String
    package var geometry: Data
    /// What the app adds: a reported time (no track), its pace, the shared page it came from.
    package var marks = RecordMarks(isReported: false, reportedPaceSeconds: nil, isFromSharedPage: false)

    package init(
        id: Int64? = nil, owner: String, courseID: Int64, title: String, sourceFormat: String, contentHash: String,
        createdAt: Date, startTime: Date?, distanceMeters: Double, pointCount: Int, deviceTimerSeconds: Double?,
        courseTimeSeconds: Double, courseDistanceMeters: Double, matchCoverage: Double, statsJSON: String,
        geometry: Data
    ) {
        self.id = id
        self.owner = owner
        self.courseID = courseID
        self.title = title
        self.sourceFormat = sourceFormat
        self.contentHash = contentHash
        self.createdAt = createdAt
        self.startTime = startTime
        self.distanceMeters = distanceMeters
        self.pointCount = pointCount
        self.deviceTimerSeconds = deviceTimerSeconds
        self.courseTimeSeconds = courseTimeSeconds
        self.courseDistanceMeters = courseDistanceMeters
        self.matchCoverage = matchCoverage
        self.statsJSON = statsJSON
        self.geometry = geometry
    }
}

extension StoreTransaction {
    /// One insert a draft (SQLite, where a statement costs no round trip).
    package func insertCopiedCourses(_ drafts: [CourseDraft]) async throws -> (index: Int, existingID: Int64)? {
        for (index, draft) in drafts.enumerated() {
            do {
                _ = try await insertCourse(draft)
            } catch StoreError.duplicate(let existingID) {
                return (index, existingID)
            }
        }
        return nil
    }
}
