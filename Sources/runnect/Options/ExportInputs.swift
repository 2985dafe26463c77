import ArgumentParser
import Foundation
import RunnectKit
import RunnectStore

/// The courses an export command takes: store ids and files, in the order given.
struct ExportInputs: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Course ids in the store, or GPX/TCX/FIT/tapped-points files (- for standard input).",
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
    }

    /// Whether an argument names a course in the store rather than a file.
    static func storeID(_ input: String) -> Int64? {
        guard !FileManager.default.fileExists(atPath: input) else { return nil }
        return Int64(input)
    }

    /// Reads every input and hands each to `body`. An input that cannot be read is reported on
    /// standard error and the others go on; the exit code for the worst failure is returned.
    /// Several inputs show a progress bar on a terminal.
    func readEach(_ body: (Course) throws -> Void) throws -> ExitCode? {
        var failure: ExitCode?
        let progress = ProgressBar(total: inputs.count, enabled: inputs.count > 1 && isatty(STDERR_FILENO) == 1)
        defer { progress.clear() }
        func fail(_ label: String, _ error: Error) {
            progress.clear()
            Diagnostics.error("\(label): \(error)")
            let code: ExitCode = error is StoreError ? .failure : ExitStatus.code(for: error)
            if failure == nil || code == ExitStatus.dataError { failure = code }
        }
        func readAll(_ courses: CourseStore?) throws {
            for (done, input) in inputs.enumerated() {
                progress.update(done: done, detail: input)
                let course: Course
                do {
                    if let id = Self.storeID(input), let courses {
                        let stored = try courses.course(id: id)
                        course = Course(
                            label: input, id: id, activity: try courses.activity(id: id),
                            properties: CourseReport(stored), title: stored.title, stem: String(id))
                    } else {
                        let activity = try ActivityReader.read(path: input)
                        let properties = FileProperties(path: input, activity: activity)
                        course = Course(
                            label: input, id: nil, activity: activity, properties: properties,
                            title: properties.title, stem: properties.stem)
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
        if inputs.contains(where: { Self.storeID($0) != nil }) {
            try store.withStore { try readAll($0) }
        } else {
            try readAll(nil)
        }
        return failure
    }
}
