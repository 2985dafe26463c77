import CZlib

/// Inflates a gzip stream (RFC 1952) chunk by chunk with the system's zlib, so a `.gpx.gz` or
/// `.tcx.gz` is read as a stream like the plain file: memory stays at zlib's 32 KiB window plus a
/// 64 KiB input buffer, whatever the size of the file.
///
/// Several gzip members one after another (`cat a.gz b.gz`) are read as one stream, as `gzip -d`
/// does; zero bytes after the last member (padding) are ignored, anything else there is an error.
///
/// A small file can inflate to an enormous one (a "gzip bomb": 1 MB of zeros compresses to 1 KB).
/// Readers stream, so memory would stay bounded anyway, but time would not: the output is
/// refused past ``maxOutputBytes`` (by default ``defaultMaxOutputBytes``, 1 GiB, fifteen times
/// the biggest real recording Runnect has been benchmarked on).
public final class GzipByteStream: ByteStream {
    /// The default bound on the inflated size: 1 GiB.
    public static let defaultMaxOutputBytes = 1 << 30
    /// Inflated bytes beyond this many are refused with ``ReadError/tooLarge(limitBytes:)``.
    public let maxOutputBytes: Int

    private let source: ByteStream
    private let zstream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutablePointer<UInt8>
    private static let inputCapacity = 1 << 16
    /// Compressed bytes read from `source` so far (the byte offsets in error messages).
    private var compressedBytesRead = 0
    private var sourceEnded = false
    /// Between two members: the last one ended, the next (if any) has not begun.
    private var betweenMembers = false
    private var finished = false
    private var outputBytes = 0

    /// Wraps `source`, whose first bytes must be a gzip header.
    /// - Parameters:
    ///   - source: The compressed bytes.
    ///   - maxOutputBytes: Inflated bytes allowed in all.
    /// - Throws: ``ReadError/io(_:)`` when zlib cannot start (out of memory).
    public init(_ source: ByteStream, maxOutputBytes: Int = GzipByteStream.defaultMaxOutputBytes) throws {
        self.source = source
        self.maxOutputBytes = maxOutputBytes
        zstream = .allocate(capacity: 1)
        zstream.initialize(to: z_stream())
        input = .allocate(capacity: Self.inputCapacity)
        // 15 + 16: a 32 KiB window, gzip header and trailer (CRC-32 and length are checked).
        let status = inflateInit2_(zstream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            zstream.deallocate()
            input.deallocate()
            throw ReadError.io("zlib could not start (status \(status))")
        }
    }

    deinit {
        inflateEnd(zstream)
        zstream.deinitialize(count: 1)
        zstream.deallocate()
        input.deallocate()
    }

    /// Offset in the compressed file of the next byte zlib will read.
    private var compressedOffset: Int { compressedBytesRead - Int(zstream.pointee.avail_in) }

    /// Reads more compressed bytes when zlib has used up the last ones.
    private func refillIfEmpty() throws {
        guard zstream.pointee.avail_in == 0, !sourceEnded else { return }
        let n = try source.read(into: UnsafeMutableRawBufferPointer(start: input, count: Self.inputCapacity))
        if n == 0 {
            sourceEnded = true
            return
        }
        compressedBytesRead += n
        zstream.pointee.next_in = input
        zstream.pointee.avail_in = UInt32(n)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            try refillIfEmpty()
            if betweenMembers {
                guard zstream.pointee.avail_in > 0 else {
                    finished = true
                    return 0
                }
                let next = zstream.pointee.next_in.pointee
                if next == 0 {  // padding
                    zstream.pointee.next_in += 1
                    zstream.pointee.avail_in -= 1
                    continue
                }
                guard next == 0x1F else {
                    throw ReadError.invalidContent(
                        "unexpected data after the end of the gzip stream at byte \(compressedOffset)")
                }
                inflateReset(zstream)
                betweenMembers = false
            }
            // One byte more than allowed, to tell "exactly at the limit" from "past it".
            let room = min(buffer.count, Int(UInt32.max), maxOutputBytes - outputBytes + 1)
            zstream.pointee.next_out = base.assumingMemoryBound(to: UInt8.self)
            zstream.pointee.avail_out = UInt32(room)
            let status = inflate(zstream, Z_NO_FLUSH)
            let produced = room - Int(zstream.pointee.avail_out)
            outputBytes += produced
            if outputBytes > maxOutputBytes {
                finished = true
                throw ReadError.tooLarge(limitBytes: maxOutputBytes)
            }
            switch status {
            case Z_STREAM_END:
                betweenMembers = true
            case Z_OK, Z_BUF_ERROR:
                if produced == 0 && zstream.pointee.avail_in == 0 && sourceEnded {
                    throw ReadError.invalidContent(
                        "truncated gzip file: the compressed data ends at byte \(compressedBytesRead) before the end of the stream"
                    )
                }
            case Z_DATA_ERROR:
                let reason = zstream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
                throw ReadError.invalidContent("corrupt gzip data near byte \(compressedOffset): \(reason)")
            case Z_MEM_ERROR:
                throw ReadError.io("out of memory while inflating")
            default:
                throw ReadError.invalidContent(
                    "gzip data cannot be inflated (zlib status \(status)) near byte \(compressedOffset)")
            }
            if produced > 0 { return produced }
        }
    }
}
