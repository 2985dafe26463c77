import Foundation
import RunnectKit
import RunnectStore

/// `runnect-bench stats-json FILE… [--repeat N]`: the `stats` column's JSON of each file's
/// stats, as the store writes it, read back by `StoredStats.decode` (its own scanner) and by
/// `JSONDecoder` through the `Decodable`, 10,000 rows each way; best of N, microseconds a row,
/// and whether the two agree on every row (must).
func statsJSONBench(_ arguments: [String]) throws {
    let files = arguments.prefix { !$0.hasPrefix("--") }
    let repeats = repeatCount(arguments, default: 5)
    let rows = try files.map { file in
        Data(try StoredStats(ActivityReader.read(path: String(file)).stats()).json().utf8)
    }
    guard !rows.isEmpty else { usage() }
    let count = 10_000
    let decoder = JSONDecoder()
    var scannerBest = Double.infinity
    var decoderBest = Double.infinity
    var agree = true
    for _ in 0..<repeats {
        var start = now()
        var scanned: [ActivityStats] = []
        scanned.reserveCapacity(count)
        for index in 0..<count { scanned.append(try StoredStats.decode(rows[index % rows.count]).stats) }
        scannerBest = min(scannerBest, now() - start)
        start = now()
        var decoded: [ActivityStats] = []
        decoded.reserveCapacity(count)
        for index in 0..<count {
            decoded.append(try decoder.decode(StoredStats.self, from: rows[index % rows.count]).stats)
        }
        decoderBest = min(decoderBest, now() - start)
        agree = agree && scanned == decoded
    }
    let perRow = { (seconds: Double) in String(format: "%.2f µs", seconds / Double(count) * 1e6) }
    print(
        "stats-json: \(rows.count) files, \(count) rows: StoredStats.decode \(perRow(scannerBest)), "
            + "JSONDecoder \(perRow(decoderBest)) a row; agree: \(agree)")
}
