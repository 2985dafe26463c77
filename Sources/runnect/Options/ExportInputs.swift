import ArgumentParser
import Foundation
import RunnectKit
import RunnectStore

/// The courses an export command takes: store ids and files, in the order given.
struct ExportInputs: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Course ids, record:ID for a record's run, or GPX/TCX/FIT/tapped-points files (- for standard input).",
            valueName: "id-or-file"))
    var inputs: [String]

    @OptionGroup var store: StoreOptions

    /// One course read for export.
    struct Course {
        /// How the input was named on the command line.
        var label: String
        /// The store id, for an id.
        var id: Int64?
        var activity: Activity
        /// The feature properties: the store's course as `show --json` prints it, or what a file says.
        var properties: any Encodable
        var title: String
        /// A file name stem for the output (`42`, `banpo_hangang_night_run`).
        var stem: String
        /// What a course file written for it holds unless told otherwise: a store course is a
        /// course, a record a run, and a file a run when it is one (`Activity/isRun`).
        var kind: ExportKind
        /// The description written into a course file.
        var description: String?
        /// When a store course was made: its course file's times start there.
        var createdAt: Date?
    }

    /// What one argument names.
    enum Input: Equatable {
        case course(Int64)
        case record(Int64)
        case file(String)

        /// A name that is an existing file is a file; otherwise digits are a course id and
        /// `record:` and digits a record id.
        init(_ argument: String) {
            if FileManager.default.fileExists(atPath: argument) {
                self = .file(argument)
            } else if let id = Int64(argument) {
                self = .course(id)
            } else if argument.hasPrefix(Self.recordPrefix), let id = Int64(argument.dropFirst(Self.recordPrefix.count))
            {
                self = .record(id)
            } else {
                self = .file(argument)
            }
        }

        static let recordPrefix = "record:"

        var needsStore: Bool {
            if case .file = self { return false }
            return true
        }
    }

    /// Reads every input and hands each to `body`. An input that cannot be read is reported on
    /// standard error and the others go on; the exit code for the worst failure is returned.
    /// Several inputs show a progress bar on a terminal.
    func readEach(_ body: (Course) throws -> Void) async throws -> ExitCode? {
        var failure: ExitCode?
        let progress = ProgressBar(total: inputs.count, enabled: inputs.count > 1 && isatty(STDERR_FILENO) == 1)
        defer { progress.clear() }
        func fail(_ label: String, _ error: Error) {
            progress.clear()
            Diagnostics.error("\(label): \(error)")
            let code: ExitCode = error is StoreError ? .failure : ExitStatus.code(for: error)
            if failure == nil || code == ExitStatus.dataError { failure = code }
        }
        func readAll(_ courses: CourseStore?) async throws {
            for (done, input) in inputs.enumerated() {
                progress.update(done: done, detail: input)
                let course: Course
                do {
                    switch (Input(input), courses) {
                    case (.course(let id), let courses?):
                        let stored = try await courses.course(id: id)
                        course = Course(
                            label: input, id: id, activity: try await courses.activity(id: id),
                            properties: CourseReport(stored), title: stored.title, stem: String(id), kind: .course,
                            description: stored.description, createdAt: stored.createdAt)
                    case (.record(let id), let courses?):
                        let record = try await courses.record(id: id)
                        course = Course(
                            label: input, id: nil, activity: try await courses.recordActivity(id: id),
                            properties: RecordReport(record), title: record.title, stem: "record-\(id)", kind: .run)
                    default:
                        let activity = try ActivityReader.read(path: input)
                        let properties = FileProperties(path: input, activity: activity)
                        course = Course(
                            label: input, id: nil, activity: activity, properties: properties,
                            title: properties.title, stem: properties.stem, kind: Self.kind(of: activity),
                            description: activity.metadata.description)
                    }
                } catch {
                    fail(input, error)
                    continue
                }
                progress.clear()
                for warning in course.activity.warnings { Diagnostics.warning("\(input): \(warning)") }
                try body(course)
            }
        }
        if inputs.contains(where: { Input($0).needsStore }) {
            try await store.withStore { try await readAll($0) }
        } else {
            try await readAll(nil)
        }
        return failure
    }

    /// A file is a run when RunnectKit says so (`Activity/isRun`: track points, every one timed,
    /// the times advancing), as `runnect import` decides what to keep as a record; a planned
    /// route, tapped points or a partly timed track is a course.
    static func kind(of activity: Activity) -> ExportKind {
        activity.isRun ? .run : .course
    }
}
