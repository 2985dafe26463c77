import ArgumentParser
import RunnectStore

extension Runnect {
    /// `runnect search [KEYWORD…] [--near LAT,LON [--within KM]]`.
    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search shared courses by keyword (title, description, departure).",
            discussion: """
                Every word must match, anywhere in a word, case-insensitively: `han` finds \
                "Hangang Night Run", `잠실` finds "잠실 한강공원 10K". Initial consonants work too: \
                `ㅎㄱ` finds 한강, `한ㄱ` as well. What you type is searched for literally. At most 16 \
                keywords of at most 64 characters each. With --near LAT,LON only courses whose path \
                passes within --within KM (default 5) of the point are kept, in the same order; \
                without keywords they are listed closest first.
                """)

        @Argument(help: "Keywords (optional with --near).") var keywords: [String] = []
        @Flag(help: "Search every course, not only shared ones.") var all = false
        @OptionGroup var nearby: NearOptions
        @OptionGroup var paging: PagingOptions
        @OptionGroup var units: UnitsOptions
        @OptionGroup var store: StoreOptions

        func validate() throws {
            let blank = keywords.allSatisfy { $0.allSatisfy(\.isWhitespace) }
            if nearby.near == nil, blank {
                throw ValidationError("Give keywords to search for, or --near LAT,LON for the courses near a point.")
            }
            if nearby.near != nil, blank, paging.sort != nil {
                throw ValidationError(
                    "--sort orders keyword matches; without keywords --near lists courses closest first.")
            }
            do {
                try CourseStore.checkKeywords(keywords.joined(separator: " "))
            } catch let error as StoreError {
                throw ValidationError("\(error)")
            }
        }

        func run() async throws {
            if let point = nearby.point {
                let found = try await store.withStore {
                    try await $0.search(
                        keywords: keywords.joined(separator: " "), near: point, withinMeters: nearby.withinMeters,
                        scope: all ? .all : .shared, sort: paging.sort ?? .relevance, page: paging.page)
                }
                try CourseOutput.print(found, json: store.json, unit: units.unit)
                return
            }
            let courses = try await store.withStore {
                try await $0.search(
                    keywords: keywords.joined(separator: " "), scope: all ? .all : .shared,
                    sort: paging.sort ?? .relevance, page: paging.page)
            }
            try CourseOutput.print(courses, json: store.json, unit: units.unit)
        }
    }
}
