import Foundation
import RunnectServer

/// `runnect-bench tokens [COUNT] [--repeat N]`: the server's access tokens (HS256 over the system
/// libcrypto, `ServerTokens`): microseconds to issue one and to verify one, best of N rounds of
/// COUNT tokens. The figure set beside jwt-kit 5's on the same machine (Benchmarks.md).
func tokensBench(_ arguments: [String]) throws {
    let count = arguments.first.flatMap { Int($0) } ?? 100_000
    let repeats = repeatCount(arguments, default: 3)
    let tokens = ServerTokens(secret: try TokenSecret(bytes: Array(repeating: 0x6B, count: 48), source: "bench"))
    var issueBest = Double.infinity
    var verifyBest = Double.infinity
    for _ in 0..<repeats {
        var issued: [String] = []
        issued.reserveCapacity(count)
        var start = now()
        for index in 0..<count { issued.append(try tokens.issue(.access, runnerID: Int64(index + 1))) }
        issueBest = min(issueBest, now() - start)
        start = now()
        for token in issued { _ = try tokens.verify(token, as: .access) }
        verifyBest = min(verifyBest, now() - start)
    }
    let issue = issueBest / Double(count) * 1e6
    let verify = verifyBest / Double(count) * 1e6
    print(#"{"bench":"tokens","count":\#(count),"issue_us":\#(issue),"verify_us":\#(verify)}"#)
    FileHandle.standardError.write(
        Data(
            String(format: "tokens: issue %.1f µs, verify %.1f µs (%d, best of %d)\n", issue, verify, count, repeats)
                .utf8))
}
