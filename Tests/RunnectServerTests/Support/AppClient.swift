import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's side of the wire: requests as its routers make them (the `accessToken` and
/// `refreshToken` headers, JSON or multipart bodies), answers decoded as its `BaseResponse<T>`.
struct AppClient: Sendable {
    struct Answer: Sendable {
        var status: Int
        var body: Data
        var headers: [String: String]

        /// The envelope, decoded with the app's rules: `status`, `success`, `message` required.
        func envelope<T: Decodable>(_ type: T.Type) throws -> BaseResponse<T> {
            try JSONDecoder().decode(BaseResponse<T>.self, from: body)
        }

        /// The body as a JSON object, for checks of what the app's types do not say (nulls).
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }
    }

    /// The app's `BaseResponse<T>`.
    struct BaseResponse<T: Decodable>: Decodable {
        var status: Int
        var success: Bool
        var message: String
        var data: T?
    }

    /// The app's `BlankData`: any object, or null.
    struct BlankData: Decodable {}

    let base: URL
    var accessToken: String = "visitor"
    var refreshToken: String = "visitor"

    func request(
        _ method: String, _ path: String, json: Any? = nil, body: Data? = nil, contentType: String? = nil,
        headers: [String: String] = [:], authenticated: Bool = true
    ) async throws -> Answer {
        var request = URLRequest(url: URL(string: base.absoluteString + path)!)
        request.httpMethod = method
        if authenticated {
            request.setValue(accessToken, forHTTPHeaderField: "accessToken")
            request.setValue(refreshToken, forHTTPHeaderField: "refreshToken")
        }
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let body {
            request.httpBody = body
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)".lowercased()] = "\(value)" }
        return Answer(status: http.statusCode, body: data, headers: fields)
    }

    /// `POST /api/course` as the app's Moya multipart: the `image` file and the `data` JSON part.
    func drawCourse(data: [String: Any], image: Data, imageName: String = "image.jpeg") async throws -> Answer {
        let boundary = "moya.boundary.\(UUID().uuidString)"
        var body = Data()
        func add(_ text: String) { body.append(Data(text.utf8)) }
        add("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"\(imageName)\"\r\n")
        add("Content-Type: image/jpeg\r\n\r\n")
        body.append(image)
        add(
            "\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"data\"\r\nContent-Type: application/json\r\n\r\n"
        )
        body.append(try JSONSerialization.data(withJSONObject: data))
        add("\r\n--\(boundary)--\r\n")
        return try await request(
            "POST", "/api/course", body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }

    /// A `multipart/form-data` POST of `parts`: (name, file name or `nil`, bytes).
    func postForm(_ path: String, parts: [(name: String, fileName: String?, bytes: Data)]) async throws -> Answer {
        let boundary = "runnect.test.\(UUID().uuidString)"
        var body = Data()
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let fileName = part.fileName { head += "; filename=\"\(fileName)\"" }
            head += "\r\n" + (part.fileName == nil ? "" : "Content-Type: application/octet-stream\r\n") + "\r\n"
            body.append(Data(head.utf8))
            body.append(part.bytes)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return try await request("POST", path, body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }

    func signedIn(access: String, refresh: String) -> AppClient {
        var copy = self
        copy.accessToken = access
        copy.refreshToken = refresh
        return copy
    }
}

extension AppClient.Answer {
    /// Expects the HTTP status and the body's, and an envelope the app decodes.
    func expect(http: Int, body bodyStatus: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == http, "\(String(decoding: body, as: UTF8.self))", sourceLocation: sourceLocation)
        let envelope = try? envelope(AppClient.BlankData.self)
        #expect(
            envelope != nil, "not the app's envelope: \(String(decoding: body, as: UTF8.self))",
            sourceLocation: sourceLocation)
        #expect(envelope?.status == (bodyStatus ?? http), sourceLocation: sourceLocation)
        #expect(envelope?.success == ((200..<300).contains(http)), sourceLocation: sourceLocation)
    }
}
