import CLibCrypto
import Foundation
import RunnectKit

/// Passes a stream through while hashing every byte read, so that a file is read once for both
/// its activity and its content hash.
final class HashingByteStream: ByteStream {
    private let base: ByteStream
    /// `nil` once ``finish()`` has taken the digest.
    private var hasher: SHA256Hasher? = SHA256Hasher()

    init(_ base: ByteStream) {
        self.base = base
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        if count > 0 {
            hasher?.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return count
    }

    /// Reads what the reader left (bytes after `</gpx>`, say) and returns the lowercase hex
    /// SHA-256 of the whole stream. Call it once.
    func finish() throws -> String {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while try read(into: chunk) > 0 {}
        guard let hasher = hasher.take() else { preconditionFailure("HashingByteStream.finish() called twice") }
        return ContentHash.hex(hasher.finalize())
    }
}

/// Content hashes as the store keeps them: lowercase hex SHA-256.
package enum ContentHash {
    package static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: digest.count * 2) { text in
            for (index, byte) in digest.enumerated() {
                text[2 * index] = digits[Int(byte >> 4)]
                text[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return digest.count * 2
        }
    }

    package static func of(_ bytes: some Collection<UInt8>) -> String {
        var hasher = SHA256Hasher()
        let done: Void? = bytes.withContiguousStorageIfAvailable { hasher.update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            Array(bytes).withUnsafeBytes { hasher.update($0) }
        }
        return hex(hasher.finalize())
    }

    /// The canonical text of tapped points, `lat,lon lat,lon …` with Swift's shortest round-trip
    /// decimal form of each number: what a drawn course's hash is taken over.
    static func canonicalText(_ points: [Coordinate]) -> String {
        points.map { "\($0.latitude),\($0.longitude)" }.joined(separator: " ")
    }
}

/// SHA-256 by the system's OpenSSL libcrypto (EVP, the digest API OpenSSL 3 keeps), fed in
/// pieces. It replaced swift-crypto (BoringSSL) with byte-identical digests: FIPS 180-4 SHA-256
/// either way, checked against `sha256sum` in `ContentHashTests`.
struct SHA256Hasher: ~Copyable {
    private let context: OpaquePointer

    init() {
        // Fails only when memory runs out or OpenSSL's default provider cannot load (a broken
        // openssl.cnf): nothing the store could recover from, so it stops with the reason.
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL: EVP_MD_CTX_new failed (out of memory)") }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            fatalError("OpenSSL: SHA-256 is unavailable (EVP_DigestInit_ex failed; check the OpenSSL configuration)")
        }
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        guard EVP_DigestUpdate(context, base, bytes.count) == 1 else { fatalError("OpenSSL: EVP_DigestUpdate failed") }
    }

    /// The 32-byte digest of everything passed to ``update(_:)``.
    consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else {
            fatalError("OpenSSL: EVP_DigestFinal_ex failed")
        }
        return digest
    }
}
