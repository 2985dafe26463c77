import ArgumentParser
import RunnectStore

/// `--limit` and `--page`, for every command that lists in pages.
struct PageOptions: ParsableArguments {
    @Option(help: "Items per page.")
    var limit: Int = 10

    @Option(name: .customLong("page"), help: "Page number, from 1.")
    var pageNumber: Int = 1

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be 1 or more.") }
        guard pageNumber > 0 else { throw ValidationError("--page must be 1 or more.") }
    }

    var page: Page { Page(limit: limit, number: pageNumber) }
}
