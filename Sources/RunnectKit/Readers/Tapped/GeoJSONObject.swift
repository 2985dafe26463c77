/// What ``TappedPointsReader`` needs of a GeoJSON object, read from a ``JSONScanner``: its
/// `type`, `coordinates` (recorded compactly), `features`, `geometry` and the name and
/// description in its `properties`. Every other member is skipped as it streams by.
///
/// Members may come in any order, so the object is interpreted only once it is read. Where a
/// member name repeats, the first one counts (as with `JSONDecoder`, which Runnect used before).
final class GeoJSONObject {
    /// `type` when it is a string.
    private(set) var type: String?
    /// `coordinates`, whatever it holds; nil when absent.
    private(set) var coordinates: RecordedCoordinates?
    /// The objects in `features`; nil when absent or not an array.
    private(set) var features: [GeoJSONObject]?
    /// `geometry` when it is an object.
    private(set) var geometry: GeoJSONObject?
    /// `properties.title` (or else `properties.name`) and `properties.description` (or else
    /// `properties.desc`): nil when absent, `.some(nil)` when present but not a string.
    private(set) var title: String??, name: String??, description: String??, desc: String??

    /// Reads the members of an object whose `{` the scanner has just returned, up to its `}`.
    init(from scanner: JSONScanner) throws {
        var seenType = false
        var seenGeometry = false
        var seenFeatures = false
        var seenProperties = false
        while try scanner.next() == .name {
            let name = try scanner.readName()
            let value = try scanner.next()
            switch name {
            case let name? where name.equals("type") && !seenType:
                seenType = true
                type = value == .string ? try scanner.readString() : nil
            case let name? where name.equals("coordinates") && coordinates == nil:
                coordinates = try RecordedCoordinates(from: scanner, first: value)
                continue
            case let name? where name.equals("geometry") && !seenGeometry:
                seenGeometry = true
                if value == .beginObject {
                    geometry = try GeoJSONObject(from: scanner)
                    continue
                }
            case let name? where name.equals("features") && !seenFeatures:
                seenFeatures = true
                if value == .beginArray {
                    features = try Self.objects(in: scanner)
                    continue
                }
            case let name? where name.equals("properties") && !seenProperties:
                seenProperties = true
                if value == .beginObject {
                    try readProperties(scanner)
                    continue
                }
            default:
                break
            }
            try scanner.skip(after: value)
        }
    }

    /// The objects of an array whose `[` was just read, other elements skipped.
    private static func objects(in scanner: JSONScanner) throws -> [GeoJSONObject] {
        var objects: [GeoJSONObject] = []
        while true {
            let token = try scanner.next()
            if token == .endArray { return objects }
            if token == .beginObject {
                objects.append(try GeoJSONObject(from: scanner))
            } else {
                try scanner.skip(after: token)
            }
        }
    }

    private func readProperties(_ scanner: JSONScanner) throws {
        while try scanner.next() == .name {
            let key = try scanner.readName()
            let value = try scanner.next()
            func read(_ property: inout String??) throws {
                guard property == nil else { return try scanner.skip(after: value) }
                if value == .string {
                    property = .some(try scanner.readString())
                } else {
                    property = .some(nil)
                    try scanner.skip(after: value)
                }
            }
            switch key {
            case let key? where key.equals("title"): try read(&title)
            case let key? where key.equals("name"): try read(&name)
            case let key? where key.equals("description"): try read(&description)
            case let key? where key.equals("desc"): try read(&desc)
            default: try scanner.skip(after: value)
            }
        }
    }
}
