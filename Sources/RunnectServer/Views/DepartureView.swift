import Foundation
import RunnectStore

/// A course's departure as the app's screens decode it (API §4): every part on the runner's
/// own course pages (`detail` and `name` written as `null` when none), region and city in
/// lists, and no `detail` on a shared course's page. A course without a departure (imported
/// from a file) shows empty parts: the app requires the strings.
struct DepartureView: Encodable, Sendable {
    enum Shape: Sendable {
        /// `{region, city, town, detail, name}`, nulls written.
        case full
        /// `{region, city}`.
        case short
        /// `{region, city, town, name?}`.
        case shared
    }

    let departure: Departure?
    let shape: Shape

    enum CodingKeys: String, CodingKey {
        case region, city, town, detail, name
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(departure?.region ?? "", forKey: .region)
        try container.encode(departure?.city ?? "", forKey: .city)
        switch shape {
        case .short:
            break
        case .full:
            try container.encode(departure?.town ?? "", forKey: .town)
            try container.encode(departure?.detail, forKey: .detail)
            try container.encode(departure?.name, forKey: .name)
        case .shared:
            try container.encode(departure?.town ?? "", forKey: .town)
            try container.encodeIfPresent(departure?.name, forKey: .name)
        }
    }
}
