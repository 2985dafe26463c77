// Shared by the libFuzzer targets (scripts/fuzz.sh): a stream that hands over input in small
// pieces, so the readers' buffer refills are exercised, and the checks every read must pass.

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

/// Runs one read and checks what every outcome must satisfy: errors are `ReadError`s of one line.
/// Returns a digest to compare with another read of the same bytes: `ok` and what `describe`
/// makes of the result, or `error` and the message.
func checkedDigest<Result>(_ read: () throws -> Result, describe: (Result) -> String) -> String {
    do {
        return "ok " + describe(try read())
    } catch let error as ReadError {
        let message = error.description
        precondition(!message.isEmpty && !message.contains("\n"), "errors are one line: \(message.debugDescription)")
        return "error \(message)"
    } catch {
        preconditionFailure("unexpected error type: \(error)")
    }
}

/// The digest of `bytes` read from memory in one piece, after checking that a read through a
/// stream handing over a few bytes at a time (the sizes come from the input) gives the same.
func digestIndependentOfChunking(_ bytes: [UInt8], _ digest: (ByteStream) -> String) -> String {
    let whole = digest(MemoryByteStream(bytes))
    let step = bytes.last.map { Int($0 % 61) + 1 } ?? 1
    let trickled = digest(TricklingByteStream(bytes, step: step))
    precondition(
        whole == trickled,
        "the result does not depend on how the stream is chunked: \(whole.prefix(300)) | \(trickled.prefix(300))")
    return whole
}
