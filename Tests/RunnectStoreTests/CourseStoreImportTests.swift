import Foundation
import GRDB
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Store: import and draw")
struct CourseStoreImportTests {
    @Test("PostgreSQL: the cases of this suite's parameterised tests", .postgresCases)
    func postgresCases() {
        #expect(StoreKind.available.contains(.postgres))
    }

    @Test(
        "activity(id:) returns exactly the imported Activity", .sha256sum,
        arguments: StoreKind.available, SampleTracks.files)
    func geometryRoundTrip(kind: StoreKind, file: String) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let path = SampleTracks.path(file)
            let course = try await store.importFile(path: path)
            let expected = try ActivityReader.read(path: path)
            await #expect(try store.activity(id: course.id) == expected)
            #expect(course.sourceFormat == expected.format.rawValue)
            #expect(course.contentHash == (try sha256(ofFile: path)))
            #expect(course.owner == store.user)
            #expect(!course.isUploaded && course.uploadedAt == nil && course.scrapCount == 0 && !course.isScrapped)
            let stats = expected.stats()
            #expect(abs(course.stats.distanceMeters - stats.distanceMeters) < 0.001)
            #expect(course.stats.points == stats.points)
            #expect(
                course.stats.startTime
                    == stats.startTime.map {
                        Date(timeIntervalSince1970: ($0.timeIntervalSince1970 * 1000).rounded() / 1000)
                    })
            await #expect(try store.course(id: course.id) == course)
        }
    }

    @Test("titles default to the file's own name, else the file name", arguments: StoreKind.available)
    func defaultTitles(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let banpo = try await store.importFile(path: SampleTracks.path("banpo_hangang_night_run.gpx"))
            #expect(banpo.title == "반포 한강공원 달빛 러닝 10K")
            let seokchon = try await store.importFile(path: SampleTracks.path("seokchon_lake_tapped.json"))
            #expect(seokchon.title == "seokchon_lake_tapped")
            #expect(seokchon.sourceFormat == "points-json")
            let cheonggye = try await store.importFile(
                path: SampleTracks.path("cheonggyecheon_tapped.geojson"),
                title: "  청계천 저녁 런  ", description: "  ")
            #expect(cheonggye.title == "청계천 저녁 런")
            #expect(cheonggye.description == nil)

            let long = String(repeating: "긴", count: 50)
            let activity = Activity(
                format: .gpx11, metadata: ActivityMetadata(name: long, description: "from the file"),
                routes: [Route(points: taps(seed: 1).map(TrackPoint.init))])
            let cut = try await store.importActivity(
                activity, contentHash: String(repeating: "1", count: 64), title: nil, description: nil,
                departure: nil, fileName: "x")
            #expect(cut.title == String(repeating: "긴", count: 40))
            #expect(cut.description == "from the file")
            let unnamed = try await store.importActivity(
                Activity(format: .gpx11, routes: activity.routes),
                contentHash: String(repeating: "2", count: 64), title: nil, description: nil, departure: nil,
                fileName: nil)
            #expect(unnamed.title == "Untitled course")
        }
    }

    @Test("titles given by the user must hold 1–40 characters", arguments: StoreKind.available)
    func titleRules(kind: StoreKind) async throws {
        try await withStores(kind) { fixture throws in
            let store = fixture.stores[0]
            let forty = String(repeating: "한", count: 40)
            await #expect(try store.draw(points: taps(seed: 1), title: forty).title == forty)
            for bad in ["", "   ", String(repeating: "a", count: 41)] {
                await #expect(throws: StoreError.invalidTitle(bad)) {
                    try await store.draw(points: taps(seed: 2), title: bad)
                }
            }
            // Decomposed Hangul (as macOS file names carry it) is stored composed, and counted so.
            let decomposed = "한강".decomposedStringWithCanonicalMapping
            #expect(decomposed.unicodeScalars.count == 6)
            await #expect(try store.draw(points: taps(seed: 3), title: decomposed).title.unicodeScalars.count == 2)
            await #expect(try store.list(.mine(uploaded: nil), page: Page(limit: 100)).count == 2)
        }
    }

    @Test("re-importing the same content is a duplicate and adds nothing", arguments: StoreKind.available)
    func duplicates(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let store = fixture.stores[0]
            let file = SampleTracks.path("namsan_loop_two_segments.gpx")
            let first = try await store.importFile(path: file)
            let before = try fixture.dump()
            await #expect(throws: StoreError.duplicate(existingID: first.id)) {
                try await store.importFile(path: file, title: "again")
            }
            // The same bytes under another name are the same content.
            try await withTemporaryDirectory { folder in
                let copy = folder.appendingPathComponent("copy.gpx")
                try FileManager.default.copyItem(atPath: file, toPath: copy.path)
                await #expect(throws: StoreError.duplicate(existingID: first.id)) {
                    try await store.importFile(path: copy.path)
                }
            }
            #expect(try fixture.dump() == before)
            // Duplicates are per owner: another runner keeps their own copy.
            let other = try await fixture.stores[1].importFile(path: file)
            #expect(other.id != first.id && other.contentHash == first.contentHash)
        }
    }

    /// SQLite-only: the failure is injected by a hook of the SQLite backend, and the file's
    /// integrity checked by SQLite.
    @Test("a failure midway through an import leaves the database as it was")
    func atomicImport() async throws {
        try await withTemporaryDatabase { path in
            let store = try await CourseStore(path: path, user: "a")
            _ = try await store.draw(points: taps(seed: 1), title: "한강 첫 코스")
            let before = try dumpDatabase(store)

            let failing = try await CourseStore(
                path: path, user: "a",
                hooks: StoreHooks(beforeImportCommit: { db, id in
                    // The row and its search entry are written at this point…
                    #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM course WHERE id = ?", arguments: [id]) == 1)
                    throw InjectedFailure()
                }))
            await #expect(throws: InjectedFailure.self) {
                try await failing.importFile(
                    path: SampleTracks.path("banpo_hangang_night_run.gpx"),
                    departure: try await Departure(address: "서울 서초구 반포동 신반포로11길 40"))
            }
            await #expect(throws: InjectedFailure.self) {
                try await failing.draw(points: taps(seed: 2), title: "한강 둘째 코스")
            }
            // …and gone after the failure: every table is as before, the id sequence included.
            #expect(try dumpDatabase(store) == before)
            await #expect(try store.search(keywords: "한강", scope: .all).map(\.title) == ["한강 첫 코스"])
            await #expect(try store.pool.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])

            // A file that cannot be read adds nothing either.
            try await withTemporaryDirectory { folder in
                let broken = folder.appendingPathComponent("broken.gpx")
                try Data("<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"37.5\" lon=\"127\">".utf8).write(to: broken)
                await #expect(throws: ReadError.self) { try await store.importFile(path: broken.path) }
            }
            #expect(try dumpDatabase(store) == before)

            // The next import takes the next id, as if the failures never happened.
            let next = try await store.draw(points: taps(seed: 2), title: "한강 둘째 코스")
            #expect(next.id == 2)
        }
    }

    @Test("an activity without track or route points is refused", arguments: StoreKind.available)
    func emptyActivity(kind: StoreKind) async throws {
        try await withStores(kind) { fixture throws in
            let store = fixture.stores[0]
            let waypointsOnly = Activity(
                format: .geoJSON, waypoints: [Waypoint(point: TrackPoint(latitude: 1, longitude: 2))])
            await #expect(throws: StoreError.emptyActivity) {
                try await store.importActivity(
                    waypointsOnly, contentHash: "h", title: nil, description: nil,
                    departure: nil, fileName: nil)
            }
            #expect(try fixture.rowCount("course") == 0)
        }
    }

    @Test("draw stores the taps as a route, measured by geodesic legs", arguments: StoreKind.available)
    func draw(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let points = [
                Coordinate(latitude: 37.5100, longitude: 127.0600),
                Coordinate(latitude: 37.5112, longitude: 127.0621),
                Coordinate(latitude: 37.5125, longitude: 127.0644),
            ]
            let departure = try Departure(address: "서울 송파구 잠실동 올림픽로 25", name: "잠실종합운동장")
            let course = try await store.draw(
                points: points, title: "잠실 한강공원 10K", description: "밤에 달리기 좋은 코스",
                departure: departure)
            let expected = try TappedPointsReader.read(text: "37.5100,127.0600 37.5112,127.0621 37.5125,127.0644")
            await #expect(try store.activity(id: course.id) == expected)
            #expect(course.sourceFormat == "points")
            #expect(course.departure == departure)
            #expect(course.description == "밤에 달리기 좋은 코스")
            #expect(abs(course.stats.distanceMeters - expected.stats().distanceMeters) < 0.001)
            #expect(abs(course.stats.distanceMeters - 480) < 20)  // README: 0.48 km
            // The hash stores made before keep recognising: printf '37.51,127.06 37.5112,127.0621 37.5125,127.0644' | sha256sum
            #expect(course.contentHash == "5e878022e97583628d7b7c7bfc93ea819e4ca5439a6d837f0047f99fff2ca892")

            await #expect(throws: StoreError.duplicate(existingID: course.id)) {
                try await store.draw(points: points, title: "again")
            }
            await #expect(throws: StoreError.tooFewPoints(found: 1)) {
                try await store.draw(points: [points[0]], title: "one")
            }
            await #expect(throws: StoreError.tooFewPoints(found: 0)) { try await store.draw(points: [], title: "none") }
            let bad = Coordinate(latitude: 91, longitude: 127)
            await #expect(throws: StoreError.invalidCoordinate(index: 1, bad)) {
                try await store.draw(points: [points[0], bad], title: "x")
            }
            #expect(try fixture.rowCount("course") == 1)
        }
    }

    @Test("files read on several threads, then imported by one writer", .sha256sum, arguments: StoreKind.available)
    func parallelReading(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let files = SampleTracks.files
            let sources = Locked([String: CourseSource]())
            await concurrentlyPerform(iterations: files.count) { index in
                if let source = try? CourseSource(path: SampleTracks.path(files[index])) {
                    sources.update { $0[files[index]] = source }
                }
            }
            let read = sources.value
            #expect(read.count == files.count)
            for file in files {
                let source = try #require(read[file])
                let course = try await store.importSource(source)
                #expect(course.contentHash == (try sha256(ofFile: SampleTracks.path(file))))
                await #expect(try store.activity(id: course.id) == source.activity)
            }
            #expect(try fixture.rowCount("course") == files.count)
        }
    }

    @Test(
        "the file is hashed in the same pass that reads it, trailing bytes included", .sha256sum,
        arguments: StoreKind.available)
    func streamingHash(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            try await withTemporaryDirectory { folder in
                let file = folder.appendingPathComponent("trailing.gpx")
                var bytes = try Data(contentsOf: URL(fileURLWithPath: SampleTracks.path("olympic_park_route.gpx")))
                bytes.append(contentsOf: Array("\n<!-- written after the root -->\n".utf8))
                try bytes.write(to: file)
                let course = try await fixture.stores[0].importFile(path: file.path)
                #expect(course.contentHash == (try sha256(ofFile: file.path)))
                #expect(course.title == "올림픽공원 둘레길")
            }
        }
    }
}

@Suite("Store: departure")
struct DepartureTests {
    @Test("PostgreSQL: the cases of this suite's parameterised tests", .postgresCases)
    func postgresCases() {
        #expect(StoreKind.available.contains(.postgres))
    }

    @Test("an address splits into region, city, town and detail")
    func split() throws {
        let departure = try Departure(address: " 서울  송파구 잠실동\t올림픽로 25 ", name: " 잠실종합운동장 ")
        #expect(departure == Departure(region: "서울", city: "송파구", town: "잠실동", detail: "올림픽로 25", name: "잠실종합운동장"))
        #expect(departure.address == "서울 송파구 잠실동 올림픽로 25")
        let short = try Departure(address: "서울 마포구 연남동", name: "  ")
        #expect(short.detail == nil && short.name == nil && short.address == "서울 마포구 연남동")
    }

    @Test("fewer than three parts is an error", arguments: ["", "서울", "서울 송파구", "   "])
    func tooShort(address: String) {
        #expect(throws: StoreError.invalidDeparture(address)) { try Departure(address: address) }
    }

    @Test("decomposed Hangul is normalised to NFC")
    func normalised() throws {
        let departure = try Departure(address: "서울 송파구 잠실동".decomposedStringWithCanonicalMapping)
        #expect(departure.town.unicodeScalars.count == 3)
        #expect(departure.town == "잠실동")
    }

    @Test("a departure is stored and read back with every part", arguments: StoreKind.available)
    func stored(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let departure = try Departure(address: "서울 서초구 반포동 신반포로11길 40", name: "반포한강공원")
            let course = try await store.importFile(
                path: SampleTracks.path("banpo_hangang_night_run.gpx"), departure: departure)
            await #expect(try store.course(id: course.id).departure == departure)
            await #expect(try store.draw(points: taps(seed: 1), title: "no departure").departure == nil)
        }
    }
}
