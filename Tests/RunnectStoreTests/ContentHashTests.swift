import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// Content hashes are SHA-256 by the system's libcrypto (swift-crypto before): they must stay
/// byte-identical, or a store made earlier would no longer recognise a re-imported file. Checked
/// against coreutils' `sha256sum`, an independent implementation.
@Suite("Store: content hashes")
struct ContentHashTests {
    /// Sizes around SHA-256's 64-byte block and 56-byte padding limit, and around the 64 KiB
    /// chunk `HashingByteStream.finish()` reads with.
    static let sizes = [
        0, 1, 2, 3, 31, 32, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000,
        4095, 4096, 4097, 65535, 65536, 65537, 131_071, 131_072, 131_073, 1_000_003,
    ]

    @Test("known digests (FIPS 180-4 examples and the empty input)")
    func knownDigests() {
        #expect(ContentHash.of(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ContentHash.of([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            ContentHash.of(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(ContentHash.of(Data("abc".utf8)) == ContentHash.of(Array("abc".utf8)))
    }

    @Test(
        "sample tracks hash as sha256sum does, read through the import path", .sha256sum, arguments: SampleTracks.files)
    func sampleTracks(file: String) throws {
        let path = SampleTracks.path(file)
        let expected = try sha256(ofFile: path)
        #expect(try CourseSource(path: path).contentHash == expected)
        #expect(ContentHash.of(try Data(contentsOf: URL(fileURLWithPath: path))) == expected)
    }

    @Test("seeded random bytes of many sizes, whole and streamed in uneven pieces", .sha256sum, arguments: sizes)
    func randomBytes(size: Int) async throws {
        var generator = SplitMix64(seed: 0xC0FFEE &+ UInt64(size))
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let expected = try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("bytes.bin")
            try Data(bytes).write(to: file)
            return try sha256(ofFile: file.path)
        }
        #expect(expected.count == 64)
        #expect(ContentHash.of(bytes) == expected)
        #expect(ContentHash.of(bytes[...]) == expected)
        for piece in [1, 7, 64, 4096, 1 << 16] where piece <= max(size, 1) * 2 {
            // Nothing read by a reader first: finish() reads it all.
            let untouched = HashingByteStream(PiecewiseByteStream(bytes, piece: piece))
            #expect(try untouched.finish() == expected, "piece \(piece)")
            // Part read by a reader, the rest by finish().
            let partly = HashingByteStream(PiecewiseByteStream(bytes, piece: piece))
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 100, alignment: 1)
            defer { buffer.deallocate() }
            _ = try partly.read(into: buffer)
            #expect(try partly.finish() == expected, "piece \(piece), read first")
        }
    }
}

/// Hands out at most `piece` bytes per read, as a pipe or a slow disk might.
private final class PiecewiseByteStream: ByteStream {
    private let base: MemoryByteStream
    private let piece: Int

    init(_ bytes: [UInt8], piece: Int) {
        base = MemoryByteStream(bytes)
        self.piece = piece
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(piece, buffer.count)]))
    }
}
