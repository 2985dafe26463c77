import Foundation
import Testing

/// Help and usage errors agree with the README (issue 34, item 16): usage errors are one line
/// `runnect: error: …` and exit 64, naming the command's own help; each option states its
/// default once.
@Suite("runnect: usage errors and help (end to end)")
struct UsageCommandTests {
    @Test(
        "usage errors are one line, runnect: error:, exit 64, pointing at the command's own help",
        arguments: [
            (["import"], "runnect import"), (["list", "--bogus"], "runnect list"),
            (["stats", "--jobs", "0"], "runnect stats"), (["nonsense"], "runnect"),
            (["record", "show"], "runnect record show"), (["db", "add-user"], "runnect db add-user"),
        ])
    func oneLine(arguments: [String], command: String) throws {
        let result = try RunnectProcess.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
        let line = try #require(result.stderrLines.first)
        #expect(line.hasPrefix("runnect: error: "), "\(arguments): \(line)")
        #expect(line.hasSuffix("(see `\(command) --help`)"), "\(arguments): \(line)")
        #expect(result.stdout.isEmpty)
    }

    @Test("db add-user with no terminal and no --password-stdin names add-user's help, not the root usage")
    func addUserNoTerminal() throws {
        let result = try RunnectProcess.run(["db", "add-user", "kim", "--db", "postgresql://a@127.0.0.1:1/c"])
        #expect(result.status == 64)
        #expect(
            result.stderrLines == [
                "runnect: error: No terminal to ask a password on: pass --password-stdin (and the password as one line) "
                    + "or --no-password (see `runnect db add-user --help`)"
            ], "\(result.stderr)")
    }

    @Test("--help still prints the help on standard output with exit 0")
    func help() throws {
        let result = try RunnectProcess.run(["import", "--help"])
        #expect(result.status == 0 && result.stdout.contains("USAGE: runnect import") && result.stderr.isEmpty)
        let root = try RunnectProcess.run(["--help"])
        let importLine = try #require(root.stdoutLines.first { $0.hasPrefix("  import ") })
        #expect(importLine.contains("FIT"), "the one-line help names every format: \(importLine)")
        #expect(try RunnectProcess.run(["--version"]).stdout == "0.1.0\n")
    }

    /// Every command's help, as `runnect <command> --help` prints it.
    static let commands: [[String]] = [
        ["stats"], ["import"], ["draw"], ["list"], ["show"], ["search"], ["rename"], ["delete"], ["upload"],
        ["unupload"], ["scrap"], ["unscrap"], ["db"], ["db", "summary"], ["db", "init"], ["db", "add-user"],
        ["db", "copy"], ["db", "optimize"], ["db", "check"], ["export", "geojson"], ["export", "svg"],
        ["export", "gpx"],
        ["export", "tcx"], ["export", "fit"], ["index"], ["records"], ["record", "show"], ["record", "rename"],
        ["record", "delete"],
    ]

    @Test("no option states two defaults (stats: '(default: 30 min/mile). (default: 0.894)')")
    func oneDefaultEach() throws {
        for command in Self.commands {
            let result = try RunnectProcess.run(command + ["--help"])
            #expect(result.status == 0, "\(command)")
            // An option's help: its line and the indented lines after it, up to the next option.
            var blocks: [String] = []
            for line in result.stdoutLines {
                if line.hasPrefix("  -") || line.hasPrefix("  <") || blocks.isEmpty {
                    blocks.append(line)
                } else {
                    blocks[blocks.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
                }
            }
            for block in blocks where block.hasPrefix("  ") {
                let count = block.components(separatedBy: "default").count - 1
                #expect(count <= 1, "\(command): \(block)")
            }
        }
    }
}
