// libFuzzer target for the FIT decoder; built and run by `scripts/fuzz.sh fit`, never by SwiftPM.
//
// The script compiles this file together with Fuzz/TricklingByteStream.swift and the decoder's
// sources (Readers/FIT, ByteStream, ReadError, ISO8601Parser and the model) into one module, so
// no C++ (GeographicLib) is linked.
// Each input is decoded twice: from memory in one piece, and through a stream that hands over
// a few bytes at a time (the sizes come from the input), which exercises the buffer refills.
// A crash, a hang, an unbounded allocation or a broken invariant below is a finding.

/// Decodes `bytes` and checks what every result must satisfy; returns a comparable digest.
func decodeAndCheck(_ stream: ByteStream) -> String {
    do {
        let result = try FITReader().decode(from: stream)
        let points = result.activity.tracks.flatMap(\.segments).reduce(0) { $0 + $1.points.count }
        precondition(points == result.summary.recordCount, "every record is one point")
        precondition(result.summary.recordsWithPosition <= result.summary.recordCount)
        precondition(result.activity.warnings.allSatisfy { !$0.contains("\n") }, "warnings are one line")
        return "ok \(points) \(result.summary.recordsWithPosition) \(result.activity.warnings)"
    } catch let error as ReadError {
        let message = error.description
        precondition(!message.isEmpty && !message.contains("\n"), "errors are one line")
        return "error \(message)"
    } catch {
        preconditionFailure("unexpected error type: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFIT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = decodeAndCheck(MemoryByteStream(bytes))
    let step = size > 0 ? Int(bytes[size - 1] % 61) + 1 : 1
    let trickled = decodeAndCheck(TricklingByteStream(bytes, step: step))
    precondition(whole == trickled, "the result does not depend on how the stream is chunked")
    return 0
}
