import ArgumentParser
import RunnectStore

extension CourseSort: ExpressibleByArgument {}

/// `--sort`, `--limit`, `--page`, shared by `list` and `search`.
struct PagingOptions: ParsableArguments {
    @Option(help: "date (newest first), scrap (most scrapped), distance, relevance (search's default).")
    var sort: CourseSort?

    @OptionGroup var pages: PageOptions

    var page: Page { pages.page }
}
