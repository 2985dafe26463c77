import ArgumentParser
import RunnectKit

@main
struct Runnect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runnect",
        abstract: "GPS running routes: stats, course store, exports.",
        subcommands: [])
}
