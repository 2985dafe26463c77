// Shared by the libFuzzer targets (scripts/fuzz.sh): a stream that hands over input in small
// pieces, so the readers' buffer refills are exercised.

/// A stream that returns at most `step` bytes per read.
final class TricklingByteStream: ByteStream {
    private let bytes: [UInt8]
    private var offset = 0
    private let step: Int

    init(_ bytes: [UInt8], step: Int) {
        self.bytes = bytes
        self.step = max(1, step)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset, step)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
    }
}
