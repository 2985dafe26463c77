import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Writes as the app makes them, against a running `runnect serve`: a runner's token pair
/// (`runnect serve token`), courses drawn with a map image (multipart) and records, each answer
/// noted, so that a fault test can tell what the server acknowledged.
struct ServeWriter: Sendable {
    let baseURL: URL
    let access: String
    let refresh: String

    /// A 1×1 PNG: the smallest map image the server takes.
    static let png = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!

    /// Runner `name`'s tokens, from `runnect serve token NAME ARGUMENTS…`.
    init(baseURL: URL, runner name: String, arguments: [String], environment: [String: String]) throws {
        let issued = try RunnectProcess.run(["serve", "token", name] + arguments, environment: environment)
        guard issued.status == 0,
            let pair = try JSONSerialization.jsonObject(with: Data(issued.stdout.utf8)) as? [String: String],
            let access = pair["accessToken"], let refresh = pair["refreshToken"]
        else { throw ServeProcess.Failure(description: "runnect serve token: \(issued.stderr)") }
        self.baseURL = baseURL
        self.access = access
        self.refresh = refresh
    }

    /// One answer: its status, the id it gave (`data.id`, `data.record.id`), and how long it took.
    struct Answer: Sendable {
        var status: Int
        var id: Int64?
        var seconds: Double
        var retryAfter: String?
    }

    /// A session of its own: short timeouts, no cache, no cookies.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 20
        configuration.httpMaximumConnectionsPerHost = 32
        return URLSession(configuration: configuration)
    }()

    func send(_ method: String, _ path: String, body: Data?, contentType: String?) async -> Answer {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!)
        request.httpMethod = method
        request.setValue(access, forHTTPHeaderField: "accessToken")
        request.setValue(refresh, forHTTPHeaderField: "refreshToken")
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        request.httpBody = body
        let start = Date()
        do {
            let (data, response) = try await Self.session.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let envelope = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            let payload = envelope?["data"] as? [String: Any]
            let id =
                (payload?["id"] as? NSNumber)?.int64Value
                ?? ((payload?["record"] as? [String: Any])?["id"] as? NSNumber)?.int64Value
            let retryAfter = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After")
            return Answer(status: status, id: id, seconds: Date().timeIntervalSince(start), retryAfter: retryAfter)
        } catch {
            // The connection failed (the server is gone): no answer.
            return Answer(status: 0, id: nil, seconds: Date().timeIntervalSince(start))
        }
    }

    /// `POST /api/course`: a loop of 8 taps near Seoul, numbered `n`, titled `코스 n`, with the PNG.
    func drawCourse(_ n: Int) async -> Answer {
        let boundary = "fault-test-\(n)"
        let lat = 37.5 + Double(n % 500) * 0.0002
        let taps = (0..<8).map { i -> String in
            let angle = Double(i) * .pi / 4
            return #"{"latitude":\#(lat + 0.003 * cos(angle)),"longitude":\#(127.0 + 0.004 * sin(angle))}"#
        }
        let json =
            #"{"path":[\#(taps.joined(separator: ","))],"title":"코스 \#(n)","departureAddress":"서울 송파구 잠실동 올림픽로 \#(n % 300 + 1)"}"#
        var body = Data()
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"data\"\r\n".utf8))
        body.append(Data("Content-Type: application/json\r\n\r\n\(json)\r\n".utf8))
        body.append(
            Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"m.png\"\r\n".utf8))
        body.append(Data("Content-Type: image/png\r\n\r\n".utf8))
        body.append(Self.png)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return await send("POST", "/api/course", body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }

    /// `POST /api/record`: a run of course `course` titled `기록 n`, 20 to 30 minutes (the taps'
    /// loop is about 3 km).
    func postRecord(course: Int64, _ n: Int) async -> Answer {
        let minutes = 20 + n % 10
        let json = #"{"courseId":\#(course),"title":"기록 \#(n)","time":"00:\#(minutes):00","pace":"0:07:00"}"#
        return await send("POST", "/api/record", body: Data(json.utf8), contentType: "application/json")
    }

    /// `GET /api/public-course?pageNo=1`.
    func feed() async -> Answer {
        await send("GET", "/api/public-course?pageNo=1&sort=date", body: nil, contentType: nil)
    }
}
