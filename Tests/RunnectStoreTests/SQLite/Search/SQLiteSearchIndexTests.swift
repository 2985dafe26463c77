import Foundation
import GRDB
import Testing

@testable import RunnectStore

/// Keyword search on both backends: the matching, ranking and paging tests take each
/// ``StoreKind``; those of SQLite's own index (its guards, maintenance and `in_order`
/// bookkeeping) are SQLite-only and say so.
@Suite("Search: keyword matching, ranking and paging over a real database")
struct SearchIndexTests {
    @Test("PostgreSQL: the cases of this suite's parameterised tests", .postgresCases)
    func postgresCases() {
        #expect(StoreKind.available.contains(.postgres))
    }

    static let jamsil = ["서울", "송파구", "잠실동", "올림픽로 25", "잠실종합운동장"]

    // MARK: Matching

    @Test("English: substring, case-insensitive", arguments: StoreKind.available)
    func english(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let night = try await db.add("Hangang Night Run")
        let forest = try await db.add("Seoul Forest Loop", description: "Flat and FAST")
        await #expect(try db.searchAllPlans("han") == [night])
        await #expect(try db.searchAllPlans("HANGANG") == [night])
        await #expect(try db.searchAllPlans("ight r") == [night])  // two keywords, both found
        await #expect(try db.searchAllPlans("o") == [forest])
        await #expect(try db.searchAllPlans("n") == [forest, night])
        await #expect(try db.searchAllPlans("fast") == [forest])
        await #expect(try db.searchAllPlans("orest") == [forest])
        await #expect(try db.searchAllPlans("xyz") == [])
    }

    @Test("Korean words of 1, 2, 3 and more syllables, inside longer words", arguments: StoreKind.available)
    func korean(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let jamsil = try await db.add("잠실 한강공원 10K")
        let olympic = try await db.add("올림픽공원 한 바퀴")
        let banpo = try await db.add("반포 야간 러닝", description: "한강 야경")
        await #expect(try db.searchAllPlans("강") == [banpo, jamsil])
        await #expect(try db.searchAllPlans("한강") == [banpo, jamsil])
        await #expect(try db.searchAllPlans("잠실") == [jamsil])
        await #expect(try db.searchAllPlans("반포") == [banpo])
        await #expect(try db.searchAllPlans("공원") == [olympic, jamsil])
        await #expect(try db.searchAllPlans("한강공원") == [jamsil])
        await #expect(try db.searchAllPlans("올림픽공원") == [olympic])
        await #expect(try db.searchAllPlans("림픽공") == [olympic])
        await #expect(try db.searchAllPlans("한") == [banpo, olympic, jamsil])
        await #expect(try db.searchAllPlans("10k") == [jamsil])
        await #expect(try db.searchAllPlans("공원한") == [])
    }

    @Test("initial consonants (초성) and mixed keywords", arguments: StoreKind.available)
    func initials(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let hangang = try await db.add("한강 야경")
        let olympic = try await db.add("올림픽공원")
        let kkachi = try await db.add("까치산 둘레")
        let typed = try await db.add("ㅋㅋ 재밌는 코스")
        await #expect(try db.searchAllPlans("ㅎㄱ") == [hangang])
        await #expect(try db.searchAllPlans("ㅇㄹㅍ") == [olympic])
        await #expect(try db.searchAllPlans("ㅇㄹㅍㄱㅇ") == [olympic])
        await #expect(try db.searchAllPlans("한ㄱ") == [hangang])
        await #expect(try db.searchAllPlans("ㅎ강") == [hangang])
        await #expect(try db.searchAllPlans("올ㄹ픽") == [olympic])
        await #expect(try db.searchAllPlans("ㄱㅎ") == [])
        await #expect(try db.searchAllPlans("한ㄴ") == [])
        await #expect(try db.searchAllPlans("ㄱ") == [olympic, hangang])  // 강, 공: not 까 (ㄲ)
        await #expect(try db.searchAllPlans("ㄲㅊ") == [kkachi])
        await #expect(try db.searchAllPlans("ㅋ") == [typed])  // 코 and the typed ㅋ
        await #expect(try db.searchAllPlans("ㅋㅋ") == [typed])
        await #expect(try db.searchAllPlans("ㅇㄱ ㅎ") == [hangang])  // 야경, 한: AND
    }

    @Test("NFC on both sides: decomposed keywords find precomposed text and back", arguments: StoreKind.available)
    func nfc(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let precomposed = try await db.add("한강 러닝")
        let decomposed = try await db.add(
            "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1161}\u{11BC} 산책", description: "Cafe\u{301} stop")
        await #expect(try db.searchAllPlans("\u{1112}\u{1161}\u{11AB}") == [decomposed, precomposed])
        await #expect(try db.searchAllPlans("한강") == [decomposed, precomposed])
        await #expect(try db.searchAllPlans("ㅎㄱ") == [decomposed, precomposed])
        await #expect(try db.searchAllPlans("café") == [decomposed])
        await #expect(try db.searchAllPlans("CAFE\u{301}") == [decomposed])
    }

    @Test("every departure part is searched, but no keyword spans two parts", arguments: StoreKind.available)
    func departure(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let jamsil = try await db.add("아침 러닝", departure: Self.jamsil)
        let banpo = try await db.add("Evening run", departure: ["서울", "서초구", "반포동", "신반포로11길 40", "반포한강공원"])
        for keyword in ["송파구", "잠실동", "올림픽로", "올림픽로 25", "잠실종합운동장", "파구", "ㅅㅍㄱ", "25"] {
            await #expect(try db.searchAllPlans(keyword) == [jamsil], "\(keyword)")
        }
        await #expect(try db.searchAllPlans("서울") == [banpo, jamsil])
        await #expect(try db.searchAllPlans("신반포로11길") == [banpo])
        await #expect(try db.searchAllPlans("구잠") == [])  // 송파구 + 잠실동: two parts
        await #expect(try db.searchAllPlans("울송") == [])
        await #expect(try db.searchAllPlans("ㄱㅈ") == [])
    }

    @Test("every keyword must match (AND), each in any field", arguments: StoreKind.available)
    func and(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let both = try await db.add("잠실 야경 런", departure: Self.jamsil)
        let one = try await db.add("잠실 새벽런")
        let split = try await db.add("Night run", description: "잠실 출발")
        await #expect(try db.searchAllPlans("잠실 야경") == [both])
        await #expect(try db.searchAllPlans("잠실 night") == [split])
        await #expect(try db.searchAllPlans("잠실 런") == [one, both])
        await #expect(try db.searchAllPlans("잠실 송파구 ㅇㄱ") == [both])
        await #expect(try db.searchAllPlans("잠실 없는말") == [])
    }

    @Test("empty and blank keywords find nothing", arguments: StoreKind.available)
    func blank(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        try await db.add("한강")
        for keywords in ["", " ", "\t\n", "\u{3000}"] {
            await #expect(try db.searchAllPlans(keywords) == [])
        }
    }

    /// SQLite-only: the guards of SQLite's `SQLiteSearchIndex.search` itself (the store checks pages
    /// before either backend is asked).
    @Test("the index answers no rows for a limit of 0, and reads a negative offset as 0")
    func pageGuards() async throws {
        let db = try await SearchDatabase.make(.sqlite)
        let ids = try await (0..<7).asyncMap { try await db.add("한강 \($0)") }
        func search(limit: Int, offset: Int) throws -> [Int64] {
            try db.sqliteRead {
                try SQLiteSearchIndex.search(
                    $0, SearchRequest(keywords: "한강", scope: .all, sort: .date, limit: limit, offset: offset))
            }
        }
        #expect(try search(limit: 0, offset: 0) == [])
        #expect(try search(limit: 5, offset: -3) == Array(ids.reversed().prefix(5)))
    }

    // MARK: User text is data

    static let hostile = [
        "\"", "\"\"", "'", "''", "*", "-", "NEAR", "near", "OR", "AND", "NOT", "(", ")", "%", "_", "\\",
        "'; DROP TABLE course; --", "\"run\" OR NEAR(a b) *", "a*", "^한강", "{title}:", "title:x", "?", "[", "]",
        "[가-힣]", "%%", "_%_", "\\%", "NEAR(", "x AND y", "-han", "한강*",
    ]

    @Test(
        "injection-looking keywords are searched for literally and never fail",
        arguments: StoreKind.available, hostile)
    func literal(kind: StoreKind, keyword: String) async throws {
        let db = try await SearchDatabase.make(kind)
        let courses = [("한강 야경 10K", "Flat and fast"), ("코스 \(keyword) 끝", "literal")]
        let ids = try await courses.asyncMap { try await db.add($0.0, description: $0.1) }
        // The reference: every keyword a substring of the title or the description.
        let expected = zip(ids, courses).filter { _, course in
            KoreanText.words(in: keyword).allSatisfy {
                KoreanText.contains(KoreanText.normalize(course.0), word: $0.text)
                    || KoreanText.contains(KoreanText.normalize(course.1), word: $0.text)
            }
        }.map(\.0)
        #expect(expected.contains(ids[1]))
        for sort in CourseSort.allCases {
            await #expect(Set(try db.searchAllPlans(keyword, sort: sort)) == Set(expected), "\(keyword) \(sort)")
        }
        await #expect(try db.courseCount() == 2)
        try db.checkIntegrity()
    }

    @Test("% and _ are literal: 100% is found by 100%, and % alone matches only a %", arguments: StoreKind.available)
    func likeMetacharacters(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let percent = try await db.add("100% 평지")
        let underscore = try await db.add("run_club")
        try await db.add("100 m 트랙")
        try await db.add("runXclub")
        await #expect(try db.searchAllPlans("100%") == [percent])
        await #expect(try db.searchAllPlans("%") == [percent])
        await #expect(try db.searchAllPlans("_") == [underscore])
        await #expect(try db.searchAllPlans("n_c") == [underscore])
        await #expect(try db.searchAllPlans("0%") == [percent])
    }

    // MARK: Scope, order, pages

    @Test("shared scope holds uploaded courses only", arguments: StoreKind.available)
    func scope(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let shared = try await db.add("한강 10K", uploaded: true)
        let mine = try await db.add("한강 5K", uploaded: false)
        for sort in CourseSort.allCases {
            await #expect(try db.searchAllPlans("한강", scope: .shared, sort: sort) == [shared])
            await #expect(Set(try db.searchAllPlans("한강", scope: .all, sort: sort)) == [shared, mine])
        }
    }

    @Test("date: newest first, ties by id, also when ids and dates disagree", arguments: StoreKind.available)
    func dateOrder(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let a = try await db.add("한강 a", createdAt: base + 100)
        let b = try await db.add("한강 b", createdAt: base + 300)
        let c = try await db.add("한강 c", createdAt: base + 200)  // older than b, newer id: out of order
        let d = try await db.add("한강 d", createdAt: base + 300)  // ties with b: higher id first
        let e = try await db.add("한강 e", createdAt: base)  // oldest of all
        let f = try await db.add("한강 f", createdAt: base + 400)
        await #expect(try db.searchAllPlans("한강", sort: .date) == [f, d, b, c, a, e])
        for limit in 1...4 {
            let pages = try await stride(from: 0, to: 6, by: limit).asyncFlatMap {
                try await db.searchAllPlans("한강", sort: .date, limit: limit, offset: $0)
            }
            #expect(pages == [f, d, b, c, a, e], "limit \(limit)")
        }
    }

    @Test("scrap: most scrapped first, then newest, then id", arguments: StoreKind.available)
    func scrapOrder(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let a = try await db.add("반포 a", createdAt: base, scraps: 3)
        let b = try await db.add("반포 b", createdAt: base + 10, scraps: 9)
        let c = try await db.add("반포 c", createdAt: base + 20, scraps: 3)
        let d = try await db.add("반포 d", createdAt: base + 20, scraps: 3)
        let e = try await db.add("반포 e", createdAt: base + 5, scraps: 0)
        await #expect(try db.searchAllPlans("반포", sort: .scrap) == [b, d, c, a, e])
    }

    @Test("distance: shortest first, ties by id", arguments: StoreKind.available)
    func distanceOrder(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let a = try await db.add("야경 a", distance: 10_000)
        let b = try await db.add("야경 b", distance: 3_000)
        let c = try await db.add("야경 c", distance: 10_000)
        let d = try await db.add("야경 d", distance: 42_195)
        await #expect(try db.searchAllPlans("야경", sort: .distance) == [b, a, c, d])
    }

    @Test("relevance: keywords in the title first, then in the departure, then newest", arguments: StoreKind.available)
    func relevance(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let inDescription = try await db.add("아침 러닝", description: "잠실 출발")
        let inTitle = try await db.add("잠실 야경")
        let inDeparture = try await db.add("Evening run", departure: Self.jamsil)
        let inTitleAndDeparture = try await db.add("잠실 한 바퀴", departure: Self.jamsil)
        let olderInTitle = try await db.add("잠실 새벽", createdAt: Date(timeIntervalSince1970: 1_600_000_000))
        await #expect(
            try db.searchAllPlans("잠실", sort: .relevance)
                == [inTitleAndDeparture, inTitle, olderInTitle, inDeparture, inDescription])
        // Two keywords: both in the title beats one; ties fall to the departure count, then date.
        let both = try await db.add("잠실 야간 러닝")
        await #expect(try db.searchAllPlans("잠실 러닝", sort: .relevance) == [both, inDescription])
        await #expect(try db.searchAllPlans("ㅈㅅ 야", sort: .relevance) == [both, inTitle])
        // Entries with grams in both the title and the departure among them.
        try db.checkIntegrity()
    }

    @Test("pages are stable: every match once, in order, whatever the page size", arguments: StoreKind.available)
    func pagination(kind: StoreKind) async throws {
        let db = try await SearchDatabase.make(kind)
        let same = Date(timeIntervalSince1970: 1_700_000_000)
        var ids: [Int64] = []
        for i in 0..<23 {
            await ids.append(try db.add("한강 코스 \(i % 3)", createdAt: same, distance: Double(1 + i % 4), scraps: i % 2))
        }
        for sort in CourseSort.allCases {
            let all = try await db.searchAllPlans("한강", sort: sort)
            #expect(Set(all) == Set(ids) && all.count == ids.count, "\(sort)")
            for limit in [1, 2, 5, 7, 23, 50] {
                let pages = try await stride(from: 0, to: 30, by: limit).asyncFlatMap {
                    try await db.searchAllPlans("한강", sort: sort, limit: limit, offset: $0)
                }
                #expect(pages == all, "\(sort) limit \(limit)")
            }
        }
        await #expect(try db.searchAllPlans("한강", sort: .date) == ids.reversed())
    }

    @Test(
        "matches and orders agree with a brute-force reference (seeded corpus and queries)",
        arguments: StoreKind.available)
    func reference(kind: StoreKind) async throws {
        struct Course {
            var id: Int64 = 0
            var title: String
            var description: String?
            var departure: [String]
            var uploaded: Bool
            var createdAt: Date
            var distance: Double
            var scraps: Int
        }
        let syllables = Array("잠실한강공원올림픽반포야경러닝서울송파구동로까치산길")
        let latin = ["Night", "run", "han", "river", "10K", "100%", "a_b", "fast"]
        var random = SearchTestRandom(seed: 42)
        func word() -> String {
            random.int(0...3) == 0
                ? random.pick(latin) : String((0..<random.int(1...4)).map { _ in random.pick(syllables) })
        }
        func phrase(_ words: ClosedRange<Int>) -> String {
            (0..<random.int(words)).map { _ in word() }.joined(separator: " ")
        }

        let db = try await SearchDatabase.make(kind)
        var courses: [Course] = []
        var clock = 1_700_000_000.0
        for _ in 0..<160 {
            clock += Double(random.int(0...2))  // ties
            let back = random.int(0...9) == 0 ? Double(random.int(1...50)) : 0  // out of order
            var course = Course(
                title: phrase(1...3), description: random.int(0...2) == 0 ? nil : phrase(0...4),
                departure: random.int(0...3) == 0 ? [] : (0..<random.int(1...5)).map { _ in word() },
                uploaded: random.int(0...4) != 0, createdAt: Date(timeIntervalSince1970: clock - back),
                distance: Double(random.int(1...8) * 1_000), scraps: random.int(0...3))
            course.id = try await db.add(
                course.title, description: course.description, departure: course.departure,
                uploaded: course.uploaded, createdAt: course.createdAt, distance: course.distance,
                scraps: course.scraps)
            courses.append(course)
        }

        func keywords() -> String {
            (0..<random.int(1...3)).map { _ -> String in
                let course = random.pick(courses)
                let text = random.pick([course.title, course.description ?? "", course.departure.first ?? ""] + latin)
                let scalars = Array(KoreanText.normalize(text).unicodeScalars.filter { !KoreanText.isSpace($0) })
                guard !scalars.isEmpty else { return word() }
                let start = random.int(0...(scalars.count - 1))
                var piece = Array(scalars[start..<min(scalars.count, start + random.int(1...4))])
                for i in piece.indices where random.int(0...3) == 0 { piece[i] = KoreanText.initial(of: piece[i]) }
                return String(String.UnicodeScalarView(piece))
            }.joined(separator: " ")
        }

        var answered = 0
        for round in 0..<90 {
            let query = keywords()
            let words = KoreanText.words(in: query).map(\.text)
            func has(_ text: String?, _ word: String) -> Bool {
                KoreanText.contains(KoreanText.normalize(text ?? ""), word: word)
            }
            for scope in [SearchScope.all, .shared] {
                let matches = courses.filter { course in
                    (scope == .all || course.uploaded)
                        && words.allSatisfy { w in
                            has(course.title, w) || has(course.description, w)
                                || course.departure.contains { has($0, w) }
                        }
                }
                func newer(_ a: Course, _ b: Course) -> Bool {
                    (a.createdAt, a.id) > (b.createdAt, b.id)
                }
                func titleScore(_ c: Course) -> Int { words.filter { has(c.title, $0) }.count }
                func departureScore(_ c: Course) -> Int {
                    words.filter { w in c.departure.contains { has($0, w) } }.count
                }
                let expected: [CourseSort: [Course]] = [
                    .date: matches.sorted(by: newer),
                    .scrap: matches.sorted { $0.scraps != $1.scraps ? $0.scraps > $1.scraps : newer($0, $1) },
                    .distance: matches.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) },
                    .relevance: matches.sorted {
                        let a = (titleScore($0), departureScore($0))
                        let b = (titleScore($1), departureScore($1))
                        return a != b ? a > b : newer($0, $1)
                    },
                ]
                for sort in CourseSort.allCases {
                    let want = expected[sort]!.map(\.id)
                    await #expect(
                        try db.searchAllPlans(query, scope: scope, sort: sort) == want, "\(query) \(sort) \(scope)")
                    if want.count > 1 { answered += 1 }
                    guard round % 6 == 0 else { continue }
                    let paged = try await stride(from: 0, to: want.count + 4, by: 4).asyncFlatMap {
                        try await db.searchAllPlans(query, scope: scope, sort: sort, limit: 4, offset: $0)
                    }
                    #expect(paged == want, "pages of \(query) \(sort) \(scope)")
                }
            }
        }
        #expect(answered > 300)  // most queries find several courses: the orders are exercised
    }

    // MARK: Maintenance (SQLite-only: SQLite's index, its `in_order` bookkeeping and FTS5 tokens)

    @Test("remove() forgets a course; index() replaces its text")
    func removeAndReindex() async throws {
        let db = try await SearchDatabase.make(.sqlite)
        let a = try await db.add("한강 야경", departure: Self.jamsil)
        let b = try await db.add("반포 달빛")
        try db.sqliteWrite { db in
            try SQLiteSearchIndex.remove(db, courseID: a)
            try SQLiteSearchIndex.remove(db, courseID: a)  // twice: nothing happens
            try SQLiteSearchIndex.remove(db, courseID: 999)
        }
        await #expect(try db.searchAllPlans("한강") == [])
        await #expect(try db.searchAllPlans("송파구") == [])
        await #expect(try db.searchAllPlans("ㅎㄱ") == [])
        try db.sqliteWrite { db in
            try SQLiteSearchIndex.index(db, courseID: b, fields: SearchFields(title: "석촌호수 한 바퀴", departure: ["서울"]))
            try SQLiteSearchIndex.index(db, courseID: b, fields: SearchFields(title: "석촌호수 한 바퀴", departure: ["서울"]))
            try SQLiteSearchIndex.index(db, courseID: a, fields: SearchFields(title: "Hangang again"))
        }
        await #expect(try db.searchAllPlans("반포") == [])
        await #expect(try db.searchAllPlans("석촌") == [b])
        await #expect(try db.searchAllPlans("서울") == [b])
        await #expect(try db.searchAllPlans("again") == [a])
        await #expect(try db.searchAllPlans("ㅅㅊㅎㅅ") == [b])
        try db.checkIntegrity()
        try db.sqliteWrite { try SQLiteSearchIndex.rebuildTokens($0) }
        await #expect(try db.searchAllPlans("석촌") == [b])
        await #expect(try db.searchAllPlans("again") == [a])
        try db.sqliteWrite { try SQLiteSearchIndex.remove($0, courseID: b) }
        await #expect(try db.searchAllPlans("석촌") == [])
        try db.checkIntegrity()
        let rows = try db.sqliteRead { try Int.fetchOne($0, sql: "SELECT count(*) FROM course_search") }
        #expect(rows == 1)
    }

    @Test("a course stamped far ahead does not push later ones out of order")
    func clockSpike() async throws {
        let db = try await SearchDatabase.make(.sqlite)
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        var ids: [Int64] = []
        for i in 0..<5 { await ids.append(try db.add("한강 \(i)", createdAt: base + Double(i))) }
        let spike = try await db.add("한강 미래", createdAt: base + 1e7)
        for i in 5..<10 { await ids.append(try db.add("한강 \(i)", createdAt: base + Double(i))) }
        let outOfOrder = try db.sqliteRead {
            try Int64.fetchAll($0, sql: "SELECT course_id FROM course_search WHERE in_order = 0")
        }
        #expect(outOfOrder == [spike])
        await #expect(try db.searchAllPlans("한강") == [spike] + ids.reversed())
    }

    @Test("optimize() leaves the fewest courses out of order")
    func optimizeOrder() async throws {
        #expect(SQLiteSearchIndex.longestNonDecreasingRun([]) == [])
        #expect(
            SQLiteSearchIndex.longestNonDecreasingRun([5, 1, 2, 2, 9, 3]) == [false, true, true, true, false, true])
        let db = try await SearchDatabase.make(.sqlite)
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        // The clock steps back 1,000 s after 10 courses: too many to push out of order, so the
        // 15 that follow go out of order while they are indexed; 10 would do.
        var ids: [Int64] = []
        for i in 0..<10 { await ids.append(try db.add("반포 \(i)", createdAt: base + Double(1_000 + i))) }
        for i in 0..<15 { await ids.append(try db.add("반포 b\(i)", createdAt: base + Double(i))) }
        let count = {
            try db.sqliteRead { try Int.fetchOne($0, sql: "SELECT count(*) FROM course_search WHERE in_order = 0") }
        }
        #expect(try count() == 15)
        let before = try await db.searchAllPlans("반포")
        #expect(before == Array(ids[..<10].reversed()) + Array(ids[10...].reversed()))
        try db.sqliteWrite { try SQLiteSearchIndex.optimize($0) }
        #expect(try count() == 10)
        await #expect(try db.searchAllPlans("반포") == before)
        for limit in [3, 7] {
            let pages = try await stride(from: 0, to: 25, by: limit).asyncFlatMap {
                try await db.searchAllPlans("반포", limit: limit, offset: $0)
            }
            #expect(pages == before)
        }
    }

    @Test("optimize() keeps every answer")
    func optimize() async throws {
        let db = try await SearchDatabase.make(.sqlite)
        let ids = try await (0..<30).asyncMap { try await db.add("한강 \($0)", description: $0 % 2 == 0 ? "야경" : nil) }
        let before = try await db.searchAllPlans("야경", sort: .relevance)
        try db.sqliteWrite { try SQLiteSearchIndex.optimize($0) }
        await #expect(try db.searchAllPlans("야경", sort: .relevance) == before)
        await #expect(try db.searchAllPlans("한강") == ids.reversed())
        try db.checkIntegrity()
    }
}
