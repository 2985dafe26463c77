// libFuzzer target for the XML readers (XMLScanner under GPXReader and TCXReader, and gzip in front
// of them); built and run by `scripts/fuzz.sh xml`, never by SwiftPM.
//
// The script compiles this file together with Fuzz/FuzzSupport.swift and the readers'
// sources (Readers, Readers/FIT, the model) into one module, so no C++ (GeographicLib) is linked.
// Each input is read three ways: through ActivityReader's detection (GPX, TCX, gzip), from
// memory in one piece and through a stream that hands over a few bytes at a time (the sizes
// come from the input), which must agree; and by the GPX and the TCX reader directly, whatever
// the root element, so both state machines see every input. A crash, a hang, an unbounded
// allocation or a broken invariant below is a finding.

/// A digest of activities: what the readers found, comparable between two reads.
func digest(_ activities: [Activity]) -> String {
    precondition(!activities.isEmpty, "a successful read gives at least one activity")
    return activities.map { activity -> String in
        precondition(activity.warnings.allSatisfy { !$0.contains("\n") }, "warnings are one line")
        let segments = activity.tracks.flatMap(\.segments)
        let points = segments.reduce(0) { $0 + $1.points.count }
        let routePoints = activity.routes.reduce(0) { $0 + $1.points.count }
        let coordinates = segments.flatMap(\.points).reduce(0.0) { sum, point in
            point.coordinate.isValid ? sum + point.latitude + point.longitude : sum
        }
        return "\(activity.format) \(activity.tracks.count)/\(segments.count)/\(points) "
            + "\(routePoints) \(activity.waypoints.count) \(activity.laps.count) \(coordinates) \(activity.warnings)"
    }.joined(separator: "; ")
}

/// Reads a stream through format detection; returns a comparable digest.
func readAndCheck(_ stream: ByteStream) -> String {
    let result = checkedDigest({ try ActivityReader.readAll(from: stream) }, describe: digest)
    // Not the XML path: which key Foundation's JSONDecoder reports for JSON that is not UTF-8
    // varies from one read of the same bytes to the next, so only the kind is compared.
    return result.hasPrefix("error invalid JSON: ") ? "error invalid JSON" : result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = digestIndependentOfChunking(bytes, readAndCheck)
    _ = checkedDigest({ [try GPXReader().read(from: MemoryByteStream(bytes))] }, describe: digest)
    _ = checkedDigest({ try TCXReader().readAll(from: MemoryByteStream(bytes)) }, describe: digest)
    return 0
}
