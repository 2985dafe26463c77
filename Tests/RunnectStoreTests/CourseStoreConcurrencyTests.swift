import Foundation
import GRDB
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Store: concurrent writers")
struct CourseStoreConcurrencyTests {
    @Test("two stores on one file, on two threads, each drawing 50 courses: all 100 kept once")
    func twoWriters() async throws {
        try await withTemporaryDatabase { path in
            let stores = await [try await CourseStore(path: path, user: "a"), try CourseStore(path: path, user: "b")]
            let failures = Failures()
            await concurrentlyPerform(iterations: 2) { writer in
                for i in 0..<50 {
                    do {
                        _ = try await stores[writer].draw(
                            points: taps(seed: writer * 1000 + i), title: "writer \(writer) #\(i)")
                    } catch {
                        failures.append("\(writer) #\(i): \(error)")
                    }
                }
            }
            #expect(failures.all.isEmpty)
            let reader = try await CourseStore(path: path, user: "c")
            try await reader.pool.read { (db: Database) throws in
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM course") == 100)
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT content_hash) FROM course") == 100)
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT title) FROM course") == 100)
                #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            }
            await #expect(try stores[0].list(.mine(uploaded: nil), page: Page(limit: 100)).count == 50)
            await #expect(try stores[1].list(.mine(uploaded: nil), page: Page(limit: 100)).count == 50)
        }
    }

    @Test("two stores of the same user drawing the same 50 courses at once: 50 kept, 50 duplicates")
    func racingDuplicates() async throws {
        try await withTemporaryDatabase { path in
            let stores = await [try await CourseStore(path: path, user: "a"), try CourseStore(path: path, user: "a")]
            let outcomes = Failures()
            await concurrentlyPerform(iterations: 2) { writer in
                for i in 0..<50 {
                    do {
                        _ = try await stores[writer].draw(points: taps(seed: i), title: "course \(i)")
                        outcomes.append("stored")
                    } catch StoreError.duplicate {
                        outcomes.append("duplicate")
                    } catch {
                        outcomes.append("\(error)")
                    }
                }
            }
            #expect(outcomes.all.filter { $0 == "stored" }.count == 50)
            #expect(outcomes.all.filter { $0 == "duplicate" }.count == 50)
            #expect(try rowCount(stores[0], "course") == 50)
        }
    }

    @Test("stores opening a new file at the same moment all succeed (one of them creates the schema)")
    func racingCreation() async throws {
        try await withTemporaryDirectory { folder in
            for round in 0..<20 {
                let path = folder.appendingPathComponent("race-\(round).sqlite").path
                let failures = Failures()
                await concurrentlyPerform(iterations: 3) { writer in
                    do {
                        let store = try await CourseStore(path: path, user: "u\(writer)")
                        _ = try await store.draw(points: taps(seed: writer), title: "first \(writer)")
                    } catch {
                        failures.append("round \(round), store \(writer): \(error)")
                    }
                }
                #expect(failures.all.isEmpty)
                let store = try await CourseStore(path: path, user: "x")
                await #expect(try store.schemaVersion == 6)
                #expect(try rowCount(store, "course") == 3)
            }
        }
    }

    @Test("one store shared by several threads")
    func sharedStore() async throws {
        try await withTemporaryStore { (store, _) throws in
            let failures = Failures()
            await concurrentlyPerform(iterations: 8) { worker in
                do {
                    for i in 0..<10 {
                        let course = try await store.draw(
                            points: taps(seed: worker * 100 + i), title: "w\(worker) \(i)")
                        _ = try await store.list(.mine(uploaded: nil))
                        _ = try await store.activity(id: course.id)
                    }
                } catch {
                    failures.append("\(error)")
                }
            }
            #expect(failures.all.isEmpty)
            #expect(try rowCount(store, "course") == 80)
        }
    }
}

/// Messages gathered from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func append(_ message: String) {
        lock.lock()
        messages.append(message)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return messages
    }
}
