import Foundation

/// The Runnect app's envelope around every answer (API §1): `{status, success, message, data}`.
/// `status` is the body's status, which differs from the HTTP status in places on purpose (a
/// sign-up answers HTTP 200 with `status` 201, as the app's server does); `data` is written out
/// as `null` when there is none, as the app's server's Jackson does.
struct APIEnvelope<Payload: Encodable & Sendable>: Encodable, Sendable {
    var status: Int
    var success: Bool
    var message: String
    var data: Payload?

    enum CodingKeys: String, CodingKey {
        case status, success, message, data
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(success, forKey: .success)
        try container.encode(message, forKey: .message)
        if let data { try container.encode(data, forKey: .data) } else { try container.encodeNil(forKey: .data) }
    }
}

/// No data: `"data": null`.
struct NoData: Encodable, Sendable {}
