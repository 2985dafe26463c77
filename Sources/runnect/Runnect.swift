import ArgumentParser
import Foundation
import RunnectKit

@main
struct Runnect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runnect",
        abstract: "GPS running routes: stats, course store, exports.",
        discussion: """
            Exit codes: 0 success · 1 the course store refused (not your course, not shared, \
            a newer database…; nothing changed) · 64 usage error · 65 an input could not be read \
            as a course (the other inputs are still processed) · 66 an input could not be opened \
            (a file, or a store named by --db that is not there) · 73 an output file could not be written.
            """,
        version: "0.1.0",
        subcommands: [
            Stats.self, Import.self, Draw.self, List.self, Show.self, Search.self, Rename.self,
            Delete.self, Upload.self, Unupload.self, Scrap.self, Unscrap.self, Database.self,
            Export.self, Index.self, Records.self, Record.self,
        ] + serverCommands)

    /// Parses and runs the command. Help and the version print as ArgumentParser prints them;
    /// an error is one line on standard error, `runnect: error: …` (a usage error, exit 64,
    /// ends by naming the command's own help), as the README promises.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try await asyncParseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            // Help, --version: printed on standard output by ArgumentParser, exit 0.
            if code == .success { exit(withError: error) }
            let message = self.message(for: error)
            if !message.isEmpty || code == .validationFailure {
                Diagnostics.error(UsageLine.text(message, code: code, arguments: arguments))
            }
            Foundation.exit(code.rawValue)
        }
    }
}

extension Runnect {
    /// `serve`, in a build with the trait Server.
    static var serverCommands: [any ParsableCommand.Type] {
        #if Server
            [Serve.self]
        #else
            []
        #endif
    }
}
