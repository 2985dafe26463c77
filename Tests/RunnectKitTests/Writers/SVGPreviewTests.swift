import Foundation
import Testing
@testable import RunnectKit

@Suite("SVG preview")
struct SVGPreviewTests {
    @Test("a sample track gives a small self-contained SVG with an escaped title")
    func sample() throws {
        let activity = try ActivityReader.read(path: SampleTracks.path("banpo_hangang_night_run.gpx"))
        let preview = try SVGPreview(activity: activity, options: SVGPreviewOptions(includeProfile: true, title: "A & <B>"))
        #expect(preview.svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(preview.svg.contains("<title>A &amp; &lt;B&gt;</title>"))
        #expect(!preview.svg.contains("<script"))
        #expect(preview.svg.utf8.count < 16_000)
    }
}
