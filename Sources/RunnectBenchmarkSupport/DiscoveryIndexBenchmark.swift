import Foundation
import RunnectSite
import RunnectStore

#if canImport(Glibc)
    import Glibc
#endif

/// Discovery-index benchmark: builds a store of generated courses (the search benchmark's
/// corpus: Korean and English titles, Seoul departures, 120-point paths) and times
/// ``DiscoveryIndexExporter`` over it, first into an empty folder, then again over its own output
/// (every file unchanged).
///
/// The export runs on the calling thread only: the figure is one core's.
public enum DiscoveryIndexBenchmark {
    /// Measured figures of one run.
    public struct Report: Sendable {
        /// Courses in the store.
        public var storeCourses: Int
        /// Courses exported (all of them with scope `.all`, the shared ones otherwise).
        public var exportedCourses: Int
        /// Points per generated path.
        public var pointsPerCourse: Int
        /// Wall time of the export into an empty folder, seconds.
        public var firstSeconds: Double
        /// CPU time (user + system) the exporting thread used for the first export, seconds: what
        /// one core spent, whatever else the machine was running (`nil` where the system cannot
        /// say per thread).
        public var firstCPUSeconds: Double?
        /// Of ``firstCPUSeconds``, the time spent in the kernel (creating and writing files).
        public var firstSystemSeconds: Double?
        /// Wall time of the same export again, every file unchanged, seconds.
        public var rerunSeconds: Double
        /// Files and bytes of the exported folder.
        public var files: Int
        public var bytes: Int64

        /// One line for people.
        public var text: String {
            String(
                format: "index bench: %d of %d courses (%d points each) exported in %.2f s (%.0f courses/s; "
                    + "CPU %.2f s of which system %.2f s), re-run %.2f s; %d files, %.1f MB",
                exportedCourses, storeCourses, pointsPerCourse, firstSeconds,
                Double(exportedCourses) / max(firstSeconds, 1e-9), firstCPUSeconds ?? -1, firstSystemSeconds ?? -1,
                rerunSeconds, files, Double(bytes) / 1e6)
        }
    }

    /// Builds a store of `courseCount` courses in `folder` (removed first) and exports its index.
    /// - Parameters:
    ///   - courseCount: Courses in the store; about 60 % of them are shared.
    ///   - folder: Scratch folder for the database and the site.
    ///   - scope: `.all` exports every course, `.shared` the shared ones.
    /// - Throws: Database and export errors.
    public static func run(courseCount: Int, folder: URL, scope: SearchScope = .all, seed: UInt64 = 2024) async throws
        -> Report
    {
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try await CourseStore(path: folder.appendingPathComponent("courses.sqlite").path, user: "bench")
        try await CorpusGenerator.fill(
            store, count: courseCount, batch: 5_000, jobs: BulkImporter.defaultJobs, seed: seed)

        let site = folder.appendingPathComponent("site")
        let exporter = DiscoveryIndexExporter(store: store, scope: scope)
        let clock = ContinuousClock()
        var start = clock.now
        let cpuBefore = threadCPUSeconds()
        let first = try await exporter.export(to: site.path)
        let firstSeconds = SearchBenchmark.seconds(clock.now - start)
        let cpuAfter = threadCPUSeconds()
        start = clock.now
        let again = try await exporter.export(to: site.path)
        let rerunSeconds = SearchBenchmark.seconds(clock.now - start)
        guard again.filesWritten == 0 else {
            throw IndexExportError.cannotRender(id: 0, reason: "a re-run rewrote \(again.filesWritten) files")
        }
        var files = 0
        var bytes: Int64 = 0
        let enumerator = FileManager.default.enumerator(
            at: site, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            let values = try url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            if values.isRegularFile == true {
                files += 1
                bytes += Int64(values.fileSize ?? 0)
            }
        }
        return Report(
            storeCourses: courseCount, exportedCourses: first.courses,
            pointsPerCourse: CorpusGenerator.Course.pathPoints, firstSeconds: firstSeconds,
            firstCPUSeconds: cpuAfter.map { after in cpuBefore.map { after.user + after.system - $0.user - $0.system } }
                ?? nil,
            firstSystemSeconds: cpuAfter.map { after in cpuBefore.map { after.system - $0.system } } ?? nil,
            rerunSeconds: rerunSeconds, files: files, bytes: bytes)
    }
}

/// User and system CPU time of the calling thread, seconds.
private func threadCPUSeconds() -> (user: Double, system: Double)? {
    #if os(Linux)
        var usage = rusage()
        let thread: Int32 = 1  // RUSAGE_THREAD (Linux), not imported without _GNU_SOURCE
        guard getrusage(thread, &usage) == 0 else { return nil }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (seconds(usage.ru_utime), seconds(usage.ru_stime))
    #else
        return nil
    #endif
}
