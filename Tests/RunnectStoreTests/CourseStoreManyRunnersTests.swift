import Foundation
import RunnectKit
import RunnectPostgres
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// One open store answering many runners at once (`CourseStore.acting(as:)`): on SQLite a
/// name per call, on PostgreSQL a server's role running each transaction as the runner.
@Suite("Store: one open store, many runners at once")
struct CourseStoreManyRunnersTests {
    @Test("PostgreSQL: the cases of this suite's parameterised tests", .postgresCases)
    func postgresCases() {
        #expect(StoreKind.available.contains(.postgres))
    }

    /// The open store (SQLite as a first runner, PostgreSQL as a server's role) and the names of
    /// `count` runners it may act as.
    static func openStore(_ kind: StoreKind, runners count: Int, in folder: TemporaryFolder) async throws -> (
        store: CourseStore, runners: [String]
    ) {
        try kind.require(sourceLocation: #_sourceLocation)
        switch kind {
        case .sqlite:
            let runners = (0..<count).map { "runner\($0)" }
            return (try await CourseStore(path: folder.path("courses.sqlite"), user: runners[0]), runners)
        case .postgres:
            let database = try await PostgresStoreDatabase()
            var runners: [String] = []
            for index in 0..<count { runners.append(try await database.addRunner("runner\(index)").role) }
            let server = try await database.addServer("server")
            return (try await CourseStore(postgres: server.url), runners)
        }
    }

    @Test(
        "64 tasks as 8 runners, reads and writes interleaved: nothing lost, nothing seen by the wrong runner",
        arguments: StoreKind.available)
    func interleavedRunners(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let (store, runners) = try await Self.openStore(kind, runners: 8, in: folder)
        let perTask = 6
        // Task t acts as runner t % 8: draws private courses, shares every other one, and reads
        // its own list and the shared list between writes.
        let drawn = try await withThrowingTaskGroup(of: (String, [Course]).self) { group in
            for task in 0..<64 {
                group.addTask {
                    let runner = runners[task % runners.count]
                    let mine = try store.acting(as: runner)
                    var courses: [Course] = []
                    for step in 0..<perTask {
                        let seed = task * 100 + step
                        var course = try await mine.draw(points: taps(seed: seed), title: "t\(task) s\(step)")
                        #expect(course.owner == runner)
                        if step.isMultiple(of: 2) {
                            course = try await mine.upload(id: course.id, title: course.title, description: "shared")
                        }
                        courses.append(course)
                        let own = try await mine.list(.mine(uploaded: nil), page: Page(limit: 100, number: 1))
                        #expect(own.allSatisfy { $0.owner == runner })
                        let shared = try await mine.list(.shared, page: Page(limit: 100, number: 1))
                        #expect(shared.allSatisfy { $0.isUploaded })
                    }
                    return (runner, courses)
                }
            }
            var all: [String: [Course]] = [:]
            for try await (runner, courses) in group { all[runner, default: []] += courses }
            return all
        }
        for runner in runners {
            let mine = try store.acting(as: runner)
            let expected = Set(drawn[runner, default: []].map(\.id))
            #expect(expected.count == 8 * perTask)
            let listed = try await mine.list(.mine(uploaded: nil), page: Page(limit: 100, number: 1))
            #expect(Set(listed.map(\.id)) == expected, "\(runner) lost or gained a course")
            // Another runner's private course is not found; a shared one is.
            for (other, courses) in drawn where other != runner {
                for course in courses.prefix(2) {
                    if course.isUploaded {
                        #expect(try await mine.course(id: course.id).owner == other)
                    } else {
                        await #expect(throws: StoreError.notFound(course.id)) { try await mine.course(id: course.id) }
                    }
                }
            }
        }
    }
}
