import Foundation

/// Where a course starts: an address written `region city town [detail…]`, as Korean addresses
/// are (`서울 송파구 잠실동 올림픽로 25`), and an optional place name (`잠실종합운동장`).
public struct Departure: Codable, Equatable, Hashable, Sendable {
    /// First part of the address: the province or metropolitan city (`서울`).
    public var region: String
    /// Second part: the city or district (`송파구`).
    public var city: String
    /// Third part: the town or neighbourhood (`잠실동`).
    public var town: String
    /// Everything after the town, joined by single spaces (`올림픽로 25`); `nil` when absent.
    public var detail: String?
    /// The place's own name (`잠실종합운동장`); `nil` when absent.
    public var name: String?

    /// Splits an address on white space.
    ///
    /// The text is normalised to NFC first, so that decomposed Hangul (as macOS file names carry
    /// it) compares and searches like the composed form.
    ///
    /// - Parameters:
    ///   - address: `region city town [detail…]`; parts from the fourth on form ``detail``.
    ///   - name: The place name; blank means none.
    /// - Throws: ``StoreError/invalidDeparture(_:)`` when fewer than three parts are given,
    ///   ``StoreError/controlCharacter(field:scalar:position:)`` for a control in either text.
    public init(address: String, name: String? = nil) throws {
        if let name { try CourseStore.refuseControlCharacters(in: name, field: "departure name") }
        let parts = address.composed
            .split(whereSeparator: { $0.isWhitespace })
            .map(String.init)
        // White space (a tab, a line break) only separates parts; any other control is refused.
        try CourseStore.refuseControlCharacters(in: parts.joined(separator: " "), field: "departure address")
        guard parts.count >= 3 else { throw StoreError.invalidDeparture(address) }
        self.init(
            region: parts[0], city: parts[1], town: parts[2],
            detail: parts.count > 3 ? parts[3...].joined(separator: " ") : nil,
            name: name)
    }

    /// A departure from its parts as stored; blank optional parts become `nil`.
    public init(region: String, city: String, town: String, detail: String? = nil, name: String? = nil) {
        self.region = region.composed
        self.city = city.composed
        self.town = town.composed
        self.detail = Self.nonBlank(detail)
        self.name = Self.nonBlank(name)
    }

    /// The address as one line: `region city town [detail]` (without the name).
    public var address: String {
        ([region, city, town] + (detail.map { [$0] } ?? [])).joined(separator: " ")
    }

    /// The parts a keyword search looks in: region, city, town, detail and name, those present.
    package var searchableParts: [String] {
        [region, city, town] + [detail, name].compactMap { $0 }
    }

    private static func nonBlank(_ text: String?) -> String? {
        guard let trimmed = text?.trimmedOfWhitespace, !trimmed.isEmpty else {
            return nil
        }
        return trimmed.composed
    }
}
