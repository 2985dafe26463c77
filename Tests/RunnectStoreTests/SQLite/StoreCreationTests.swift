import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// What opening a SQLite store may make (issue 34, item 14): a path someone typed is checked.
@Suite("Store: opening a SQLite file that is not there")
struct StoreCreationTests {
    /// Everything under `folder`, recursively.
    static func contents(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test("never: a missing file is noStore and nothing is made; an existing one opens")
    func never() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("nope.sqlite").path
            await #expect(throws: StoreError.noStore(path: path)) {
                try await CourseStore(path: path, user: "a", creating: .never)
            }
            #expect(Self.contents(folder) == [])
            _ = try await CourseStore(path: path, user: "a")
            await #expect(try CourseStore(path: path, user: "a", creating: .never).schemaVersion > 0)
        }
    }

    @Test("inExistingFolder: made in a folder that exists; a missing folder is noFolder and nothing is made")
    func inExistingFolder() async throws {
        try await withTemporaryDirectory { folder in
            let typo = folder.appendingPathComponent("typo").path
            let path = typo + "/nothere.sqlite"
            await #expect(throws: StoreError.noFolder(path: path, folder: typo)) {
                try await CourseStore(path: path, user: "a", creating: .inExistingFolder)
            }
            #expect(Self.contents(folder) == [])
            let made = folder.appendingPathComponent("new.sqlite").path
            _ = try await CourseStore(path: made, user: "a", creating: .inExistingFolder)
            #expect(FileManager.default.fileExists(atPath: made))
            // A file named inside a file is no folder either.
            let inFile = made + "/x.sqlite"
            await #expect(throws: StoreError.noFolder(path: inFile, folder: made)) {
                try await CourseStore(path: inFile, user: "a", creating: .inExistingFolder)
            }
        }
    }

    @Test("withFolders (init(path:user:)): the file and its folders are made, as for the default store")
    func withFolders() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("data/runnect/courses.sqlite").path
            _ = try await CourseStore(path: path, user: "a")
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }
}
