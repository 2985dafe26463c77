import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// One rule for control characters (``ControlCharacters``): typed text holding one is refused
/// with nothing changed; text from files has them replaced.
@Suite("Store: control characters in typed and file text")
struct CourseStoreTextTests {
    @Test("PostgreSQL: the cases of this suite's parameterised tests", .postgresCases)
    func postgresCases() {
        #expect(StoreKind.available.contains(.postgres))
    }

    static let hostile = [
        "evil\u{1B}]0;pwned\u{07}", "a\u{0}b", "one\rtwo", "#1\n#99 forged  by admin",
        "\u{202E}nimda yb", "csi\u{9B}2J",
    ]

    @Test(
        "draw, rename and upload refuse a title with a control character; the database is unchanged",
        arguments: StoreKind.available, hostile)
    func titles(kind: StoreKind, title: String) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let course = try await store.draw(points: taps(seed: 1), title: "반포 야간 러닝")
            let before = try fixture.dump()
            let expected = try #require(ControlCharacters.first(in: title))
            let refusal = StoreError.controlCharacter(
                field: "title", scalar: expected.scalar, position: expected.position)
            await #expect(throws: refusal) { try await store.draw(points: taps(seed: 2), title: title) }
            await #expect(throws: refusal) { try await store.rename(id: course.id, title: title) }
            await #expect(throws: refusal) { try await store.upload(id: course.id, title: title, description: "fine") }
            #expect(try fixture.dump() == before)
        }
    }

    @Test("a typed description may span lines and hold tabs, never another control", arguments: StoreKind.available)
    func descriptions(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let course = try await store.draw(points: taps(seed: 1), title: "반포", description: "첫 줄\n\t둘째 줄")
            #expect(course.description == "첫 줄\n\t둘째 줄")
            let before = try fixture.dump()
            await #expect(throws: StoreError.controlCharacter(field: "description", scalar: "\u{1B}", position: 3)) {
                try await store.upload(id: course.id, title: "반포", description: "줄\n\u{1B}[2J")
            }
            await #expect(throws: StoreError.controlCharacter(field: "description", scalar: "\r", position: 2)) {
                try await store.draw(points: taps(seed: 2), title: "x", description: "줄\r다음")
            }
            await #expect(throws: StoreError.controlCharacter(field: "description", scalar: "\0", position: 2)) {
                try await store.importFile(path: SampleTracks.path("olympic_park_route.gpx"), description: "a\0b")
            }
            #expect(try fixture.dump() == before)
        }
    }

    @Test("a departure address or place name with a control character is refused")
    func departures() throws {
        #expect(throws: StoreError.controlCharacter(field: "departure address", scalar: "\u{1B}", position: 4)) {
            try Departure(address: "서울 \u{1B}[2J 송파구 잠실동")
        }
        #expect(throws: StoreError.controlCharacter(field: "departure name", scalar: "\u{7}", position: 3)) {
            try Departure(address: "서울 송파구 잠실동", name: "잠실\u{7}")
        }
    }

    /// SQLite-only: a SQLite store's user is a name given; a PostgreSQL store's is the role that
    /// connected (role names are checked by `RoleName`, tested with RunnectPostgres).
    @Test("a user name with a control character, or a blank one, cannot open the store; nothing is created")
    func users() async throws {
        try await withTemporaryDatabase { path in
            await #expect(throws: StoreError.controlCharacter(field: "user name", scalar: "\r", position: 3)) {
                try await CourseStore(path: path, user: "ad\rmin")
            }
            await #expect(throws: StoreError.invalidUser(" ")) { try await CourseStore(path: path, user: " ") }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    /// SQLite-only: the database file.
    @Test("a database path that is a device, a FIFO or a folder is refused before SQLite writes beside it")
    func databasePath() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws -> Void in
            let fifo = folder.appendingPathComponent("db.fifo").path
            #expect(mkfifo(fifo, 0o600) == 0)
            // A null device of the test's own (glibc's makedev(1, 3)), not the machine's /dev/null.
            let device = folder.appendingPathComponent("null").path
            let madeDevice = mknod(device, S_IFCHR | 0o666, dev_t(0x103)) == 0
            for path in [fifo, folder.path] + (madeDevice ? [device] : []) {
                await #expect(throws: StoreError.cannotOpen(path: path, reason: "not a regular file")) {
                    try await CourseStore(path: path, user: "a")
                }
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(left.sorted() == (madeDevice ? ["db.fifo", "null"] : ["db.fifo"]))
        }
    }

    @Test(
        "a file's name and description with controls are stored with them replaced: a\\0b reads a\u{FFFD}b",
        arguments: StoreKind.available)
    func fileText(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            try await withTemporaryDirectory { folder in
                let gpx = folder.appendingPathComponent("run.gpx")
                try Data(
                    """
                    <gpx version="1.1" creator="x"><metadata><name>a\u{0}b\u{1B}[2J</name>\
                    <desc>line 1\r\nline 2\u{7}</desc></metadata>\
                    <trk><trkseg><trkpt lat="37.5" lon="127"/><trkpt lat="37.51" lon="127"/></trkseg></trk></gpx>
                    """.utf8
                ).write(to: gpx)
                let course = try await fixture.stores[0].importFile(path: gpx.path)
                #expect(course.title == "a\u{FFFD}b\u{FFFD}[2J")
                #expect(course.description == "line 1\nline 2\u{FFFD}")
            }
        }
    }

    @Test(
        "keywords past the bound (16 words, 64 characters each) are refused at once, never a database error",
        arguments: StoreKind.available)
    func keywordBounds(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let course = try await store.draw(points: taps(seed: 1), title: "한강 야간 러닝", description: "반포 무지개분수")
            _ = try await store.upload(id: course.id, title: "한강 야간 러닝", description: "반포 무지개분수")
            let words = (0..<CourseStore.maximumKeywordCount).map { "한강\($0)" }
            // At the bound: a real search that finds nothing, no error.
            await #expect(try store.search(keywords: words.joined(separator: " ")).isEmpty)
            let long = String(repeating: "ㅎㄱ", count: CourseStore.maximumKeywordLength / 2)
            await #expect(
                try store.search(keywords: (Array(repeating: long, count: 1) + words.dropLast()).joined(separator: " "))
                    .isEmpty)
            await #expect(try store.search(keywords: "한ㄱ ㅇㄱ 반포").map(\.id) == [course.id])

            await #expect(throws: StoreError.tooManyKeywords(found: 17, limit: 16)) {
                try await store.search(keywords: (words + ["17번째"]).joined(separator: " "))
            }
            // Duplicates count once, as the search sees them.
            await #expect(try store.search(keywords: (words + words).joined(separator: " ")).isEmpty)
            await #expect(throws: StoreError.keywordTooLong(long + "ㅎ", limit: 64)) {
                try await store.search(keywords: long + "ㅎ")
            }
            // What the audit ran: 2,000 words, each a different 초성 mix.
            let huge = (0..<2_000).map { "ㅎ\($0)강" }.joined(separator: " ")
            await #expect(throws: StoreError.tooManyKeywords(found: 2_000, limit: 16)) {
                try await store.search(keywords: huge)
            }
        }
    }
}
