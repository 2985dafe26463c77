import ArgumentParser
import Foundation

/// Where an export command writes each input: standard output or `-o FILE` for one input;
/// `-o DIR` for several, one `DIR/<id or file name>.<extension>` each (a name already taken in
/// this run gets `-2`, `-3`…). With `-o`, each file written is reported on a line.
struct ExportTargets {
    let output: String?
    let fileExtension: String
    let several: Bool
    private var stems = Set<String>()

    /// Creates the folder for several inputs.
    /// - Throws: Exit 73 when the folder cannot be created.
    init(output: String?, inputCount: Int, fileExtension: String) throws {
        self.output = output
        self.fileExtension = fileExtension
        several = inputCount > 1
        if several, let output {
            do {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                Diagnostics.error("\(output): cannot create the folder: \(error.localizedDescription)")
                throw ExitStatus.cannotCreate
            }
        }
    }

    /// The file for `course`: `-o`, or a file in the `-o` folder; `nil` for standard output.
    mutating func path(for course: ExportInputs.Course) -> String? {
        guard several, let output else { return output }
        // Two files of the same name from different folders must not overwrite each other.
        var stem = course.stem
        var n = 2
        while stems.contains(stem) {
            stem = "\(course.stem)-\(n)"
            n += 1
        }
        stems.insert(stem)
        return URL(fileURLWithPath: output).appendingPathComponent(stem + "." + fileExtension).path
    }

    /// The line saying a file was written (`--json`: one JSON object), nothing for standard output.
    static func report(_ course: ExportInputs.Course, to target: String?, bytes: Int, json: Bool) throws {
        guard let target, target != "-" else { return }
        if json {
            let line = try JSONSerialization.data(
                withJSONObject: ["input": course.label, "output": target, "bytes": bytes],
                options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: line, as: UTF8.self))
        } else {
            print("\(course.label.forTerminal) -> \(target.forTerminal) (\(bytes) bytes)")
        }
    }
}
