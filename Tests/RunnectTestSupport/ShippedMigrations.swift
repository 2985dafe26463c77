import Foundation
import RunnectStore
import Testing

/// The shipped migration files of a backend, each pinned by its SHA-256: a shipped migration is
/// never edited, so that every database migrated by it, wherever it runs, has the same schema.
public enum ShippedMigrations {
    /// The message of a change to a pinned file.
    public static let appendOnly = "shipped migrations are append-only; add a new version"

    /// Expects the `.sql` and `.swift` files of `folder` (a path in the package) to be exactly
    /// those of `pinned`, each with its SHA-256 (lowercase hex).
    public static func expectPinned(
        folder: String, _ pinned: KeyValuePairs<String, String>, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let url = PackageFolder.url(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            .filter { $0.hasSuffix(".sql") || $0.hasSuffix(".swift") }.sorted()
        let expected = Dictionary(uniqueKeysWithValues: pinned.map { ($0.key, $0.value) })
        for name in names {
            let digest = ContentHash.of(Array(try Data(contentsOf: url.appendingPathComponent(name))))
            guard let pinnedDigest = expected[name] else {
                Issue.record(
                    "\(folder)/\(name) is not pinned: add (\"\(name)\", \"\(digest)\") to the table once it ships",
                    sourceLocation: sourceLocation)
                continue
            }
            #expect(
                digest == pinnedDigest, "\(folder)/\(name) changed (SHA-256 \(digest)): \(appendOnly)",
                sourceLocation: sourceLocation)
        }
        for name in expected.keys.sorted() where !names.contains(name) {
            Issue.record("\(folder)/\(name) is gone: \(appendOnly)", sourceLocation: sourceLocation)
        }
    }
}
