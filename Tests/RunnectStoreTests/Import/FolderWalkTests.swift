import Foundation
import RunnectStore
import RunnectTestSupport
import Testing

/// Which files an import takes from a folder (``FolderWalk``) and what it makes of each path it is
/// given (``ImportPath``): files, Strava exports, folders.
@Suite("Store: the files an import takes from a folder")
struct FolderWalkTests {
    /// Writes a small file at `relative` under `folder`, making the folders on the way.
    @discardableResult
    static func write(_ relative: String, in folder: URL, _ text: String = "<gpx/>") throws -> String {
        let url = folder.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test("supported names: gpx, tcx, fit, json, geojson, gzipped or not, in any case; nothing else")
    func supportedNames() {
        for name in [
            "a.gpx", "a.tcx", "a.fit", "a.json", "a.geojson", "a.GPX", "b/c.Tcx", "a.gpx.gz", "a.FIT.GZ",
            "a.geojson.gz", ".hidden.gpx", "run.2024.json",
        ] {
            #expect(FolderWalk.isSupported(name), "\(name)")
        }
        for name in ["a.csv", "a.gz", "gpx", "a.gpx.zip", "a.kml", "a.txt.gz", "a.gz.gpx.bak", "", "a."] {
            #expect(!FolderWalk.isSupported(name), "\(name)")
        }
        #expect(FolderWalk.supportedExtensions == ["gpx", "tcx", "fit", "json", "geojson"])
    }

    @Test("every supported regular file at any depth, hidden ones too, sorted and named under the folder")
    func recursion() async throws {
        try await withTemporaryDirectory { root in
            let folder = root.appendingPathComponent("runs")
            let expected = try [
                "b.gpx", "a/deep/er/c.tcx.gz", "A.FIT", ".hidden.gpx", ".dot/d.json", "x.geojson", "folder.gpx/e.gpx",
            ].map { try Self.write($0, in: folder) }
            for other in ["notes.txt", "activities.csv", "a/readme", "a/deep/x.kml"] {
                try Self.write(other, in: folder)
            }
            let walk = FolderWalk(folder: folder.path)
            #expect(walk.folder == folder.path)
            #expect(walk.files == expected.sorted(), "\(walk.files)")
            #expect(walk.skipped.isEmpty)
        }
    }

    @Test("a FIFO and a link to nothing of a supported name are skipped, each with its line; a link to a file is taken")
    func specialEntries() async throws {
        try await withTemporaryDirectory { root in
            let folder = root.appendingPathComponent("runs")
            let real = try Self.write("real.gpx", in: folder)
            let fifo = folder.appendingPathComponent("b.gpx").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let broken = folder.appendingPathComponent("a.tcx").path
            try FileManager.default.createSymbolicLink(atPath: broken, withDestinationPath: root.path + "/gone.tcx")
            let linked = folder.appendingPathComponent("z.fit").path
            try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: real)
            // An unsupported name is not looked at, whatever it is.
            #expect(mkfifo(folder.appendingPathComponent("pipe.txt").path, 0o600) == 0)

            let walk = FolderWalk(folder: folder.path)
            #expect(walk.files == [real, linked])
            #expect(
                Set(walk.skipped)
                    == [
                        FolderWalk.Skipped(path: fifo, reason: .notRegularFile),
                        FolderWalk.Skipped(path: broken, reason: .brokenLink),
                    ])
            let lines = walk.skipped.map(\.description).sorted()
            #expect(
                lines == [
                    "\(broken): a link to nothing, skipped",
                    "\(fifo): not a regular file (a FIFO, socket or device), skipped",
                ])
        }
    }

    @Test("the folder named may be a link (runs, runs/, runs/.); links to folders inside it are not followed")
    func links() async throws {
        try await withTemporaryDirectory { root in
            let real = root.appendingPathComponent("Real")
            try Self.write("a.gpx", in: real)
            let elsewhere = root.appendingPathComponent("Elsewhere")
            try Self.write("far.gpx", in: elsewhere)
            try FileManager.default.createSymbolicLink(
                atPath: real.appendingPathComponent("more").path, withDestinationPath: elsewhere.path)
            try FileManager.default.createSymbolicLink(
                atPath: real.appendingPathComponent("more.gpx").path, withDestinationPath: elsewhere.path)
            let link = root.appendingPathComponent("runs").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real.path)
            for name in [link, link + "/", link + "/."] {
                let walk = FolderWalk(folder: name)
                #expect(walk.files == [(name as NSString).appendingPathComponent("a.gpx")], "\(name): \(walk.files)")
                #expect(walk.skipped.isEmpty)
            }
        }
    }

    @Test("a folder that cannot be read, or is not there, gives nothing")
    func unreadable() async throws {
        try await withTemporaryDirectory { root in
            let walk = FolderWalk(folder: root.appendingPathComponent("nothing").path)
            #expect(walk.files.isEmpty && walk.skipped.isEmpty)
        }
    }
}

@Suite("Store: what an import takes from a path")
struct ImportPathTests {
    static func files(_ found: ImportPath) -> [String] {
        found.sources.compactMap { source in
            if case .file(let path) = source { return path }
            return nil
        }
    }

    @Test("a file, a FIFO named, and - are read as they are; a missing path is refused naming it")
    func files() async throws {
        try await withTemporaryDirectory { root in
            let file = try FolderWalkTests.write("anything.txt", in: root)
            let fifo = root.appendingPathComponent("pipe").path
            #expect(mkfifo(fifo, 0o600) == 0)
            for path in [file, fifo, "-"] {
                let found = try ImportPath(path)
                #expect(found.path == path && Self.files(found) == [path] && found.skipped.isEmpty)
            }
            let missing = root.appendingPathComponent("gone.gpx").path
            let error = try #require(throws: ImportPathError.self) { try ImportPath(missing) }
            #expect(error == .notFound(path: missing))
            #expect(error.description == "\(missing): no such file or folder")
        }
    }

    @Test("a folder is walked, its skipped entries kept in the order met")
    func folder() async throws {
        try await withTemporaryDirectory { root in
            let runs = root.appendingPathComponent("runs")
            let a = try FolderWalkTests.write("a.gpx", in: runs)
            let fifo = runs.appendingPathComponent("b.gpx").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let found = try ImportPath(runs.path)
            #expect(Self.files(found) == [a])
            #expect(found.skipped == [FolderWalk.Skipped(path: fifo, reason: .notRegularFile)])
        }
    }

    @Test("a folder holding activities.csv is a Strava export, not walked; one that cannot be read is refused")
    func stravaExport() async throws {
        try await withTemporaryDirectory { root in
            let export = root.appendingPathComponent("export_1")
            try FolderWalkTests.write("activities.csv", in: export, "Activity ID,Filename\n1,activities/1.gpx\n2,\n")
            try FolderWalkTests.write("activities/1.gpx", in: export)
            try FolderWalkTests.write("stray.gpx", in: export)
            let found = try ImportPath(export.path)
            #expect(found.sources.count == 1 && found.skipped.isEmpty)
            guard case .stravaExport(let strava) = found.sources.first else {
                Issue.record("not an export: \(found.sources)")
                return
            }
            #expect(strava.folder == export.path && strava.entries.count == 2 && strava.recorded.count == 1)

            let broken = root.appendingPathComponent("export_2")
            try FolderWalkTests.write("activities.csv", in: broken, "Activity ID,Name\n1,x\n")
            let error = try #require(throws: StravaExportError.self) { try ImportPath(broken.path) }
            #expect(error == .missingColumn(path: broken.path + "/activities.csv", column: "Filename"))
        }
    }
}
