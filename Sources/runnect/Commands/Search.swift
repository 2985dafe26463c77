import ArgumentParser
import RunnectStore

extension Runnect {
    /// `runnect search KEYWORD…`.
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search shared courses by keyword (title, description, departure).",
            discussion: """
                Every word must match, anywhere in a word, case-insensitively: `han` finds \
                "Hangang Night Run", `잠실` finds "잠실 한강공원 10K". Initial consonants work too: \
                `ㅎㄱ` finds 한강, `한ㄱ` as well. What you type is searched for literally. At most 16 \
                keywords of at most 64 characters each.
                """)

        @Argument(help: "Keywords.") var keywords: [String]
        @Flag(help: "Search every course, not only shared ones.") var all = false
        @OptionGroup var paging: PagingOptions
        @OptionGroup var store: StoreOptions

        func validate() throws {
            do {
                try CourseStore.checkKeywords(keywords.joined(separator: " "))
            } catch let error as StoreError {
                throw ValidationError("\(error)")
            }
        }

        func run() throws {
            let courses = try store.withStore {
                try $0.search(
                    keywords: keywords.joined(separator: " "), scope: all ? .all : .shared,
                    sort: paging.sort ?? .relevance, page: paging.page)
            }
            try CourseOutput.print(courses, json: store.json)
        }
    }
}
