import ArgumentParser
import RunnectStore

extension Runnect {
    /// `runnect list`: the user's courses, the ones they scrapped, or everyone's shared ones.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List your courses (--uploaded/--private), --scrapped ones, or every user's --shared ones.",
            discussion: """
                With --near LAT,LON only the courses whose path passes within --within KM (default 5) \
                of the point are listed, closest first, in whichever of these lists is chosen.
                """)

        @Flag(help: "Only your shared courses.") var uploaded = false
        @Flag(name: .customLong("private"), help: "Only your private courses.") var privateOnly = false
        @Flag(help: "The courses you scrapped.") var scrapped = false
        @Flag(help: "Discovery: every user's shared courses.") var shared = false
        @OptionGroup var nearby: NearOptions
        @OptionGroup var paging: PagingOptions
        @OptionGroup var units: UnitsOptions
        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard [uploaded, privateOnly, scrapped, shared].filter({ $0 }).count <= 1 else {
                throw ValidationError("Choose one of --uploaded, --private, --scrapped, --shared.")
            }
            if nearby.near != nil, paging.sort != nil {
                throw ValidationError("--near lists courses closest first; leave out --sort.")
            }
        }

        func run() async throws {
            let scope: CourseListScope =
                scrapped
                ? .scrapped
                : shared
                    ? .shared
                    : .mine(uploaded: uploaded ? true : privateOnly ? false : nil)
            if let point = nearby.point {
                let found = try await store.withStore {
                    try await $0.nearby(point, withinMeters: nearby.withinMeters, scope: scope, page: paging.page)
                }
                try CourseOutput.print(found, json: store.json, unit: units.unit)
                return
            }
            let courses = try await store.withStore {
                try await $0.list(scope, sort: paging.sort ?? .date, page: paging.page)
            }
            try CourseOutput.print(courses, json: store.json, unit: units.unit)
        }
    }
}
