#!/usr/bin/env bash
# The peer of `runnect-bench tokens`: jwt-kit 5 (the package mirror's) signing and verifying the
# same HS256 access tokens, in a throwaway package made in a temporary folder (nothing fetched is
# kept), with the cold build's wall time: what choosing jwt-kit over the system libcrypto would
# cost (Benchmarks.md, "Server tokens").
#
#   scripts/bench-jwtkit.sh [COUNT]     prints the debug and release build times and µs a token
set -euo pipefail
count="${1:-100000}"
work="$(mktemp -d /tmp/runnect-jwtkit.XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/jwtbench"
cat > "$work/Package.swift" <<'EOF'
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "jwtbench",
    platforms: [.macOS(.v13)],
    dependencies: [.package(url: "https://github.com/vapor/jwt-kit", from: "5.0.0")],
    targets: [.executableTarget(name: "jwtbench", dependencies: [.product(name: "JWTKit", package: "jwt-kit")])]
)
EOF
cat > "$work/Sources/jwtbench/main.swift" <<'EOF'
import Foundation
import JWTKit

struct Claims: JWTPayload {
    var sub: SubjectClaim
    var userId: String
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
}

let keys = JWTKeyCollection()
await keys.add(hmac: HMACKey(from: String(repeating: "k", count: 48)), digestAlgorithm: .sha256)
let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 100_000
var best = (sign: Double.infinity, verify: Double.infinity)
for _ in 0..<3 {
    var tokens: [String] = []
    tokens.reserveCapacity(count)
    let start = Date()
    for i in 0..<count {
        let claims = Claims(
            sub: "access_token", userId: String(i + 1), iat: .init(value: Date()),
            exp: .init(value: Date().addingTimeInterval(7200)))
        tokens.append(try await keys.sign(claims))
    }
    let signed = Date()
    for token in tokens { _ = try await keys.verify(token, as: Claims.self) }
    best.sign = min(best.sign, signed.timeIntervalSince(start))
    best.verify = min(best.verify, Date().timeIntervalSince(signed))
}
print(String(format: "jwt-kit: sign %.1f µs, verify %.1f µs (%d tokens, best of 3)",
    best.sign / Double(count) * 1e6, best.verify / Double(count) * 1e6, count))
EOF
cd "$work"
start=$(date +%s)
swift build >/dev/null
echo "jwt-kit: cold debug build $(( $(date +%s) - start )) s"
start=$(date +%s)
swift build -c release >/dev/null
echo "jwt-kit: cold release build $(( $(date +%s) - start )) s"
.build/release/jwtbench "$count"
