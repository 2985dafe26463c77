import Foundation
import GRDB
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// Near-me search against a brute force that measures every course of the store, on a seeded
/// store of drawn courses: dense in Seoul, a few in Busan, across the antimeridian and near a
/// pole, with legs of 20 m to 3 km. Both backends give the brute force's ids in its order; SQLite
/// measures as RunnectKit does (to 1e-9 m of it), PostGIS within 1 m of it
/// (``StoreTransaction/nearbyCourses(to:withinMeters:scope:limit:offset:)``'s contract).
@Suite("Store: near-me search")
struct CourseStoreNearbyTests {
    @Test("PostgreSQL: the cases of this suite's parameterised tests", .postgresCases)
    func postgresCases() {
        #expect(StoreKind.available.contains(.postgres))
    }

    /// A deterministic unit-interval source for the store's generated courses.
    struct Random {
        var generator: SplitMix64
        mutating func unit() -> Double { Double(generator.next() >> 11) * 0x1p-53 }
        mutating func between(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * unit()
        }
    }

    static let places: [(name: String, centre: Coordinate, spread: Double, weight: Int)] = [
        ("Seoul", Coordinate(latitude: 37.53, longitude: 127.0), 0.08, 10),
        ("Busan", Coordinate(latitude: 35.16, longitude: 129.07), 0.05, 2),
        ("Fiji", Coordinate(latitude: -16.8, longitude: 179.99), 0.03, 1),
        ("Svalbard", Coordinate(latitude: 89.5, longitude: 20), 0.2, 1),
    ]

    /// Courses of users a and b: random walks of 2–30 taps, legs 20 m–3 km; a shares half of
    /// hers, b shares most and a scraps some of b's.
    static func populate(_ fixture: StoreFixture, count: Int = 360) async throws -> (a: CourseStore, b: CourseStore) {
        let (a, b) = (fixture.stores[0], fixture.stores[1])
        var random = Random(generator: SplitMix64(seed: 1414))
        let weights = places.flatMap { place in Array(repeating: place, count: place.weight) }
        for i in 0..<count {
            let place = weights[Int(random.unit() * Double(weights.count))]
            var point = Coordinate(
                latitude: min(89.99, place.centre.latitude + random.between(-1...1) * place.spread),
                longitude: place.centre.longitude + random.between(-1...1) * place.spread)
            point.longitude = (point.longitude + 180).truncatingRemainder(dividingBy: 360) - 180
            var taps = [point]
            for _ in 1..<Int(random.between(2...30)) {
                let meters = random.unit() < 0.2 ? random.between(500...3_000) : random.between(20...400)
                taps.append(
                    Geodesic.destination(
                        from: taps.last!, azimuthDegrees: random.between(-180...180), distanceMeters: meters)!)
            }
            let owner = i % 3 == 0 ? b : a
            let course = try await owner.draw(points: taps, title: "\(place.name) \(i % 2 == 0 ? "강변" : "공원") \(i)")
            if random.unit() < (owner === a ? 0.5 : 0.8) {
                _ = try await owner.upload(id: course.id, title: course.title, description: "near-me test")
                if owner === b && random.unit() < 0.3 { _ = try await a.scrap(id: course.id) }
            }
        }
        return (a, b)
    }

    static let points: [Coordinate] = [
        Coordinate(latitude: 37.53, longitude: 127.0),  // the middle of the Seoul courses
        Coordinate(latitude: 37.5113, longitude: 127.0985),  // Jamsil
        Coordinate(latitude: 37.62, longitude: 127.09),  // Seoul's edge
        Coordinate(latitude: 35.16, longitude: 129.07),  // Busan
        Coordinate(latitude: -16.8, longitude: -179.995),  // across the antimeridian from Fiji's
        Coordinate(latitude: 89.6, longitude: -160),  // across the pole
        Coordinate(latitude: 0, longitude: -30),  // the Atlantic: nothing
    ]

    /// Every course of `scope` measured, those within `meters` by distance then id.
    static func reference(
        _ store: CourseStore, _ point: Coordinate, meters: Double, ids: [Int64]
    ) async throws -> [CourseDistance] {
        var found: [CourseDistance] = []
        for id in ids {
            let segments = try await store.activity(id: id).courseSegments
            let d = try #require(Geodesic.distance(from: point, toSegments: segments))
            if d <= meters { found.append(CourseDistance(id: id, meters: d)) }
        }
        return found.sorted { $0.meters < $1.meters || ($0.meters == $1.meters && $0.id < $1.id) }
    }

    static func allIDs(_ store: CourseStore, _ scope: CourseListScope) async throws -> [Int64] {
        try await store.list(scope, page: Page(limit: 100_000)).map(\.id)
    }

    /// How far a backend's distance may be from the brute force's, metres.
    static func tolerance(_ kind: StoreKind) -> Double {
        kind == .sqlite ? 1e-9 : 1
    }

    @Test(
        "every page of every scope, at every radius, is the brute force's, by distance then id",
        arguments: StoreKind.available)
    func matchesBruteForce(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, _) = try await Self.populate(fixture)
            let scopes: [CourseListScope] = [.shared, .mine(uploaded: nil), .mine(uploaded: false), .scrapped]
            var nonEmpty = 0
            for scope in scopes {
                let ids = try await Self.allIDs(a, scope)
                for point in Self.points {
                    for meters in [300.0, 2_000, 5_000, 40_000] {
                        let expected = try await Self.reference(a, point, meters: meters, ids: ids)
                        if !expected.isEmpty { nonEmpty += 1 }
                        // Pages of 7 put together, and one page of everything.
                        var paged: [NearbyCourse] = []
                        for number in 1...(expected.count / 7 + 2) {
                            paged += try await a.nearby(
                                point, withinMeters: meters, scope: scope, page: Page(limit: 7, number: number))
                        }
                        let whole = try await a.nearby(
                            point, withinMeters: meters, scope: scope, page: Page(limit: 1_000))
                        for found in [paged, whole] {
                            #expect(found.map(\.course.id) == expected.map(\.id), "\(scope) \(point) \(meters) m")
                            for (f, e) in zip(found, expected) {
                                #expect(abs(f.distanceMeters - e.meters) <= Self.tolerance(kind), "course \(e.id)")
                            }
                        }
                    }
                }
            }
            // The cases are not vacuous: most radii find courses.
            #expect(nonEmpty >= 40)
        }
    }

    /// SQLite-only: the tuning of SQLite's own search (its rings through the R*Tree).
    @Test("the rings, from 1 m to the whole radius at once, give the same pages")
    func ringsDoNotMatter() async throws {
        try await withStores(.sqlite, users: ["a", "b"]) { fixture in
            let (a, _) = try await Self.populate(fixture, count: 200)
            let ids = try await Self.allIDs(a, .shared)
            for point in Self.points.prefix(4) {
                let expected = try await Self.reference(a, point, meters: 5_000, ids: ids)
                for (first, growth) in [(1.0, 2.0), (50, 4), (5_000, 4)] {
                    for (limit, offset) in [(1, 0), (5, 3), (100, 0)] {
                        let found = try await a.read { tx in
                            var search = SQLiteNearbySearch(db: (tx as! SQLiteTransaction).db, user: "a")
                            search.firstRingMeters = first
                            search.ringGrowth = growth
                            return try search.nearbyCourses(
                                to: point, withinMeters: 5_000, scope: .list(.shared), limit: limit, offset: offset)
                        }
                        #expect(found == Array(expected.dropFirst(offset).prefix(limit)), "\(point) ring \(first)")
                    }
                }
            }
        }
    }

    @Test(
        "distances agree with a dense sampling of every leg (GeographicLib's direct and inverse): to 1 mm on SQLite, 1 m on PostGIS",
        arguments: StoreKind.available)
    func distancesMatchSampling(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, _) = try await Self.populate(fixture, count: 120)
            var checked = 0
            for point in Self.points.prefix(4) {
                for found in try await a.nearby(point, withinMeters: 5_000, page: Page(limit: 8)) {
                    let segments = try await a.activity(id: found.course.id).courseSegments
                    var sampled = Double.infinity
                    for segment in segments {
                        let taps = segment.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
                        if taps.count == 1 { sampled = min(sampled, Geodesic.distance(from: point, to: taps[0])!) }
                        for (start, end) in zip(taps, taps.dropFirst()) {
                            sampled = min(sampled, Self.sampledDistance(from: point, start: start, end: end))
                        }
                    }
                    if kind == .sqlite {
                        // The exact distance: never above a sample, and within 1 mm of the closest.
                        #expect(found.distanceMeters <= sampled + 1e-6)
                        #expect(sampled - found.distanceMeters <= 1e-3, "course \(found.course.id)")
                    } else {
                        #expect(abs(sampled - found.distanceMeters) <= 1, "course \(found.course.id)")
                    }
                    checked += 1
                }
            }
            #expect(checked >= 20)
        }
    }

    /// The smallest distance from `point` to 400 points along the leg, refined around the best
    /// three times.
    static func sampledDistance(from point: Coordinate, start: Coordinate, end: Coordinate) -> Double {
        let leg = Geodesic.inverse(from: start, to: end)!
        var low = 0.0
        var high = leg.distanceMeters
        var best = Geodesic.distance(from: point, to: start)!
        for _ in 0..<4 {
            let step = (high - low) / 400
            var bestS = low
            for i in 0...400 {
                let s = low + Double(i) * step
                let there = Geodesic.destination(
                    from: start, azimuthDegrees: leg.initialAzimuthDegrees, distanceMeters: s)!
                let d = Geodesic.distance(from: point, to: there)!
                if d < best {
                    best = d
                    bestS = s
                }
            }
            low = max(0, bestS - step)
            high = min(leg.distanceMeters, bestS + step)
        }
        return best
    }

    @Test(
        "keywords near a point: the keyword order, only courses within the distance; blank keywords sort by distance",
        arguments: StoreKind.available)
    func keywordsNearAPoint(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, _) = try await Self.populate(fixture, count: 200)
            let point = Self.points[0]
            for (keywords, scope, sort) in [
                ("강변", SearchScope.shared, CourseSort.relevance), ("공원", .all, .date), ("Seoul", .shared, .distance),
                ("Busan", .all, .relevance), ("없는말", .shared, .date),
            ] {
                let all = try await a.search(keywords: keywords, scope: scope, sort: sort, page: Page(limit: 10_000))
                var distances: [Int64: Double] = [:]
                for course in all {
                    let segments = try await a.activity(id: course.id).courseSegments
                    distances[course.id] = Geodesic.distance(from: point, toSegments: segments)
                }
                let expected = all.filter { distances[$0.id]! <= 3_000 }.map(\.id)
                var paged: [Int64] = []
                for number in 1...(expected.count / 4 + 2) {
                    let page = try await a.search(
                        keywords: keywords, near: point, withinMeters: 3_000, scope: scope, sort: sort,
                        page: Page(limit: 4, number: number))
                    for found in page {
                        #expect(abs(found.distanceMeters - distances[found.course.id]!) <= Self.tolerance(kind))
                    }
                    paged += page.map(\.course.id)
                }
                #expect(paged == expected, "\(keywords)")
            }
            let blank = try await a.search(
                keywords: "  ", near: point, withinMeters: 3_000, scope: .shared, page: Page(limit: 50))
            await #expect(blank == (try a.nearby(point, withinMeters: 3_000, scope: .shared, page: Page(limit: 50))))
            #expect(!blank.isEmpty)
        }
    }

    @Test(
        "a point off the globe, a distance out of range and a bad page are refused with what to do",
        arguments: StoreKind.available)
    func refusals(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let seoul = Self.points[0]
            await #expect(throws: StoreError.invalidNearbyPoint(Coordinate(latitude: 91, longitude: 0))) {
                try await store.nearby(Coordinate(latitude: 91, longitude: 0))
            }
            await #expect(throws: StoreError.invalidNearbyDistance(meters: 0, maximum: 1_000_000)) {
                try await store.nearby(seoul, withinMeters: 0)
            }
            await #expect(throws: StoreError.invalidNearbyDistance(meters: 2e6, maximum: 1_000_000)) {
                try await store.search(keywords: "a", near: seoul, withinMeters: 2e6)
            }
            await #expect(throws: StoreError.invalidPage(limit: 0, number: 1)) {
                try await store.nearby(seoul, page: Page(limit: 0))
            }
            #expect(
                StoreError.invalidNearbyDistance(meters: 2e6, maximum: 1_000_000).description
                    == "a near-me distance must be more than 0 and at most 1000.0 km, got 2000.0 km")
        }
    }
}
