import Foundation
import PostgresNIO
import RunnectKit
import RunnectStore

/// One transaction of a ``PostgresBackend``: the primitives of `StoreTransaction` in
/// PostgreSQL's SQL, every value a bound parameter.
///
/// Errors of the server or the connection pass through as they come (`PSQLError`): the backend
/// decides whether the transaction runs again, and ``storeError(_:)`` which ones a batch may
/// survive.
///
/// `@unchecked Sendable`: one task uses it, for the length of its transaction.
final class PostgresTransaction: StoreTransaction, @unchecked Sendable {
    let connection: PostgresConnection
    let user: String
    let plans: PostgresSearchPlans
    /// The planner's estimates the backend has asked for.
    let estimates: PostgresSearchEstimates
    let unreadable = UnreadableRows()

    init(
        connection: PostgresConnection, user: String, plans: PostgresSearchPlans,
        estimates: PostgresSearchEstimates = PostgresSearchEstimates()
    ) {
        self.connection = connection
        self.user = user
        self.plans = plans
        self.estimates = estimates
    }

    // MARK: - Statements

    /// Runs `body` as this transaction: `BEGIN` (and `SET LOCAL ROLE` to `role`, when the
    /// connection's role acts for a runner), the body, `COMMIT`; `ROLLBACK` when anything fails.
    func run<T: Sendable>(
        readOnly: Bool, role: RoleName?, oneWriter: Bool, phase: TransactionPhase,
        _ body: @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        do {
            // A read's BEGIN is not waited for: its first statement follows it on the connection
            // (a round trip fewer); should it fail, so does what follows.
            var begun: EventLoopFuture<PostgresQueryResult>?
            if readOnly {
                begun = try await send("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            } else {
                try await execute("BEGIN")
            }
            if let role {
                phase.settingRole = true
                try await execute("SET LOCAL ROLE \(role.quoted)")
                phase.settingRole = false
            }
            if !readOnly && oneWriter { try await execute(PostgresBackend.oneWriterPerRunner) }
            let value = try await body(self)
            _ = try await begun?.get()
            phase.committing = true
            try await execute("COMMIT")
            return value
        } catch {
            // A failed COMMIT has already ended the transaction; ROLLBACK then only warns.
            if !connection.isClosed && !phase.committing { _ = try? await query("ROLLBACK") }
            throw error
        }
    }

    /// Runs one statement and waits for its rows and its command tag.
    @discardableResult
    func query(_ query: PostgresQuery) async throws -> PostgresQueryResult {
        guard !connection.isClosed else { throw PostgresFailure.ConnectionClosed() }
        return try await Self.answered(connection.query(query, logger: PostgresSession.silentLogger), on: connection)
            .get()
    }

    /// Sends a statement of fixed text without waiting for it: the connection runs it, and what
    /// is sent after it, in order; its answer (or error) is the future's.
    func send(_ sql: String) async throws -> EventLoopFuture<PostgresQueryResult> {
        guard !connection.isClosed else { throw PostgresFailure.ConnectionClosed() }
        return Self.answered(
            connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresSession.silentLogger), on: connection)
    }

    /// The answer of a statement just sent, or ``PostgresFailure/ConnectionClosed`` when the
    /// connection had closed before the statement reached it.
    ///
    /// postgres-nio writes a statement to its channel without a promise: one written after the
    /// channel closed is dropped, neither answered nor failed, and its request waited forever
    /// (seen after `pg_ctl restart -m immediate`: a request of `runnect serve` unanswered, and
    /// the server's SIGTERM unable to end it). The channel's writes run on its event loop in the
    /// order they were made, so a check queued there after the statement's write sees whether
    /// the channel was still open for it; a channel that closes later fails what it holds itself.
    static func answered(
        _ sent: EventLoopFuture<PostgresQueryResult>, on connection: PostgresConnection
    ) -> EventLoopFuture<PostgresQueryResult> {
        let answer = sent.eventLoop.makePromise(of: PostgresQueryResult.self)
        sent.cascade(to: answer)
        sent.eventLoop.execute {
            // A promise completed already (the statement's answer came first) ignores this.
            if connection.isClosed { answer.fail(PostgresFailure.ConnectionClosed()) }
        }
        return answer.futureResult
    }

    /// Runs a statement of fixed text (no values).
    func execute(_ sql: String) async throws {
        try await query(PostgresQuery(unsafeSQL: sql))
    }

    /// The first column of every row.
    func column<T: PostgresDecodable>(_ type: T.Type, _ query: PostgresQuery) async throws -> [T] {
        try await self.query(query).rows.map { try $0.decode(T.self) }
    }

    /// The first column of the first row, if any.
    func value<T: PostgresDecodable>(_ type: T.Type, _ query: PostgresQuery) async throws -> T? {
        try await self.query(query).rows.first.map { try $0.decode(T.self) }
    }

    // MARK: - Courses

    /// Every column of a course but its geometry, and whether the user scrapped it: what
    /// ``course(_:)`` decodes. `c` is the course.
    static let courseColumns = """
        c.id, c.owner, c.title, c.description, c.departure_region, c.departure_city, c.departure_town,
        c.departure_detail, c.departure_name, c.source_format, c.content_hash, c.stats::text, c.created_at,
        c.is_uploaded, c.uploaded_at, c.scrap_count,
        EXISTS (SELECT 1 FROM scrap x WHERE x.course_id = c.id AND x."user" = $1) AS is_scrapped
        """

    /// The departure in the five columns from `first` (region, city, town, detail, name); `nil`
    /// without a region, a city and a town.
    static func departure(_ r: PostgresRandomAccessRow, from first: Int) throws -> Departure? {
        guard let region = try r[first].decode(String?.self), let city = try r[first + 1].decode(String?.self),
            let town = try r[first + 2].decode(String?.self)
        else { return nil }
        return Departure(
            region: region, city: city, town: town, detail: try r[first + 3].decode(String?.self),
            name: try r[first + 4].decode(String?.self))
    }

    /// A row of ``courseColumns``.
    static func course(_ row: PostgresRow) throws -> Course {
        let r = row.makeRandomAccess()
        let departure = try departure(r, from: 4)
        let id = try r[0].decode(Int64.self)
        let stats: StoredStats
        do {
            stats = try StoredStats.decode(Data(try r[11].decode(String.self).utf8))
        } catch {
            throw StoreError.database("course \(id) has unreadable stats: \(error)")
        }
        return Course(
            id: id, owner: try r[1].decode(String.self), title: try r[2].decode(String.self),
            description: try r[3].decode(String?.self), departure: departure,
            sourceFormat: try r[9].decode(String.self), contentHash: try r[10].decode(String.self),
            stats: stats.stats, createdAt: try r[12].decode(Date.self), isUploaded: try r[13].decode(Bool.self),
            uploadedAt: try r[14].decode(Date?.self), scrapCount: try r[15].decode(Int.self),
            isScrapped: try r[16].decode(Bool.self))
    }

    /// The courses of `rows` that decode; the others noted in ``unreadable``.
    private func readableCourses(_ rows: [PostgresRow]) -> [Course] {
        rows.compactMap { row in
            do {
                return try Self.course(row)
            } catch {
                unreadable.skip(course: (try? row.makeRandomAccess()[0].decode(Int64.self)) ?? 0, error)
                return nil
            }
        }
    }

    func course(id: Int64) async throws -> Course? {
        let sql = "SELECT \(Self.courseColumns) FROM course c WHERE c.id = $2"
        return try await query(PostgresQuery(unsafeSQL: sql, binds: try binds(user, id))).rows.first.map(Self.course)
    }

    /// The courses of `ids` the user may read, in that order: ``courseColumns`` read by
    /// `runnect_courses`, whose plan the connection keeps (or as ``PostgresSearchPlans/coursesRead``
    /// says, for the benchmark that weighs the function against the alternatives).
    func courses(ids: [Int64]) async throws -> [Course] {
        guard !ids.isEmpty else { return [] }
        let rows: [PostgresRow]
        switch plans.coursesRead {
        case .function:
            rows = try await query("SELECT * FROM runnect_courses(\(user), \(ids))").rows
        case .preparedStatement:
            guard !connection.isClosed else { throw PostgresFailure.ConnectionClosed() }
            var read: [PostgresRow] = []
            for try await row in try await connection.execute(
                CoursesStatement(viewer: user, ids: ids), logger: PostgresSession.silentLogger)
            {
                read.append(row)
            }
            rows = read
        case .statement:
            let sql = "SELECT \(Self.courseColumns) FROM course c WHERE c.id = ANY($2)"
            rows = try await query(PostgresQuery(unsafeSQL: sql, binds: try binds(user, ids))).rows
        }
        let byID = Dictionary(readableCourses(rows).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    /// ``courseColumns`` of the courses of `ids`, as postgres-nio's prepared statement: parsed
    /// and planned once per connection.
    struct CoursesStatement: PostgresPreparedStatement {
        static let sql = "SELECT \(courseColumns) FROM course c WHERE c.id = ANY($2)"
        typealias Row = PostgresRow

        var viewer: String
        var ids: [Int64]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(viewer)
            bindings.append(ids)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
    }

    func courseGeometry(id: Int64) async throws -> Data? {
        try await value(Data.self, "SELECT geometry FROM course WHERE id = \(id)")
    }

    /// `ORDER BY` terms of a list order of `course c`; ties end with the id.
    static func order(_ sort: CourseSort) -> String {
        switch sort {
        case .date, .relevance: "c.created_at DESC, c.id DESC"
        case .scrap: "c.scrap_count DESC, c.created_at DESC, c.id DESC"
        case .distance: "c.distance_m, c.id"
        }
    }

    func courseIDs(_ scope: CourseListScope, sort: CourseSort, limit: Int, offset: Int) async throws -> [Int64] {
        var bindings = PostgresBindings()
        let filter = scopeFilter(scope, &bindings)
        bindings.append(limit)
        bindings.append(offset)
        let n = bindings.count
        let sql = "SELECT c.id FROM course c WHERE \(filter) ORDER BY \(Self.order(sort)) LIMIT $\(n - 1) OFFSET $\(n)"
        return try await column(Int64.self, PostgresQuery(unsafeSQL: sql, binds: bindings))
    }

    /// The condition on `course c` of a list's courses, its values appended to `bindings`.
    /// (Row-level security already hides what the user may not read.)
    func scopeFilter(_ scope: CourseListScope, _ bindings: inout PostgresBindings) -> String {
        switch scope {
        case .mine(let uploaded):
            bindings.append(user)
            let owner = "c.owner = $\(bindings.count)"
            guard let uploaded else { return owner }
            bindings.append(uploaded)
            return "\(owner) AND c.is_uploaded = $\(bindings.count)"
        case .scrapped:
            bindings.append(user)
            return #"c.id IN (SELECT x.course_id FROM scrap x WHERE x."user" = $\#(bindings.count))"#
        case .shared:
            return "c.is_uploaded"
        case .sharedBy(let owner):
            bindings.append(owner)
            return "c.owner = $\(bindings.count) AND c.is_uploaded"
        }
    }

    func courses(in scope: SearchScope, sort: CourseSort) async throws -> [Course] {
        let filter = scope == .shared ? "WHERE c.is_uploaded" : ""
        let sql = "SELECT \(Self.courseColumns) FROM course c \(filter) ORDER BY \(Self.order(sort))"
        return readableCourses(try await query(PostgresQuery(unsafeSQL: sql, binds: try binds(user))).rows)
    }

    // MARK: - Writing courses

    func insertCourse(_ draft: CourseDraft) async throws -> Course {
        let record = draft.record
        let owner = draft.isPreset ? record.owner : user
        var bindings = PostgresBindings()
        let row = try Self.appendCourse(draft, owner: owner, to: &bindings)
        let columns = row.columns
        let values = row.placeholders
        let sql = """
            INSERT INTO course (\(columns.joined(separator: ", "))) VALUES \(values)
            ON CONFLICT (owner, content_hash) DO NOTHING RETURNING id
            """
        guard let id = try await value(Int64.self, PostgresQuery(unsafeSQL: sql, binds: bindings)) else {
            // The same content stored before (by a transaction that committed meanwhile, too: an
            // insert of a conflicting row waits for it). Nothing was written.
            let existing = try await value(
                Int64.self, "SELECT id FROM course WHERE owner = \(owner) AND content_hash = \(record.contentHash)")
            guard let existing else {
                throw StoreError.database("course \(record.contentHash) of \(owner) conflicts but cannot be read")
            }
            throw StoreError.duplicate(existingID: existing)
        }
        try await index(courseID: id, entry: draft.searchEntry, createdAt: row.createdAt)
        try await insertPieces([(id, draft)])
        guard let course = try await course(id: id) else { throw StoreError.notFound(id) }
        return course
    }

    /// The columns of a course row for `draft`, its values appended to `bindings` and their
    /// placeholders as one `(…)` of a `VALUES` list, and its creation date.
    static func appendCourse(_ draft: CourseDraft, owner: String, to bindings: inout PostgresBindings) throws -> (
        columns: [String], placeholders: String, createdAt: Date
    ) {
        let record = draft.record
        // The store's dates have millisecond resolution (as SQLite's text dates): the search's
        // `created_ms` and the lists' `created_at` then agree on the order.
        let createdAt = milliseconds(draft.isPreset ? record.createdAt : Date())
        var columns = [
            "owner", "title", "description", "departure_region", "departure_city", "departure_town",
            "departure_detail", "departure_name", "source_format", "content_hash", "created_at", "distance_m",
            "point_count", "stats", "geometry", "path", "start_lat", "start_lon", "finish_lat", "finish_lon", "path_m",
        ]
        let first = bindings.count + 1
        bindings.append(owner)
        bindings.append(record.title)
        bindings.append(record.description)
        bindings.append(record.departureRegion)
        bindings.append(record.departureCity)
        bindings.append(record.departureTown)
        bindings.append(record.departureDetail)
        bindings.append(record.departureName)
        bindings.append(record.sourceFormat)
        bindings.append(record.contentHash)
        bindings.append(createdAt)
        bindings.append(record.distanceMeters)
        bindings.append(record.pointCount)
        bindings.append(draft.statsJSON)
        try bindings.append(record.geometry)
        try bindings.append(pathWKB(draft.path))
        let bounds = draft.bounds
        bindings.append(bounds?.start.latitude)
        bindings.append(bounds?.start.longitude)
        bindings.append(bounds?.finish.latitude)
        bindings.append(bounds?.finish.longitude)
        bindings.append(bounds?.pathMeters)
        if let id = record.id {
            // A copy keeps the source's ids (an administrator's: runners have no grant on it).
            columns.append("id")
            bindings.append(id)
        }
        if draft.isPreset {
            // Benchmarks and copies build stores as an administrator: runners have no grant on these.
            columns += ["is_uploaded", "uploaded_at", "scrap_count"]
            bindings.append(record.isUploaded)
            bindings.append(record.uploadedAt.map(milliseconds))
            bindings.append(record.scrapCount)
        }
        let values = columns.enumerated().map { offset, column in
            let n = first + offset
            return switch column {
            case "stats": "$\(n)::json"
            case "path": "ST_GeogFromWKB($\(n))"
            default: "$\(n)"
            }
        }
        return (columns, "(" + values.joined(separator: ", ") + ")", createdAt)
    }

    /// `date` at the nearest millisecond (the store's resolution, as SQLite's text dates).
    static func milliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(wholeMilliseconds(date)) / 1000)
    }

    /// `date` in whole milliseconds since 1970, to the nearest: a date read from SQLite's text
    /// (`…34.739`) arrives as a double a hair below its millisecond, which rounding down would
    /// move to the one before (a copied course one millisecond older than its source).
    static func wholeMilliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The course segments of an encoded activity as well-known binary for a geography
    /// `MultiLineString`, one line a segment: the legs are those between consecutive points
    /// with valid coordinates, none between segments, and a segment of one such point is a line
    /// from it to itself (the point). `nil` when no point has valid coordinates.
    ///
    /// What near-me search measures (``StoreTransaction/nearbyCourses(to:withinMeters:scope:limit:offset:)``
    /// defines the path so, and SQLite's measure walks the same legs).
    static func pathWKB(_ geometry: Data) throws -> Data? {
        do {
            return pathWKB(CoursePieces.path(of: try ActivityCodec.decode(geometry)))
        } catch {
            throw StoreError.cannotEncode("path: \(error)")
        }
    }

    /// `lines` (a draft's ``CourseDraft/path``) as ``pathWKB(_:)`` gives them; `nil` for none.
    static func pathWKB(_ lines: [[Coordinate]]) -> Data? {
        guard !lines.isEmpty else { return nil }
        var wkb = WellKnownBinary(lines: lines.count, points: lines.reduce(0) { $0 + $1.count })
        wkb.appendMultiLineString(count: lines.count)
        for line in lines { wkb.appendLineString(line) }
        return wkb.data
    }

    /// Writes a course's search entry (its postings follow by trigger), replacing any before.
    func index(courseID id: Int64, entry: SearchEntry, createdAt: Date) async throws {
        try await query("DELETE FROM course_search WHERE course_id = \(id)")
        let row = entry.text
        let initials = row.initials
        let tokens = entry.postgresTokenDocument.split(separator: " ").map(String.init)
        try await query(
            """
            INSERT INTO course_search (course_id, created_ms, title, description, departure, tokens,
                                       title_initials, description_initials, departure_initials)
            VALUES (\(id), \(Self.wholeMilliseconds(createdAt)), \(row.title), \(row.description),
                    \(row.departure), \(tokens), \(initials.title), \(initials.description), \(initials.departure))
            """)
    }

    /// Re-indexes a course whose text changed.
    private func reindex(id: Int64) async throws {
        guard let course = try await course(id: id) else { return }
        let fields = SearchFields(
            title: course.title, description: course.description,
            departure: course.departure?.searchableParts ?? [])
        try await index(courseID: id, entry: SearchEntry(fields: fields), createdAt: course.createdAt)
    }

    /// Re-indexes only a course the policies let the user change: another's is left alone.
    func setTitle(id: Int64, title: String) async throws {
        let updated = try await query("UPDATE course SET title = \(title) WHERE id = \(id)")
        if updated.metadata.rows ?? 0 > 0 { try await reindex(id: id) }
    }

    func share(id: Int64, title: String, description: String, at date: Date) async throws {
        let updated = try await query(
            """
            UPDATE course SET is_uploaded = true, uploaded_at = \(Self.milliseconds(date)), title = \(title),
                description = \(description)
            WHERE id = \(id)
            """)
        if updated.metadata.rows ?? 0 > 0 { try await reindex(id: id) }
    }

    /// The scraps go by trigger (`runnect_sharing_changed`), every runner's, with the counter.
    func unshare(id: Int64) async throws {
        try await query("UPDATE course SET is_uploaded = false, uploaded_at = NULL WHERE id = \(id)")
    }

    /// Others' records are not readable: theirs are the course's counter less the user's.
    func recordCounts(course id: Int64) async throws -> (own: Int, others: Int) {
        let row = try await query(
            """
            SELECT (SELECT count(*) FROM record WHERE course_id = \(id) AND owner = \(user))::integer,
                   (SELECT record_count FROM course WHERE id = \(id))
            """
        ).rows[0]
        let (own, total) = try row.decode((Int, Int?).self)
        return (own, max(0, (total ?? own) - own))
    }

    /// Scraps and search entries go by cascade, pieces by trigger (schema version 7); the user's
    /// own records first, others' stay with the course kept for them by trigger (version 15).
    func deleteCourses(ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        try await query("DELETE FROM record WHERE course_id = ANY(\(ids)) AND owner = \(user)")
        try await query("DELETE FROM course WHERE id = ANY(\(ids))")
    }

    /// The counter follows by trigger.
    func addScrap(course id: Int64, at date: Date) async throws {
        try await query(
            #"INSERT INTO scrap (course_id, "user", created_at) VALUES (\#(id), \#(user), \#(Self.milliseconds(date)))"#
        )
    }

    func removeScrap(course id: Int64) async throws {
        try await query(#"DELETE FROM scrap WHERE course_id = \#(id) AND "user" = \#(user)"#)
    }

    func counts() async throws -> StoreCounts {
        let row = try await query(
            """
            SELECT (SELECT coalesce(max(version), 0) FROM schema_version)::integer,
                   (SELECT count(*) FROM course)::integer, (SELECT count(*) FROM course WHERE is_uploaded)::integer,
                   (SELECT count(DISTINCT owner) FROM course)::integer, (SELECT count(*) FROM scrap)::integer
            """
        ).rows[0]
        let (version, courses, shared, owners, scraps) = try row.decode((Int, Int, Int, Int, Int).self)
        return StoreCounts(
            schemaVersion: version, courses: courses, sharedCourses: shared, owners: owners, scraps: scraps)
    }

    // MARK: - Savepoints

    /// Savepoint names are the store's own identifiers, never typed text: checked all the same.
    private func savepoint(_ name: String) throws -> String {
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (97...122).contains($0) }) else {
            throw StoreError.database("invalid savepoint name \(name)")
        }
        return name
    }

    func beginSavepoint(_ name: String) async throws {
        try await execute("SAVEPOINT \(try savepoint(name))")
    }

    func releaseSavepoint(_ name: String) async throws {
        try await execute("RELEASE SAVEPOINT \(try savepoint(name))")
    }

    func rollbackSavepoint(_ name: String) async throws {
        let name = try savepoint(name)
        try await execute("ROLLBACK TO SAVEPOINT \(name)")
        try await execute("RELEASE SAVEPOINT \(name)")
    }

    /// The server's refusal of one statement; not a lost connection, a deadlock or a
    /// serialization failure, which end the whole transaction (the backend runs it again).
    func storeError(_ error: any Error) -> StoreError? {
        let failure = PostgresFailure(error)
        guard failure.isDatabaseError, !failure.isConnectionLost, !failure.isRetryable, !connection.isClosed else {
            return nil
        }
        return failure.storeError
    }

    /// `values` as bindings `$1`, `$2`, … in order.
    func binds(_ values: any PostgresEncodable...) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values { try bindings.append(value) }
        return bindings
    }
}
