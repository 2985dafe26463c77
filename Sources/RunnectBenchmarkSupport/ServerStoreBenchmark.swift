import Foundation
import RunnectStore

/// The store `scripts/bench-serve.sh` loads `runnect serve` with: app runners signed up as the
/// app signs them up, every course shared (the feed's worst case: the search corpus shares only
/// 60 %), and scraps and reported records among them made through the store's own writes, so
/// the counters and stamps are the triggers' and not a preset.
///
/// Deterministic in its courses (``CorpusGenerator``'s seeded text, a course every quarter of an
/// hour); the scraps and records are seeded too.
public enum ServerStoreBenchmark {
    /// What was made: the runners' names, in sign-up order, and the courses' ids.
    public struct Filled: Sendable {
        public var runners: [String]
        public var courseIDs: ClosedRange<Int64>
        public var scraps: Int
        public var records: Int
    }

    /// The benchmark's search queries (the search benchmark's 27: Korean, 초성, English, mixed,
    /// literal), as the app sends them.
    public static var searchKeywords: [String] { SearchBenchmark.queries.map(\.keywords) }

    /// Fills an empty store.
    /// - Parameters:
    ///   - server: The store as the server opens it: runners sign up, scrap and post records
    ///     through it.
    ///   - builder: The store the courses are inserted through with their owners and dates preset
    ///     (on PostgreSQL an administrator's: a server's role has no grant for that); on SQLite
    ///     the same store.
    ///   - courses: How many shared courses, owned in turn by the runners.
    ///   - runners: How many app runners (Kakao sign-ups).
    ///   - scrapsPerRunner: Scraps each runner makes, on courses drawn with a skew toward a few
    ///     popular ones (the `scrap` feed's order then means something).
    ///   - recordsPerRunner: Records (times the app reported) each runner posts.
    ///   - jobs: Threads drafting courses, and tasks writing scraps and records.
    /// - Throws: Database errors.
    public static func fill(
        server: CourseStore, builder: CourseStore, courses: Int, runners: Int, scrapsPerRunner: Int,
        recordsPerRunner: Int, jobs: Int, progress: @Sendable (String) -> Void = { _ in }
    ) async throws -> Filled {
        var names: [String] = []
        for index in 0..<runners {
            let identity = SignInIdentity(
                issuer: "kakao", subject: "bench-\(index)", provider: "KAKAO", email: nil)
            names.append(try await server.signIn(identity).runner.name)
        }
        progress("\(runners) runners signed up")

        var generator = CorpusGenerator(seed: 0x5EED_5E7E)
        let batch = 1_000
        let owners = names
        let batches = stride(from: 0, to: courses, by: batch).map { start in
            (start..<min(start + batch, courses)).map { number -> (Int, CorpusGenerator.Course) in
                var course = generator.next()
                course.owner = owners[number % owners.count]
                course.isUploaded = true
                course.scrapCount = 0
                return (number, course)
            }
        }
        var first: Int64?
        var last: Int64 = 0
        try await DraftPipeline.run(batches, jobs: jobs) { number, course in
            Result { try course.draft(number: number) }
        } store: { _, drafted in
            for result in try await builder.insert(drafted.map { try $0.get() }) {
                let course = try result.get()
                first = first ?? course.id
                last = course.id
            }
            if last % 10_000 == 0 { progress("\(last) courses") }
        }
        let ids = (first ?? 1)...max(first ?? 1, last)

        // Scraps and records, written as the runners themselves, `jobs` runners at a time.
        let scrapsDone = Counter()
        let recordsDone = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<max(1, jobs) {
                group.addTask {
                    var random = SplitMix64(seed: UInt64(lane) &+ 0xC0FFEE)
                    for index in stride(from: lane, to: owners.count, by: max(1, jobs)) {
                        let runner = try server.acting(as: owners[index])
                        var scrapped = Set<Int64>()
                        while scrapped.count < scrapsPerRunner {
                            // A few courses take most scraps: id spread by the fourth power.
                            let offset = Int64(pow(random.unit(), 4) * Double(ids.count))
                            let id = ids.lowerBound + min(offset, Int64(ids.count - 1))
                            guard scrapped.insert(id).inserted else { continue }
                            _ = try await runner.scrap(id: id)
                            scrapsDone.add(1)
                        }
                        for number in 0..<recordsPerRunner {
                            let id = ids.lowerBound + Int64(random.below(ids.count))
                            let course = try await runner.course(id: id)
                            // A pace of 5 to 8 minutes a kilometre over the course's length.
                            let pace = 300 + Double(random.below(180))
                            let seconds = (pace * course.stats.distanceMeters / 1000).rounded()
                            _ = try await runner.reportRun(
                                course: id, title: "기록 \(number + 1)", seconds: seconds, paceSeconds: pace,
                                fromSharedPage: number % 2 == 0)
                            recordsDone.add(1)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        progress("\(scrapsDone.value) scraps, \(recordsDone.value) records")
        return Filled(runners: names, courseIDs: ids, scraps: scrapsDone.value, records: recordsDone.value)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add(_ amount: Int) { lock.withLock { count += amount } }
    var value: Int { lock.withLock { count } }
}
