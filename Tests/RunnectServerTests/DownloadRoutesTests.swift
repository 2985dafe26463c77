import Foundation
import RunnectKit
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectServer

/// `GET /api/course/{id}/file` and `GET /api/record/{id}/file` (issue 38), on both stores: the
/// sample 10 km run, posted as a watch file, becomes a course whose downloads validate against
/// the GPX 1.1 and TCX v2 schemas (`xmllint`) and through fitparse, and read back to the course's
/// length; an ETag round trip (304, then a new tag once the course is renamed); a visitor, with
/// the visitor headers or none, gets shared courses only; a record downloads as its own run, and
/// one the app reported without a track is 404.
@Suite(
    "Downloads over HTTP",
    .requires(MapImageSamples.isAvailable, "python3 with pillow (scripts/setup.sh --test)"),
    .requires(XMLSchemaCheck.present && SharedCorpus.schemasAreAvailable, XMLSchemaCheck.missing),
    .requires(FitParse.present, FitParse.missing))
struct DownloadRoutesTests {
    @Test(arguments: ServerStoreKind.available)
    func downloadsValidateReadBackAndRevalidate(kind: ServerStoreKind) async throws {
        let scratch = try TemporaryFolder("runnect-downloads")
        try await kind.withServer(runners: ["seoyeon", "dohyun"]) { base, runners, _ in
            do {
                let (a, b) = (runners[0], runners[1])
                let visitor = AppClient(base: base)
                let run = try await a.postForm(
                    "/api/record/run", parts: [("file", "banpo.gpx", try Data(contentsOf: RunFiles.banpo))])
                run.expect(http: 201)
                let match = try #require(run.data["match"] as? [String: Any])
                #expect(match["isNewCourse"] as? Bool == true, "the first run of an empty store makes its course")
                let id = try #require(match["courseId"] as? Int)
                let recordID = try #require((run.data["record"] as? [String: Any])?["id"] as? Int)
                let meters = try #require(match["courseDistanceMeters"] as? Double)
                #expect(abs(meters - 10_000) < 500, "the sample is a 10 km run: \(meters) m")

                // Each format, as the runner: valid, and the course's length read back.
                var written: [String: String] = [:]
                for format in ["gpx", "tcx", "fit", "geojson", "svg"] {
                    let answer = try await a.request("GET", "/api/course/\(id)/file?format=\(format)")
                    #expect(
                        answer.status == 200, "\(format): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
                    #expect(answer.headers["etag"]?.hasPrefix("\"") == true)
                    #expect(answer.headers["x-content-type-options"] == "nosniff")
                    let disposition = answer.headers["content-disposition"] ?? ""
                    #expect(disposition.hasPrefix("attachment; filename=\""), "\(disposition)")
                    #expect(disposition.contains(".\(format)"), "\(disposition)")
                    let file = scratch.path("course.\(format)")
                    try answer.body.write(to: URL(fileURLWithPath: file))
                    written[format] = file
                    if ["gpx", "tcx", "fit"].contains(format) {
                        let activity = try ActivityReader.read(path: file)
                        let readBack = activity.stats().distanceMeters
                        #expect(abs(readBack - meters) < 0.5, "\(format) reads back \(readBack) m, course \(meters) m")
                    }
                }
                #expect(try XMLSchemaCheck.invalidFiles([written["gpx"]!], schema: .gpx, folder: scratch).isEmpty)
                #expect(try XMLSchemaCheck.invalidFiles([written["tcx"]!], schema: .tcx, folder: scratch).isEmpty)
                let fit = try #require(try FitParse.summaries([written["fit"]!])[written["fit"]!])
                #expect(fit["file_type"] as? String == "course")
                let fitMeters = try #require(
                    fit["session_distance_m"] as? Double ?? (fit["lap_distances_m"] as? [Double])?.last)
                #expect(abs(fitMeters - meters) < 1, "fitparse: \(fitMeters) m, course \(meters) m")
                let geojson =
                    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: written["geojson"]!)))
                    as? [String: Any]
                #expect(geojson?["type"] as? String == "Feature")
                let properties = geojson?["properties"] as? [String: Any] ?? [:]
                #expect(properties["id"] as? Int == id)
                #expect(properties["owner"] == nil, "a server leaves the owner's role name out")
                #expect(
                    String(decoding: try Data(contentsOf: URL(fileURLWithPath: written["svg"]!)), as: UTF8.self)
                        .contains("<svg"))

                // The ETag round trip: 304 with nothing, until the course changes.
                let first = try await a.request("GET", "/api/course/\(id)/file?format=gpx")
                let etag = try #require(first.headers["etag"])
                let same = try await a.request(
                    "GET", "/api/course/\(id)/file?format=gpx", headers: ["If-None-Match": etag])
                #expect(same.status == 304)
                #expect(same.body.isEmpty)
                #expect(same.headers["etag"] == etag)
                let listed = try await a.request(
                    "GET", "/api/course/\(id)/file?format=gpx", headers: ["If-None-Match": "\"other\", W/\(etag)"])
                #expect(listed.status == 304, "a list, and a weak tag, match by weak comparison")
                // HEAD: GET's status and headers (the file's size among them), without the file.
                let head = try await a.request("HEAD", "/api/course/\(id)/file?format=gpx")
                #expect(head.status == 200 && head.body.isEmpty)
                #expect(head.headers["etag"] == etag && head.headers["content-type"] == first.headers["content-type"])
                #expect(head.headers["content-length"] == "\(first.body.count)")
                let headSame = try await a.request(
                    "HEAD", "/api/course/\(id)/file?format=gpx", headers: ["If-None-Match": etag])
                #expect(headSame.status == 304)
                try await a.request("PATCH", "/api/course/\(id)", json: ["title": "Banpo Moonlight 10K"]).expect(
                    http: 200)
                let renamed = try await a.request(
                    "GET", "/api/course/\(id)/file?format=gpx", headers: ["If-None-Match": etag])
                #expect(renamed.status == 200)
                #expect(renamed.headers["etag"] != etag)
                #expect(String(decoding: renamed.body, as: UTF8.self).contains("<name>Banpo Moonlight 10K</name>"))
                #expect(
                    renamed.headers["content-disposition"]?.contains("filename=\"Banpo_Moonlight_10K.gpx\"") == true)

                // Private: visitors (headers or none) and other runners get 404; shared: everyone.
                try await visitor.request("GET", "/api/course/\(id)/file?format=gpx").expect(http: 404)
                #expect(
                    try await visitor.request("GET", "/api/course/\(id)/file?format=gpx", authenticated: false).status
                        == 404)
                try await b.request("GET", "/api/course/\(id)/file?format=gpx").expect(http: 404)
                try await a.request(
                    "POST", "/api/public-course",
                    json: ["courseId": id, "title": "반포 달빛 10K", "description": "한강 야간 코스"]
                ).expect(http: 201)
                let headerless = try await visitor.request(
                    "GET", "/api/course/\(id)/file?format=fit", authenticated: false)
                #expect(headerless.status == 200)
                #expect(headerless.headers["content-type"] == "application/vnd.ant.fit")
                let korean = try await b.request("GET", "/api/course/\(id)/file?format=gpx")
                #expect(korean.status == 200)
                // A scrap changes the GeoJSON's properties, not the GPX: one tag moves, the other stays.
                let geojsonTag = try await b.request("GET", "/api/course/\(id)/file?format=geojson").headers["etag"]
                try await b.request("POST", "/api/scrap", json: ["publicCourseId": id, "scrapTF": true]).expect(
                    http: 200, body: 201)
                let scrappedGPX = try await b.request("GET", "/api/course/\(id)/file?format=gpx")
                #expect(scrappedGPX.headers["etag"] == korean.headers["etag"])
                #expect(scrappedGPX.body == korean.body)
                let scrappedGeoJSON = try await b.request("GET", "/api/course/\(id)/file?format=geojson")
                #expect(scrappedGeoJSON.headers["etag"] != geojsonTag)
                let scrappedFeature = try JSONSerialization.jsonObject(with: scrappedGeoJSON.body) as? [String: Any]
                #expect((scrappedFeature?["properties"] as? [String: Any])?["scrap_count"] as? Int == 1)
                let disposition = korean.headers["content-disposition"] ?? ""
                #expect(disposition.contains("filename=\"course-\(id).gpx\""), "\(disposition)")
                #expect(disposition.contains("filename*=UTF-8''%EB%B0%98%ED%8F%AC"), "\(disposition)")
                for bad in ["format=kml", "format=", ""] {
                    try await a.request("GET", "/api/course/\(id)/file?\(bad)").expect(http: 400)
                }
                try await a.request("GET", "/api/course/999999/file?format=gpx").expect(http: 404)

                // A record's own run, its times kept; the app's reported time has no track.
                let own = try await a.request("GET", "/api/record/\(recordID)/file?format=gpx")
                #expect(own.status == 200)
                let runFile = scratch.path("run.gpx")
                try own.body.write(to: URL(fileURLWithPath: runFile))
                let runActivity = try ActivityReader.read(path: runFile)
                let original = try ActivityReader.read(path: RunFiles.banpo.path)
                #expect(runActivity.isRun)
                #expect(runActivity.stats().elapsedTimeSeconds == original.stats().elapsedTimeSeconds)
                #expect(try XMLSchemaCheck.invalidFiles([runFile], schema: .gpx, folder: scratch).isEmpty)
                try await a.request("GET", "/api/record/\(recordID)/file?format=geojson").expect(http: 400)
                try await b.request("GET", "/api/record/\(recordID)/file?format=gpx").expect(http: 404)
                try await visitor.request("GET", "/api/record/\(recordID)/file?format=gpx").expect(http: 401)
                let reported = try await a.request(
                    "POST", "/api/record",
                    json: ["courseId": id, "title": "앱 기록", "time": "0:58:10", "pace": "0:05:49"])
                reported.expect(http: 201)
                let reportedID = try #require((reported.data["record"] as? [String: Any])?["id"] as? Int)
                let none = try await a.request("GET", "/api/record/\(reportedID)/file?format=gpx")
                none.expect(http: 404)
                #expect((none.json["message"] as? String)?.contains("without a track") == true)
            }
        }
    }
}
