import Foundation
import GRDB
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Store: bulk import")
struct BulkImporterTests {
    /// Writes `count` distinct small GPX runs into `folder`; returns their paths in order.
    static func writeRuns(_ count: Int, in folder: URL, name: String = "run") throws -> [String] {
        try (0..<count).map { i in
            var points = ""
            for j in 0..<20 {
                let lat = 37.5 + Double(i) * 1e-3 + Double(j) * 5e-5
                let lon = 127.0 + Double(j) * 5e-5
                points += "<trkpt lat=\"\(lat)\" lon=\"\(lon)\"><time>2025-05-01T06:00:\(10 + j)Z</time></trkpt>\n"
            }
            let text = "<gpx version=\"1.1\"><trk><name>\(name) \(i)</name><trkseg>\n\(points)</trkseg></trk></gpx>\n"
            let url = folder.appendingPathComponent(String(format: "\(name)_%03d.gpx", i))
            try Data(text.utf8).write(to: url)
            return url.path
        }
    }

    @Test("every outcome in order: new courses, a duplicate inside the batch, an unreadable file")
    func outcomesInOrder() async throws {
        try await withTemporaryDirectory { folder in
            var paths = try Self.writeRuns(6, in: folder)
            let broken = folder.appendingPathComponent("broken.gpx")
            try Data("<gpx><trk><trkseg><trkpt lat=\"37.5\" lon=\"127\">".utf8).write(to: broken)
            let copy = folder.appendingPathComponent("copy.gpx")
            try FileManager.default.copyItem(atPath: paths[1], toPath: copy.path)
            paths.insert(broken.path, at: 3)
            paths.append(copy.path)

            try await withTemporaryStore { store, _ in
                var seen: [ImportOutcome] = []
                var importer = BulkImporter(store: store, jobs: 3)
                importer.batchFiles = 4
                let summary = try await importer.run(paths.map { ImportItem(path: $0) }) { seen += $0 }
                #expect(
                    summary
                        == {
                            var s = ImportSummary()
                            s.imported = 6
                            s.skipped = 1
                            s.failed = 1
                            return s
                        }())
                #expect(seen.map(\.item.path) == paths)
                guard case .failed(_, let error) = seen[3] else {
                    Issue.record("\(seen[3])")
                    return
                }
                #expect(error is ReadError)
                guard case .skipped(_, let existing) = seen[7], case .imported(_, let original) = seen[1] else {
                    Issue.record("\(seen[7])")
                    return
                }
                #expect(existing == original.id)
                // Ids follow the order of the files, whatever thread read them.
                let titles = try await store.list(.mine(uploaded: nil), sort: .date, page: Page(limit: 50)).sorted {
                    $0.id < $1.id
                }.map(\.title)
                #expect(titles == (0..<6).map { "run \($0)" })
                await #expect(
                    try store.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM course_search") } == 6)
            }
        }
    }

    @Test("a file that fails while being stored leaves nothing; the rest of its batch is stored")
    func failureInsideBatch() async throws {
        try await withTemporaryDirectory { folder in
            let paths = try Self.writeRuns(5, in: folder)
            try await withTemporaryDatabase { path in
                let failing = try await CourseStore(
                    path: path, user: "a",
                    hooks: StoreHooks(beforeImportCommit: { db, id in
                        let title = try String.fetchOne(
                            db, sql: "SELECT title FROM course WHERE id = ?", arguments: [id])
                        if title == "run 2" { throw StoreError.database("injected failure") }
                    }))
                let summary = try await BulkImporter(store: failing, jobs: 2).run(paths.map { ImportItem(path: $0) })
                #expect(summary.imported == 4 && summary.failed == 1)
                let store = try await CourseStore(path: path, user: "a")
                let titles = try await store.list(.mine(uploaded: nil), page: Page(limit: 50)).map(\.title).sorted()
                #expect(titles == ["run 0", "run 1", "run 3", "run 4"])
                await #expect(try store.search(keywords: "run", scope: .all, page: Page(limit: 50)).count == 4)
                await #expect(
                    try store.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM course_search") } == 4)
                await #expect(try store.pool.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
            }
        }
    }

    @Test("one job or four give the same store")
    func jobsDoNotChangeTheResult() async throws {
        try await withTemporaryDirectory { folder in
            let items = try Self.writeRuns(40, in: folder).map { ImportItem(path: $0, description: "같은 설명") }
            func stored(jobs: Int) async throws -> [String] {
                try await withTemporaryStore { store, _ in
                    var importer = BulkImporter(store: store, jobs: jobs)
                    importer.batchFiles = 7
                    importer.optimizeAfter = 10
                    try await importer.run(items)
                    return try await store.list(.mine(uploaded: nil), page: Page(limit: 100)).sorted { $0.id < $1.id }
                        .map {
                            "\($0.id) \($0.title) \($0.contentHash) \($0.stats.distanceMeters) \($0.description ?? "")"
                        }
                }
            }
            let one = try await stored(jobs: 1)
            #expect(one.count == 40)
            await #expect(try stored(jobs: 4) == one)
        }
    }

    @Test("batches are cut by file count and by bytes, a big file alone")
    func batches() async throws {
        try await withTemporaryDirectory { folder in
            let size: Int64 = 1_000
            let paths = try (0..<10).map { i in
                let url = folder.appendingPathComponent("file_\(i).gpx")
                try Data(repeating: UInt8(ascii: "x"), count: Int(size)).write(to: url)
                return url.path
            }
            let items = paths.map { ImportItem(path: $0) }
            #expect(BulkImporter.batches(of: items, files: 4, bytes: 1 << 30).map(\.count) == [4, 4, 2])
            #expect(BulkImporter.batches(of: items, files: 100, bytes: size * 3).map(\.count) == [3, 3, 3, 1])
            #expect(
                BulkImporter.batches(of: items, files: 100, bytes: 1).map(\.count) == Array(repeating: 1, count: 10))
            #expect(BulkImporter.batches(of: [], files: 4, bytes: 1).isEmpty)
        }
    }

    @Test(
        "a batch whose transaction fails as a whole stops the import, which names every file left; a re-run completes it"
    )
    func stoppedImportNamesWhatIsLeft() async throws {
        try await withTemporaryDirectory { folder in
            let paths = try Self.writeRuns(7, in: folder)
            try await withTemporaryDatabase { path in
                let sqlite = try SQLiteBackend(path: path, user: "a", hooks: StoreHooks())
                // The database goes away at the second batch's transaction.
                let store = CourseStore(backend: FailingWrites(sqlite, failing: 2))
                var importer = BulkImporter(store: store, jobs: 2)
                importer.batchFiles = 3
                var reported: [String] = []
                await #expect {
                    try await importer.run(paths.map { ImportItem(path: $0) }) { outcomes in
                        reported += outcomes.map(\.item.path)
                    }
                } throws: { error in
                    guard let stopped = error as? ImportStopped else { return false }
                    return stopped.notImported == Array(paths[3...])
                        && "\(stopped)".hasPrefix(
                            "the import stopped: database error: the connection to the database was lost;")
                        && "\(stopped)".contains("4 file(s) not imported")
                }
                #expect(reported == Array(paths[..<3]))
                let again = try await BulkImporter(store: CourseStore(backend: sqlite), jobs: 2)
                    .run(paths.map { ImportItem(path: $0) })
                #expect(again.imported == 4 && again.skipped == 3)
            }
        }
    }
}

/// A backend whose `failing`-th write transaction fails before it begins, as when the server
/// went away.
private final class FailingWrites: StoreBackend, @unchecked Sendable {
    let base: SQLiteBackend
    let failing: Int
    private var writes = 0

    init(_ base: SQLiteBackend, failing: Int) {
        self.base = base
        self.failing = failing
    }

    var location: String { base.location }
    var defaultUser: String { base.defaultUser }
    var supportedSchemaVersion: Int { base.supportedSchemaVersion }
    func schemaVersion() async throws -> Int { try await base.schemaVersion() }
    var connectionLimit: Int { base.connectionLimit }
    func read<T: Sendable>(
        as user: String, _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        try await base.read(as: user, body)
    }
    func optimizeSearch() async throws { try await base.optimizeSearch() }
    func optimize(stepDone: @escaping @Sendable (OptimizeReport.Step) -> Void) async throws -> OptimizeReport {
        try await base.optimize(stepDone: stepDone)
    }
    func ensureUsers(_ names: [String], enrollingExisting: Bool) async throws -> [String] { [] }
    func check() async throws -> StoreCheckFindings { try await base.check() }

    func write<T: Sendable>(
        as user: String, _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        writes += 1
        if writes == failing { throw StoreError.database("the connection to the database was lost") }
        return try await base.write(as: user, body)
    }
}
