import Foundation
import RunnectTestSupport
import Testing

@Suite(.postgres) struct PostgresClusterScriptTests {
    /// `scripts/pg-cluster.sh start --watch PID`: once PID has ended, the watchdog stops the server
    /// and removes the cluster's folder, even when the checkout the script ran from is gone by
    /// then (a check's clone, removed before its tests' process ended, left a cluster's folder and
    /// a running server behind when the watchdog ran the checkout's script).
    @Test func theWatchdogCleansUpAfterItsCheckoutIsGone() throws {
        let checkout = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-checkout-\(UUID())")
        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
        let script = checkout.appendingPathComponent("pg-cluster.sh")
        try FileManager.default.copyItem(
            at: PackageFolder.root.appendingPathComponent("scripts/pg-cluster.sh"), to: script)
        let watched = Process()
        watched.executableURL = URL(fileURLWithPath: "/bin/sleep")
        watched.arguments = ["2"]
        let ended = DispatchSemaphore(value: 0)
        watched.terminationHandler = { _ in ended.signal() }
        try watched.run()
        let started = try PostgresCluster.run(script.path, ["start", "--watch", String(watched.processIdentifier)])
        try FileManager.default.removeItem(at: checkout)
        #expect(started.status == 0, "\(started.stderr)")
        let prefix = "RUNNECT_PG_DIR="
        let folder = try #require(
            started.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }.map {
                String($0.dropFirst(prefix.count))
            })
        #expect(FileManager.default.fileExists(atPath: folder))
        ended.wait()
        // The watchdog looks every second; the server's fast stop takes a moment.
        var gone = false
        for _ in 0..<60 where !gone {
            Thread.sleep(forTimeInterval: 0.5)
            gone = !FileManager.default.fileExists(atPath: folder)
        }
        #expect(gone, "\(folder) is still there")
    }
}
