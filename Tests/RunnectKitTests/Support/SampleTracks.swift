import Foundation
import RunnectTestSupport

/// The project's own sample courses (`SampleTracks/`), always present.
enum SampleTracks {
    static let folder = SharedCorpus.packageRoot.appendingPathComponent("SampleTracks")

    static func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }
}
