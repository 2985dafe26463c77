import Foundation

/// Files downloaded lately, by ETag (``CourseFile/Source/etag``), at most ``capacityBytes`` in
/// all, the least recently asked for dropped first.
///
/// A club's shared course is downloaded by many watches and browsers, and writing its GPX
/// anew each time costs more than reading its row; a file whose course changed has a new ETag,
/// so nothing kept is ever out of date (an old one is only left to age out).
final class DownloadCache: @unchecked Sendable {
    /// The bytes kept at most (64 MiB by default: a few hundred 10 km courses in every format).
    let capacityBytes: Int

    private struct Entry {
        var bytes: [UInt8]
        var used: UInt64
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var total = 0
    private var clock: UInt64 = 0

    init(capacityBytes: Int = 64 << 20) {
        self.capacityBytes = capacityBytes
    }

    /// The file kept under `etag`, if any.
    func bytes(_ etag: String) -> [UInt8]? {
        lock.withLock {
            guard var entry = entries[etag] else { return nil }
            clock += 1
            entry.used = clock
            entries[etag] = entry
            return entry.bytes
        }
    }

    /// Keeps `bytes` under `etag`, dropping the least recently used files past the capacity; a
    /// file larger than a quarter of it is not kept.
    func keep(_ bytes: [UInt8], as etag: String) {
        guard bytes.count <= capacityBytes / 4 else { return }
        lock.withLock {
            clock += 1
            if let old = entries.updateValue(Entry(bytes: bytes, used: clock), forKey: etag) {
                total -= old.bytes.count
            }
            total += bytes.count
            while total > capacityBytes, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
                total -= oldest.value.bytes.count
                entries.removeValue(forKey: oldest.key)
            }
        }
    }

    /// The bytes kept now.
    var keptBytes: Int { lock.withLock { total } }
}
