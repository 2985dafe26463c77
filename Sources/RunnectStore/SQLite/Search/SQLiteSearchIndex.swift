import Foundation
import GRDB

/// Korean-aware keyword search over courses.
///
/// A keyword matches a course when it is a substring of the title, the description or a
/// departure part, compared after ``KoreanText/normalize(_:)`` (NFC + lowercase); a keyword of
/// initial consonants (`ㅎㄱ`), or mixing them with syllables (`한ㄱ`), matches syllables by
/// their initial consonant. Every keyword must match. What the user typed only ever travels as
/// bound values (`instr` needles, `GLOB` patterns with metacharacters bracketed) or as index
/// tokens of letters and digits: it is never SQL or FTS5 syntax.
///
/// ## Storage
///
/// The tables are made by the frozen migration `Migrations/v1-courses.sql` (today's shape:
/// `Schema/current.sql`).
///
/// - `course_search(course_id, created_ms, in_order, title, description, departure)`: the
///   normalised text of each indexed course (departure parts joined by newlines, so that no
///   keyword spans two of them). Every candidate the token index proposes is checked against
///   this text in SQL, so results are exact even where the index over-approximates.
/// - `course_search_token`: a contentless FTS5 table (`detail=none`, ASCII tokenizer) whose
///   document for a course is the set of 1-, 2- and 3-scalar grams of each field and of its
///   initials projection (``KoreanText/indexGrams(of:)``), each written as a field letter (`t`
///   title, `d` description, `p` departure) and base-36 digits. SQLite's trigram tokenizer
///   cannot find 1- and 2-syllable words; these grams can, and the same index serves
///   initial-consonant keywords. A keyword of up to 3 scalars is one token; a longer one is
///   looked up by grams covering it, then checked.
///
/// ## Date order without sorting
/// The FTS rowid is the course id. FTS5 walks a match in rowid order natively and stops at the
/// page (`ORDER BY rowid DESC LIMIT n`), and the store stamps `created_at` when it inserts, so
/// id order is date order almost always: "newest matches first" then costs the page, not the
/// number of matches, for a one-syllable word found in half the store as for a rare one.
/// Relevance is walked the same way, a score tier at a time (see
/// ``search(_:_:reader:plans:)``). (Negated ids would let FTS5 walk
/// forwards, 0.3 ms faster per query, but it flushes its pending postings whenever a rowid is
/// not above the last one written, which halved the bulk insert rate; measured.)
///
/// Where id order and date order disagree (clocks stepping back, two writers racing), the
/// course is marked *out of order* (`in_order = 0`) when indexed: the courses left in order are
/// in date order by id, and the few others are merged in from an index of their own. Indexing
/// reads `course.created_at`, so index a course after inserting its row (and again should its
/// `created_at` change).
///
/// ## Topics
/// - ``index(_:courseID:fields:)``
/// - ``remove(_:courseID:)``
/// - ``optimize(_:)``
/// - ``search(_:_:reader:plans:)``
package enum SQLiteSearchIndex {
    // MARK: - Writing

    /// Indexes a course's text, replacing what was indexed for it before.
    ///
    /// Reads the course's `created_at` (for the date order of results), so the `course` row must
    /// exist; a course without one sorts as the oldest.
    static func index(_ db: Database, courseID: Int64, fields: SearchFields) throws {
        try index(db, courseID: courseID, entry: SearchEntry(fields: fields))
    }

    /// Indexes a course's text prepared beforehand (on another thread, say), replacing what was
    /// indexed for it before.
    static func index(_ db: Database, courseID: Int64, entry: SearchEntry) throws {
        try remove(db, courseID: courseID)
        let row = entry.text
        let createdAt = try Date.fetchOne(
            db.cachedStatement(sql: "SELECT created_at FROM course WHERE id = ?"), arguments: [courseID])
        let milliseconds = Self.milliseconds(createdAt)
        let inOrder = try takeInOrder(db, courseID: courseID, milliseconds: milliseconds)
        try db.cachedStatement(
            sql: """
                INSERT INTO course_search (course_id, created_ms, in_order, title, description, departure)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [courseID, milliseconds, inOrder, row.title, row.description, row.departure])
        try db.cachedStatement(sql: "INSERT INTO course_search_token (rowid, tokens) VALUES (?, ?)")
            .execute(arguments: [courseID, entry.tokenDocument])
    }

    /// Removes a course from the index; nothing happens if it is not there.
    static func remove(_ db: Database, courseID: Int64) throws {
        guard
            let old = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT title, description, departure FROM course_search WHERE course_id = ?"),
                arguments: [courseID])
        else { return }
        let document = SearchText(title: old[0], description: old[1], departure: old[2]).tokenDocument
        // A contentless FTS5 table forgets a document when told its exact tokens again; they are
        // recomputed from the stored normalised text, deterministically. (A release that changes
        // the gram rules must migrate with rebuildTokens(_:) before anything is removed.)
        try db.cachedStatement(
            sql: "INSERT INTO course_search_token (course_search_token, rowid, tokens) VALUES ('delete', ?, ?)"
        ).execute(arguments: [courseID, document])
        try db.cachedStatement(sql: "DELETE FROM course_search WHERE course_id = ?").execute(arguments: [courseID])
    }

    /// Most in-order courses a newcomer may push out of order (see ``takeInOrder(_:courseID:milliseconds:)``).
    static let maxDisplaced = 8

    /// Whether a course being indexed can join the in-order courses: between its in-order
    /// neighbours by id in date. A newer course's date below its predecessors' usually means those
    /// few were stamped by a clock running ahead; up to ``maxDisplaced`` of them are moved out of
    /// order instead, so that one bad stamp does not push every later course out of order.
    private static func takeInOrder(_ db: Database, courseID: Int64, milliseconds: Int64) throws -> Bool {
        let after = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT created_ms FROM course_search WHERE course_id > ? AND in_order = 1
                    ORDER BY course_id LIMIT 1
                    """),
            arguments: [courseID])
        if let after, after < milliseconds { return false }
        let before = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT course_id, created_ms FROM course_search WHERE course_id < ? AND in_order = 1
                    ORDER BY course_id DESC LIMIT ?
                    """),
            arguments: [courseID, maxDisplaced + 1])
        let newer = before.prefix { (row: Row) in (row[1] as Int64) > milliseconds }
        if newer.isEmpty { return true }
        guard newer.count <= maxDisplaced else { return false }
        let displace = try db.cachedStatement(sql: "UPDATE course_search SET in_order = 0 WHERE course_id = ?")
        for row in newer { try displace.execute(arguments: [row[0] as Int64]) }
        return true
    }

    /// Merges the token index into one segment and recomputes which courses are in order.
    ///
    /// Each write transaction adds a segment that FTS5 merges with others later, and every query
    /// term is looked up in every segment: with the 10 segments of 100,000 courses imported in
    /// batches, short queries took up to twice as long as after this (measured). Out-of-order
    /// courses, which the date order merges in one by one, are brought to the fewest possible
    /// (the complement of a longest run of ids whose dates never decrease). Worth calling after a
    /// bulk import; it rewrites the whole token index (about a second per 100,000 courses).
    static func optimize(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO course_search_token (course_search_token) VALUES ('optimize')")
        let rows = try Row.fetchAll(
            db, sql: "SELECT course_id, created_ms, in_order FROM course_search ORDER BY course_id")
        let dates = rows.map { $0[1] as Int64 }
        let keep = longestNonDecreasingRun(dates)
        let update = try db.makeStatement(sql: "UPDATE course_search SET in_order = ? WHERE course_id = ?")
        for (index, row) in rows.enumerated() where (row[2] as Bool) != keep[index] {
            try update.execute(arguments: [keep[index], row[0] as Int64])
        }
    }

    /// Rebuilds the token index from the stored normalised text: for a migration that changes
    /// the rules of ``KoreanText/indexGrams(of:)``, or the normal form (then `course_search`
    /// itself must be refilled by ``index(_:courseID:fields:)`` instead).
    static func rebuildTokens(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO course_search_token (course_search_token) VALUES ('delete-all')")
        let insert = try db.makeStatement(sql: "INSERT INTO course_search_token (rowid, tokens) VALUES (?, ?)")
        let rows = try Row.fetchCursor(db, sql: "SELECT course_id, title, description, departure FROM course_search")
        while let row = try rows.next() {
            let text = SearchText(title: row[1], description: row[2], departure: row[3])
            try insert.execute(arguments: [row[0] as Int64, text.tokenDocument])
        }
    }

    /// Which elements of `values` make up a longest non-decreasing subsequence (patience
    /// sorting, O(n log n)).
    static func longestNonDecreasingRun(_ values: [Int64]) -> [Bool] {
        var tails: [Int] = []  // index of the smallest tail of each run length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            // First run whose tail is greater than value (non-decreasing: equal values extend).
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] <= value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var keep = [Bool](repeating: false, count: values.count)
        var index = tails.last ?? -1
        while index >= 0 {
            keep[index] = true
            index = previous[index]
        }
        return keep
    }

    /// Milliseconds since 1970 (0 for no date), the resolution the store writes dates at.
    package static func milliseconds(_ date: Date?) -> Int64 {
        let seconds = date?.timeIntervalSince1970 ?? 0
        guard seconds.isFinite else { return 0 }
        return Int64(max(min((seconds * 1000).rounded(.down), 9e15), -9e15))
    }
}
