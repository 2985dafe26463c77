import Foundation
import GRDB

extension SQLiteTransaction {
    // MARK: - Runners

    /// Every column of a runner but the refresh token's hash, in ``runner(_:stamps:)``'s order.
    private static let runnerColumns =
        "id, name, nickname, email, provider, created_at, modified_at, withdrawn_at IS NOT NULL"

    func runners(ids: [Int64]) throws -> [Runner] {
        guard !ids.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        return try runners(where: "id IN (\(marks))", StatementArguments(ids))
    }

    func runners(names: [String]) throws -> [Runner] {
        guard !names.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        return try runners(where: "name IN (\(marks))", StatementArguments(names))
    }

    /// The runners of a condition (the store's own SQL; values bound), each with their stamps.
    private func runners(where condition: String, _ arguments: StatementArguments) throws -> [Runner] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT \(Self.runnerColumns) FROM runner WHERE \(condition)", arguments: arguments)
        guard !rows.isEmpty else { return [] }
        let ids: [Int64] = rows.map { $0[0] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        var stamps: [Int64: [String]] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT runner_id, stamp FROM runner_stamp WHERE runner_id IN (\(marks)) ORDER BY id",
            arguments: StatementArguments(ids))
        {
            stamps[row[0], default: []].append(row[1])
        }
        return rows.map { row in
            Runner(
                id: row[0], name: row[1], nickname: row[2], email: row[3], provider: row[4], createdAt: row[5],
                modifiedAt: row[6], stamps: stamps[row[0]] ?? [], isWithdrawn: row[7])
        }
    }

    func runnerID(issuer: String, subject: String) throws -> Int64? {
        try Int64.fetchOne(
            db, sql: "SELECT runner_id FROM runner_identity WHERE issuer = ? AND subject = ?",
            arguments: [issuer, subject])
    }

    func createRunner(name: String?, identity: SignInIdentity?, at date: Date) throws -> Int64 {
        let id: Int64
        if let name {
            try db.execute(
                sql: """
                    INSERT INTO runner (name, created_at, modified_at) SELECT ?1, ?2, ?2
                    WHERE NOT EXISTS (SELECT 1 FROM runner WHERE name = ?1)
                    """, arguments: [name, date])
            guard let existing = try Int64.fetchOne(db, sql: "SELECT id FROM runner WHERE name = ?", arguments: [name])
            else { throw StoreError.database("runner \(name) was not made") }
            id = existing
        } else {
            // `r<id>`, the id the row takes; an id whose name a CLI runner holds is skipped (an
            // explicit id moves the `AUTOINCREMENT` sequence past it, so it is never taken).
            var next = (try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'runner'") ?? 0) + 1
            while try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM runner WHERE name = ?)", arguments: ["r\(next)"]) ?? false
            {
                next += 1
            }
            try db.execute(
                sql: "INSERT INTO runner (id, name, created_at, modified_at) VALUES (?, ?, ?, ?)",
                arguments: [next, "r\(next)", date, date])
            id = next
        }
        if let identity {
            try db.execute(
                sql: "INSERT INTO runner_identity (issuer, subject, runner_id) VALUES (?, ?, ?)",
                arguments: [identity.issuer, identity.subject, id])
            try setAccount(runner: id, email: identity.email, provider: identity.provider)
        }
        return id
    }

    func setAccount(runner id: Int64, email: String?, provider: String) throws {
        try db.execute(
            sql: "UPDATE runner SET email = coalesce(?, email), provider = ? WHERE id = ?",
            arguments: [email, provider, id])
    }

    func refreshTokenHash(runner id: Int64) throws -> String? {
        try String.fetchOne(
            db, sql: "SELECT refresh_token_sha256 FROM runner WHERE id = ? AND withdrawn_at IS NULL", arguments: [id])
    }

    func setRefreshTokenHash(runner id: Int64, _ hash: String?) throws {
        try db.execute(sql: "UPDATE runner SET refresh_token_sha256 = ? WHERE id = ?", arguments: [hash, id])
    }

    func nicknameHolder(_ nickname: String) throws -> Int64? {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT id FROM runner WHERE nickname = ?1
                UNION ALL SELECT id FROM runner WHERE nickname IS NULL AND name = ?1 AND withdrawn_at IS NULL
                LIMIT 1
                """, arguments: [nickname])
    }

    func setNickname(_ nickname: String, at date: Date) throws {
        if let holder = try nicknameHolder(nickname),
            try Int64.fetchOne(db, sql: "SELECT id FROM runner WHERE name = ?", arguments: [user]) != holder
        {
            throw StoreError.nicknameTaken(nickname)
        }
        do {
            try db.execute(
                sql: """
                    INSERT INTO runner (name, nickname, created_at, modified_at) VALUES (?1, ?2, ?3, ?3)
                    ON CONFLICT (name) DO UPDATE SET nickname = ?2, modified_at = ?3
                    """, arguments: [user, nickname, date])
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StoreError.nicknameTaken(nickname)
        }
    }

    func withdrawRunner(at date: Date) throws {
        try db.execute(
            sql: "DELETE FROM runner_identity WHERE runner_id = (SELECT id FROM runner WHERE name = ?)",
            arguments: [user])
        try db.execute(
            sql: """
                UPDATE runner SET nickname = NULL, email = NULL, refresh_token_sha256 = NULL, withdrawn_at = ?,
                    modified_at = ?
                WHERE name = ?
                """, arguments: [date, date, user])
    }

    // MARK: - Images

    func setCourseImage(course id: Int64, image: String) throws {
        try db.execute(sql: "UPDATE course SET image = ? WHERE id = ? AND owner = ?", arguments: [image, id, user])
    }

    func holdings() throws -> (courses: Int, images: [String]) {
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM course WHERE owner = ?", arguments: [user]) ?? 0
        let images = try String.fetchAll(
            db, sql: "SELECT image FROM course WHERE owner = ? AND image IS NOT NULL", arguments: [user])
        return (count, images)
    }

    /// As PostgreSQL's row-level security reads them: the user's and shared courses', and deleted
    /// courses' the user owned or holds a record of (`?1`, bound first, before the ids).
    func courseImages(ids: [Int64]) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        var images: [Int64: String] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT id, image FROM course
                WHERE (owner = ?1 OR is_uploaded) AND image IS NOT NULL AND id IN (\(marks))
                UNION ALL
                SELECT id, image FROM deleted_course
                WHERE (owner = ?1 OR EXISTS (SELECT 1 FROM record WHERE course_id = deleted_course.id AND owner = ?1))
                    AND image IS NOT NULL AND id IN (\(marks))
                """, arguments: [user] + StatementArguments(ids + ids))
        {
            images[row[0]] = row[1]
        }
        return images
    }

    func previewGeometry(course id: Int64) throws -> Data? {
        try Data.fetchOne(
            db,
            sql:
                "SELECT geometry FROM course WHERE id = ?1 UNION ALL SELECT geometry FROM deleted_course WHERE id = ?1",
            arguments: [id])
    }

    // MARK: - Ranking and marks

    func rankingRows(course id: Int64) throws -> [RankingRow] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT runner.id, r.id, r.course_time_s, r.course_distance_m, r.reported, r.reported_pace_s,
                       r.public_course
                FROM record r JOIN runner ON runner.name = r.owner AND runner.withdrawn_at IS NULL
                WHERE r.course_id = ?1 AND r.id = (
                    SELECT b.id FROM record b WHERE b.course_id = ?1 AND b.owner = r.owner
                    ORDER BY b.course_time_s, b.id LIMIT 1)
                ORDER BY r.course_time_s, r.id
                """, arguments: [id]
        ).map { row in
            RankingRow(
                runnerID: row[0], recordID: row[1], seconds: row[2], courseMeters: row[3],
                marks: RecordMarks(isReported: row[4], reportedPaceSeconds: row[5], isFromSharedPage: row[6]))
        }
    }

    func recordMarks(ids: [Int64]) throws -> [Int64: RecordMarks] {
        guard !ids.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        var found: [Int64: RecordMarks] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT id, reported, reported_pace_s, public_course FROM record
                WHERE owner = ? AND id IN (\(marks))
                """, arguments: StatementArguments([user]) + StatementArguments(ids))
        {
            found[row[0]] = RecordMarks(isReported: row[1], reportedPaceSeconds: row[2], isFromSharedPage: row[3])
        }
        return found
    }
}

extension SQLiteTransaction {
    func recordCourses(ids: [Int64]) throws -> [Int64: RecordCourse] {
        guard !ids.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        var found: [Int64: RecordCourse] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT id, departure_region, departure_city, departure_town, departure_detail, departure_name,
                       distance_m, is_uploaded
                FROM course WHERE id IN (\(marks)) AND (owner = ? OR is_uploaded)
                UNION ALL
                SELECT id, departure_region, departure_city, departure_town, departure_detail, departure_name,
                       distance_m, 0
                FROM deleted_course WHERE id IN (\(marks))
                """, arguments: StatementArguments(ids) + [user] + StatementArguments(ids))
        {
            let region: String? = row[1]
            let departure = region.map {
                Departure(region: $0, city: row[2] ?? "", town: row[3] ?? "", detail: row[4], name: row[5])
            }
            found[row[0]] = RecordCourse(departure: departure, distanceMeters: row[6], isShared: row[7])
        }
        return found
    }
}
