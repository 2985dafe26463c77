import Foundation
import RunnectKit

/// Points in `runnect-bench points-file` by default: with seven decimals and one point a line,
/// about 64 MB of the service's tapped-points JSON (under ``ActivityReader/maxTextCourseBytes``).
let defaultPointsFilePoints = 1_306_000

/// `runnect-bench points-file PATH [POINTS]`: writes the tapped-points JSON workload, the service's
/// `[{"latitude": …, "longitude": …}, …]` shape with seven decimals, one point a line: the same
/// bytes on every run and platform (a seeded course, fixed-point formatting by integer arithmetic).
func writePointsFile(_ arguments: [String]) throws {
    guard let path = arguments.first else { usage() }
    let count = arguments.dropFirst().first.flatMap { Int($0) } ?? defaultPointsFilePoints
    let course = benchCourse(points: count, lengthMeters: 42_195 * Double(count) / 100_000, seed: 64)
    guard FileManager.default.createFile(atPath: path, contents: nil),
        let handle = FileHandle(forWritingAtPath: path)
    else {
        throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? handle.close() }
    var chunk: [UInt8] = Array("[\n".utf8)
    chunk.reserveCapacity(1 << 20)
    let points = course.tracks[0].segments[0].points
    for (index, point) in points.enumerated() {
        chunk += Array("{\"latitude\":".utf8)
        appendFixed7(point.latitude, to: &chunk)
        chunk += Array(",\"longitude\":".utf8)
        appendFixed7(point.longitude, to: &chunk)
        chunk += Array(index + 1 < points.count ? "},\n".utf8 : "}\n]\n".utf8)
        if chunk.count >= 1 << 20 {
            try handle.write(contentsOf: chunk)
            chunk.removeAll(keepingCapacity: true)
        }
    }
    try handle.write(contentsOf: chunk)
    FileHandle.standardError.write(Data("runnect-bench: wrote \(path): \(count) points\n".utf8))
}

/// `value` with exactly seven decimals (`-37.5123456`), rounded half away from zero.
private func appendFixed7(_ value: Double, to bytes: inout [UInt8]) {
    let scaled = Int((abs(value) * 1e7).rounded())
    if value < 0 && scaled != 0 { bytes.append(UInt8(ascii: "-")) }
    bytes += Array(String(scaled / 10_000_000).utf8)
    bytes.append(UInt8(ascii: "."))
    let fraction = String(scaled % 10_000_000)
    bytes += [UInt8](repeating: UInt8(ascii: "0"), count: 7 - fraction.utf8.count) + Array(fraction.utf8)
}
