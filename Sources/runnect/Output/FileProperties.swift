import Foundation
import RunnectKit

/// The properties of a course exported straight from a file: its name, description and figures.
struct FileProperties: Encodable {
    let title: String
    let description: String?
    let file: String
    let sourceFormat: String
    let stats: ActivityStats
    let stem: String

    init(path: String, activity: Activity) {
        let name = path == "-" ? "stdin" : URL(fileURLWithPath: path).lastPathComponent
        stem = path == "-" ? "stdin" : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        title = activity.displayName ?? stem
        description = activity.metadata.description
        file = name
        sourceFormat = activity.format.rawValue
        stats = activity.stats()
    }

    private enum CodingKeys: String, CodingKey {
        case title, description, file, sourceFormat = "source_format", stats, distanceMeters = "distance_m"
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(title, forKey: .title)
        try c.encode(description, forKey: .description)
        try c.encode(file, forKey: .file)
        try c.encode(sourceFormat, forKey: .sourceFormat)
        try c.encode(JSONResolution.meters(stats.distanceMeters), forKey: .distanceMeters)
        try c.encode(stats, forKey: .stats)
    }
}
