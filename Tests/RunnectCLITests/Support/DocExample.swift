import Foundation
import RunnectTestSupport
import Testing

/// A console example of the README or of `Documentation/`, as a new user would type it: a
/// ```` ```console ```` block whose lines starting with `$ ` are commands (a line ending in `\`
/// goes on to the next) and whose lines after each command, up to the next `$ `, are what it
/// prints, standard output and standard error together.
///
/// How a block is run (``DocExampleRun``): all its commands in one `bash`, one after the other,
/// in a scratch folder of its own (`SampleTracks` and `scripts` linked into it, and `../shared`
/// beside it, the shared corpus), with `runnect` of this build first on the `PATH`,
/// `RUNNECT_DB` a store in that folder (not yet made), `RUNNECT_USER=minji`, `TZ=UTC`, standard
/// input empty. Blocks that use the PostgreSQL server (they name `RUNNECT_PG_`) get a throwaway
/// cluster of their own and its settings as `scripts/pg-cluster.sh run bash` exports them.
///
/// What the Markdown may add, in an HTML comment right before the block (hidden on the page):
/// `<!-- example-setup: SHELL -->`, commands run first (one or more lines; a failing one fails the
/// example), to make a store or set a variable the page described in words.
///
/// How output is compared (``DocExampleOutput``): trailing spaces and blank lines at the end are
/// ignored; a line that is just `…` stands for any number of lines (none too); `…` within a line
/// stands for any text: ids, temporary paths, ports, byte counts and times that depend on the clock
/// are written that way. A command with no line after it must print nothing.
struct DocExample: Sendable, CustomTestStringConvertible {
    struct Command: Sendable {
        var text: String
        var line: Int
        var expected: [String]
    }

    /// The Markdown file, relative to the package root, and the line of the block's opening fence.
    var file: String
    var line: Int
    var setup: String
    var commands: [Command]

    var testDescription: String { "\(file):\(line)" }

    /// The shared corpus (`../shared`), a PostgreSQL cluster, tools the tests install (jq,
    /// Python's checkers, sqlite3 for the backup script).
    var usesSharedCorpus: Bool { mentions("../shared") }
    var usesPostgres: Bool { mentions("RUNNECT_PG_") }
    var usesTools: Bool { mentions("jq ") || mentions("python3 ") || mentions("scripts/backup.sh ") }

    private func mentions(_ text: String) -> Bool {
        setup.contains(text) || commands.contains { $0.text.contains(text) }
    }

    /// The files whose examples are run.
    static let files: [String] = {
        let documentation = PackageFolder.url("Documentation")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: documentation.path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/\($0)" }
    }()

    /// Every example of every file, and what could not be read as one (an unclosed fence, a
    /// console block whose first line is not a command, a setup comment before no console block).
    static let parsed: (examples: [DocExample], problems: [String]) = {
        var examples: [DocExample] = []
        var problems: [String] = []
        for file in files {
            guard let text = try? String(contentsOf: PackageFolder.url(file), encoding: .utf8) else {
                problems.append("\(file): cannot be read")
                continue
            }
            let found = parse(text, file: file)
            examples += found.examples
            problems += found.problems
        }
        return (examples, problems)
    }()

    static var all: [DocExample] { parsed.examples }

    static func parse(_ text: String, file: String) -> (examples: [DocExample], problems: [String]) {
        let lines = text.components(separatedBy: "\n")
        var examples: [DocExample] = []
        var problems: [String] = []
        var setup: [String] = []
        var setupLine: Int?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<!-- example-setup:") {
                var body: [String] = []
                var current = String(trimmed.dropFirst("<!-- example-setup:".count))
                setupLine = setupLine ?? index + 1
                while !current.contains("-->") && index + 1 < lines.count {
                    body.append(current)
                    index += 1
                    current = lines[index]
                }
                if let end = current.range(of: "-->") { current = String(current[..<end.lowerBound]) }
                body.append(current)
                setup += body.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                index += 1
                continue
            }
            guard trimmed.hasPrefix("```") else {
                if !trimmed.isEmpty, let at = setupLine {
                    problems.append("\(file):\(at): an example-setup comment not right before a console block")
                    setup = []
                    setupLine = nil
                }
                index += 1
                continue
            }
            let info = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
            let opening = index + 1
            var body: [(Int, String)] = []
            index += 1
            // As CommonMark: a closing fence is backticks alone; "``` text" does not close the block.
            // A fence indented in a list item: its lines are indented as much.
            let indent = line.prefix { $0 == " " }.count
            while index < lines.count && !isClosingFence(lines[index]) {
                let text = lines[index]
                let spaces = min(indent, text.prefix { $0 == " " }.count)
                body.append((index + 1, String(text.dropFirst(spaces))))
                index += 1
            }
            if index == lines.count {
                problems.append("\(file):\(opening): a code fence that is never closed")
                break
            }
            index += 1
            let blockSetup = setup.joined(separator: "\n")
            if let at = setupLine, info != "console" {
                problems.append("\(file):\(at): an example-setup comment before a \(info) block")
            }
            setup = []
            setupLine = nil
            guard info == "console", body.contains(where: { $0.1.hasPrefix("$ ") }) else { continue }
            switch commands(of: body) {
            case .success(let commands):
                examples.append(DocExample(file: file, line: opening, setup: blockSetup, commands: commands))
            case .failure(let problem):
                problems.append("\(file):\(problem.description)")
            }
        }
        return (examples, problems)
    }

    private static func isClosingFence(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.count >= 3 && trimmed.allSatisfy { $0 == "`" }
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    private static func commands(of body: [(Int, String)]) -> Result<[Command], Problem> {
        var commands: [Command] = []
        var index = 0
        while index < body.count {
            let (number, line) = body[index]
            guard line.hasPrefix("$ ") else {
                if commands.isEmpty {
                    return .failure(Problem(description: "\(number): a console block's first line is not a command"))
                }
                commands[commands.count - 1].expected.append(line)
                index += 1
                continue
            }
            var text = String(line.dropFirst(2))
            while text.hasSuffix("\\") && index + 1 < body.count {
                index += 1
                text += "\n" + body[index].1
            }
            commands.append(Command(text: text, line: number, expected: []))
            index += 1
        }
        return .success(commands)
    }
}
