// libFuzzer target for the FIT decoder; built and run by `scripts/fuzz.sh fit`, never by SwiftPM.
//
// The script compiles this file together with Fuzz/FuzzSupport.swift and the decoder's
// sources (Readers/FIT, ByteStream, ReadError, ISO8601Parser and the model) into one module, so
// no C++ (GeographicLib) is linked.
// Each input is decoded twice: from memory in one piece, and through a stream that hands over
// a few bytes at a time (the sizes come from the input), which exercises the buffer refills.
// A crash, a hang, an unbounded allocation or a broken invariant below is a finding.

/// Decodes a stream and checks what every result must satisfy; returns a comparable digest.
func decodeAndCheck(_ stream: ByteStream) -> String {
    checkedDigest({ try FITReader().decode(from: stream) }, describe: check)
}

/// The invariants of a decoded FIT file, and its digest.
private func check(_ result: FITReader.Result) -> String {
    let points = result.activity.tracks.flatMap(\.segments).reduce(0) { $0 + $1.points.count }
    precondition(points == result.summary.recordCount, "every record is one point")
    precondition(result.summary.recordsWithPosition <= result.summary.recordCount)
    precondition(result.activity.warnings.allSatisfy { !$0.contains("\n") }, "warnings are one line")
    return "\(points) \(result.summary.recordsWithPosition) \(result.activity.warnings)"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFIT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = digestIndependentOfChunking(Array(UnsafeBufferPointer(start: data, count: size)), decodeAndCheck)
    return 0
}
