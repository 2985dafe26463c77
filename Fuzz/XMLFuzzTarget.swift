// libFuzzer target for the XML readers (XMLScanner under GPXReader and TCXReader, and gzip in front
// of them); built and run by `scripts/fuzz.sh xml`, never by SwiftPM.
//
// The script compiles this file together with Fuzz/TricklingByteStream.swift and the readers'
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

/// Runs one read and checks what every outcome must satisfy; returns a comparable digest.
func readAndCheck(_ read: () throws -> [Activity]) -> String {
    do {
        return "ok " + digest(try read())
    } catch let error as ReadError {
        let message = error.description
        precondition(!message.isEmpty && !message.contains("\n"), "errors are one line: \(message.debugDescription)")
        // Not the XML path: which key Foundation's JSONDecoder reports for JSON that is not
        // UTF-8 varies from one read of the same bytes to the next, so only the kind is compared.
        if message.hasPrefix("invalid JSON: ") { return "error invalid JSON" }
        return "error \(message)"
    } catch {
        preconditionFailure("unexpected error type: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = readAndCheck { try ActivityReader.readAll(from: MemoryByteStream(bytes)) }
    let step = size > 0 ? Int(bytes[size - 1] % 61) + 1 : 1
    let trickled = readAndCheck { try ActivityReader.readAll(from: TricklingByteStream(bytes, step: step)) }
    precondition(whole == trickled, "the result does not depend on how the stream is chunked: \(whole.prefix(300)) | \(trickled.prefix(300))")
    _ = readAndCheck { [try GPXReader().read(from: MemoryByteStream(bytes))] }
    _ = readAndCheck { try TCXReader().readAll(from: MemoryByteStream(bytes)) }
    return 0
}
