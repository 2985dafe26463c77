import Foundation
import RunnectTestSupport
import Testing

/// Every `$ runnect …` example of the README and of `Documentation/` run as a reader would run it,
/// its output compared with the page (issue 35). How a block is run and compared: ``DocExample``.
@Suite("the documentation's console examples (end to end)")
struct DocExampleTests {
    static let plain = DocExample.all.filter { !$0.usesPostgres && !$0.usesSharedCorpus && !$0.usesTools }
    static let withTools = DocExample.all.filter { !$0.usesPostgres && !$0.usesSharedCorpus && $0.usesTools }
    static let onTheCorpus = DocExample.all.filter { !$0.usesPostgres && $0.usesSharedCorpus }
    static let onPostgres = DocExample.all.filter { $0.usesPostgres }

    static let toolsMissing =
        "jq, sqlite3, or python3 with fitparse, shapely and geojson, is missing (scripts/setup.sh --test)"
    static var toolsPresent: Bool {
        ExternalTool.path("jq") != nil && ExternalTool.path("sqlite3") != nil
            && ExternalTool.pythonImports("fitparse", "shapely", "geojson")
    }

    @Test("every console block is well formed, and there are examples to run")
    func wellFormed() {
        #expect(DocExample.parsed.problems.isEmpty, "\(DocExample.parsed.problems.joined(separator: "\n"))")
        let commands = DocExample.all.reduce(0) { $0 + $1.commands.count }
        #expect(
            DocExample.all.count >= 15 && commands >= 80, "only \(DocExample.all.count) examples, \(commands) commands")
        #expect(DocExample.all.contains { $0.file == "README.md" && $0.usesPostgres }, "the README's club walkthrough")
    }

    @Test("runnect alone", arguments: plain)
    func runsAlone(_ example: DocExample) throws {
        try check(example)
    }

    @Test("with jq, sqlite3 or the Python checkers", .requires(toolsPresent, toolsMissing), arguments: withTools)
    func runsWithTools(_ example: DocExample) throws {
        try check(example)
    }

    @Test(
        "on the shared corpus", .requires(SharedCorpus.isAvailable, SharedCorpus.missing),
        .requires(toolsPresent, toolsMissing), arguments: onTheCorpus)
    func runsOnTheCorpus(_ example: DocExample) throws {
        try check(example)
    }

    /// Each block gets a throwaway cluster of its own, so that its roles (`minji`, cluster-wide)
    /// and its database names are its alone.
    @Test("on a throwaway PostgreSQL cluster", .postgres, arguments: onPostgres)
    func runsOnPostgres(_ example: DocExample) throws {
        let cluster = try PostgresCluster.startPrivate()
        defer { try? cluster.stop() }
        try check(example, cluster: cluster)
    }

    private func check(_ example: DocExample, cluster: PostgresCluster? = nil) throws {
        let outputs = try DocExampleRun.run(example, cluster: cluster)
        for output in outputs where !DocExampleOutput(output.command.expected).matches(output.lines) {
            let shown = DocExampleOutput.normalized(output.command.expected).joined(separator: "\n")
            let printed = DocExampleOutput.normalized(output.lines).joined(separator: "\n")
            Issue.record(
                Comment(
                    rawValue: "\(example.file):\(output.command.line): $ \(output.command.text)\n"
                        + "--- the page shows:\n\(shown)\n--- it printed:\n\(printed)"))
        }
    }
}
