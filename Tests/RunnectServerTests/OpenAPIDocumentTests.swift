import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectServer

/// The server's OpenAPI document (`Sources/RunnectServer/Resources/openapi.json`, served at
/// `GET /api/openapi.json`): valid OpenAPI 3.1 to an independent validator, every operation named
/// and answering success, and the copy built into the server the same as the file.
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/RunnectServer/Resources/openapi.json").standardizedFileURL

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    @Test(
        .requires(
            ExternalTool.pythonImports("openapi_spec_validator"),
            "python3 with openapi-spec-validator (scripts/setup.sh --test installs it)"))
    func theValidatorFindsNoError() throws {
        // On a failure, `python3 -m openapi_spec_validator <file>` prints why.
        let output = try ExternalTool.output(of: "python3", ["-m", "openapi_spec_validator", Self.file.path])
        #expect(String(decoding: output, as: UTF8.self).contains("OK"))
    }

    @Test func isOpenAPI310WithEveryOperationNamedAndAnswered() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: Any])
        #expect(!paths.isEmpty)
        var operationIds: [String] = []
        for (path, item) in paths {
            let item = try #require(item as? [String: Any], "\(path) is no path item")
            let operations = Self.methods.compactMap { method in
                (item[method] as? [String: Any]).map { (method, $0) }
            }
            #expect(!operations.isEmpty, "\(path) has no operation")
            for (method, operation) in operations {
                let operationId = operation["operationId"] as? String ?? ""
                #expect(!operationId.isEmpty, "\(method) \(path) has no operationId")
                operationIds.append(operationId)
                let responses = operation["responses"] as? [String: Any] ?? [:]
                #expect(
                    responses["200"] != nil || responses["201"] != nil,
                    "\(method) \(path) answers neither 200 nor 201")
            }
        }
        #expect(Set(operationIds).count == operationIds.count, "an operationId is used twice")
    }

    @Test func theServerServesThisFile() throws {
        #expect(PackageResources.openapi_json == [UInt8](try Data(contentsOf: Self.file)))
    }
}
