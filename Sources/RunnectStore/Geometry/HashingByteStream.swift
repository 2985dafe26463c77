import Crypto
import Foundation
import RunnectKit

/// Passes a stream through while hashing every byte read, so that a file is read once for both
/// its activity and its content hash.
final class HashingByteStream: ByteStream {
    private let base: ByteStream
    private var hasher = SHA256()

    init(_ base: ByteStream) {
        self.base = base
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        if count > 0 {
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return count
    }

    /// Reads what the reader left (bytes after `</gpx>`, say) and returns the lowercase hex
    /// SHA-256 of the whole stream.
    func finish() throws -> String {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while try read(into: chunk) > 0 {}
        return ContentHash.hex(hasher.finalize())
    }
}

/// Content hashes as the store keeps them: lowercase hex SHA-256.
enum ContentHash {
    static func hex<D: Digest>(_ digest: D) -> String {
        digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    static func of<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// The canonical text of tapped points, `lat,lon lat,lon …` with Swift's shortest round-trip
    /// decimal form of each number: what a drawn course's hash is taken over.
    static func canonicalText(_ points: [Coordinate]) -> String {
        points.map { "\($0.latitude),\($0.longitude)" }.joined(separator: " ")
    }
}
