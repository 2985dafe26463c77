import Foundation

@testable import RunnectKit

/// Checks a GeoJSON text against the rules of RFC 7946 that Runnect's writer promises, and
/// returns every breach found (empty when the document is valid).
///
/// Read with ``JSONValue`` (numbers bit for bit). Checked: the document and every feature are
/// well-formed objects of the right `type`; positions are `[lon, lat]` or `[lon, lat, ele]` with
/// lon in −180…180 and lat in −90…90, of one dimension per geometry; a LineString has two or more
/// positions and never steps across ±180° (section 3.1.9); a bbox has 2 × dimension numbers,
/// south ≤ north, holds every position (wrapping when west > east, section 5.2) and is tight
/// (each edge touched by a position); a collection's bbox holds every feature's bbox.
enum GeoJSONRules {
    static func problems(in data: Data) -> [String] {
        guard let document = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            return ["not JSON (unclosed or malformed)"]
        }
        var problems: [String] = []
        switch document["type"]?.string {
        case "Feature":
            checkFeature(document, path: "$", problems: &problems)
        case "FeatureCollection":
            guard let features = document["features"]?.array else { return ["$: features is not an array"] }
            var boxes: [[Double]] = []
            for (index, feature) in features.enumerated() {
                checkFeature(feature, path: "$.features[\(index)]", problems: &problems)
                if let box = feature["bbox"]?.array?.compactMap(\.number) { boxes.append(box) }
            }
            if let box = document["bbox"] {
                checkCollectionBox(box, featureBoxes: boxes, problems: &problems)
            }
        default:
            problems.append("$: type is neither Feature nor FeatureCollection")
        }
        return problems
    }

    private static func checkFeature(_ feature: JSONValue, path: String, problems: inout [String]) {
        guard feature.object != nil, feature["type"]?.string == "Feature" else {
            problems.append("\(path): not a Feature object")
            return
        }
        guard let properties = feature["properties"], properties == .null || properties.object != nil else {
            problems.append("\(path): properties missing or not an object")
            return
        }
        guard let geometry = feature["geometry"] else {
            problems.append("\(path): no geometry member")
            return
        }
        if geometry == .null {
            if feature["bbox"] != nil { problems.append("\(path): bbox without a geometry") }
            return
        }
        var positions: [[Double]] = []
        let coordinates = geometry["coordinates"]
        switch geometry["type"]?.string {
        case "Point":
            positions = [position(coordinates, path: path, problems: &problems)].compactMap { $0 }
        case "LineString":
            positions = line(coordinates, path: path, problems: &problems)
        case "MultiLineString":
            guard let lines = coordinates?.array, !lines.isEmpty else {
                problems.append("\(path): MultiLineString without lines")
                return
            }
            for (index, value) in lines.enumerated() {
                positions += line(value, path: "\(path)[\(index)]", problems: &problems)
            }
        default:
            problems.append("\(path): geometry type \(geometry["type"]?.string ?? "?") not written by Runnect")
            return
        }
        let dimensions = Set(positions.map(\.count))
        if dimensions.count > 1 { problems.append("\(path): positions of mixed dimensions \(dimensions.sorted())") }
        guard let box = feature["bbox"]?.array?.compactMap(\.number) else {
            problems.append("\(path): no bbox")
            return
        }
        let dimension = dimensions.first ?? 2
        guard box.count == 2 * dimension else {
            problems.append("\(path): bbox has \(box.count) numbers for \(dimension)-D positions")
            return
        }
        let west = box[0]
        let south = box[1]
        let east = box[dimension]
        let north = box[dimension + 1]
        if south > north { problems.append("\(path): bbox south \(south) > north \(north)") }
        if !(-180...180).contains(west) || !(-180...180).contains(east) {
            problems.append("\(path): bbox longitude out of range")
        }
        var touches = [false, false, false, false]  // west, south, east, north
        for p in positions {
            if !contains(west: west, east: east, p[0]) || p[1] < south || p[1] > north {
                problems.append("\(path): position \(p) outside bbox \(box)")
                break
            }
            if dimension == 3 && (p[2] < box[2] || p[2] > box[5]) {
                problems.append("\(path): elevation \(p[2]) outside bbox \(box)")
                break
            }
            touches[0] = touches[0] || p[0] == west || (west == -180 && p[0] == 180)
            touches[1] = touches[1] || p[1] == south
            touches[2] = touches[2] || p[0] == east || (east == 180 && p[0] == -180)
            touches[3] = touches[3] || p[1] == north
        }
        if touches.contains(false) { problems.append("\(path): bbox \(box) is not tight (edges touched: \(touches))") }
    }

    private static func contains(west: Double, east: Double, _ longitude: Double) -> Bool {
        // 180° and −180° are one meridian.
        let alternative = longitude == 180 ? -180 : longitude == -180 ? 180 : longitude
        return [longitude, alternative].contains {
            west <= east ? (west...east).contains($0) : $0 >= west || $0 <= east
        }
    }

    private static func line(_ value: JSONValue?, path: String, problems: inout [String]) -> [[Double]] {
        guard let values = value?.array, values.count >= 2 else {
            problems.append("\(path): a LineString needs two or more positions")
            return []
        }
        let positions = values.compactMap { position($0, path: path, problems: &problems) }
        for (a, b) in zip(positions, positions.dropFirst()) where abs(b[0] - a[0]) > 180 {
            problems.append("\(path): steps across ±180° from \(a) to \(b)")
            break
        }
        if Set(positions.map { [$0[0], $0[1]] }).count < 2 {
            problems.append("\(path): a line of one distinct position")
        }
        return positions
    }

    private static func position(_ value: JSONValue?, path: String, problems: inout [String]) -> [Double]? {
        guard let values = value?.array, (2...3).contains(values.count) else {
            problems.append("\(path): a position is not 2 or 3 numbers")
            return nil
        }
        let numbers = values.compactMap(\.number)
        guard numbers.count == values.count else {
            problems.append("\(path): a position holds a non-number")
            return nil
        }
        if !(-180...180).contains(numbers[0]) || !(-90...90).contains(numbers[1]) {
            problems.append("\(path): [lon, lat] out of range (swapped?): \(numbers)")
            return nil
        }
        return numbers
    }

    private static func checkCollectionBox(_ value: JSONValue, featureBoxes: [[Double]], problems: inout [String]) {
        guard let box = value.array?.compactMap(\.number), box.count == 4 || box.count == 6 else {
            problems.append("$: collection bbox is not 4 or 6 numbers")
            return
        }
        let d = box.count / 2
        for feature in featureBoxes {
            let fd = feature.count / 2
            let inside =
                [feature[0], feature[fd]].allSatisfy { contains(west: box[0], east: box[d], $0) }
                && feature[1] >= box[1] && feature[fd + 1] <= box[d + 1]
            // A feature box must not wrap round the outside of a non-wrapping collection box.
            let wraps = feature[0] > feature[fd] && !(box[0] > box[d] || (box[0] == -180 && box[d] == 180))
            if !inside || wraps { problems.append("$: feature bbox \(feature) not inside collection bbox \(box)") }
        }
    }
}
