import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A source of bytes read in chunks, so that readers never hold a whole file in memory.
public protocol ByteStream: AnyObject {
    /// Reads up to `buffer.count` bytes; returns 0 at the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Reads a file (or standard input) through `read(2)`.
public final class FileByteStream: ByteStream {
    let descriptor: Int32
    private let closesOnDeinit: Bool
    private let path: String

    /// The size of the file when it is a regular file opened by path (not standard input), which
    /// ranges of can be read with `pread(2)`; `nil` otherwise.
    var regularFileSize: Int? {
        guard closesOnDeinit else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Opens `path` for reading; `-` means standard input.
    public init(path: String) throws {
        self.path = path
        if path == "-" {
            descriptor = 0
            closesOnDeinit = false
            return
        }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw ReadError.io("is a directory")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError.io(String(cString: strerror(errno))) }
        descriptor = fd
        closesOnDeinit = true
    }

    deinit {
        if closesOnDeinit { close(descriptor) }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            #if canImport(Glibc)
                let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            #else
                let n = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
            #endif
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw ReadError.io(String(cString: strerror(errno)))
        }
    }
}

/// The bytes `start..<end` of a regular file, read with `pread(2)` (which leaves the descriptor's
/// offset alone, so that several ranges of one open file can be read at once, on several threads).
final class FileRangeByteStream: ByteStream {
    private let descriptor: Int32
    private var offset: Int
    private let end: Int

    init(descriptor: Int32, start: Int, end: Int) {
        self.descriptor = descriptor
        self.offset = start
        self.end = end
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let wanted = min(buffer.count, end - offset)
        guard wanted > 0 else { return 0 }
        while true {
            let n = pread(descriptor, buffer.baseAddress, wanted, off_t(offset))
            if n >= 0 {
                offset += n
                return n
            }
            if errno == EINTR { continue }
            throw ReadError.io(String(cString: strerror(errno)))
        }
    }
}

/// Bytes already in memory.
public final class MemoryByteStream: ByteStream {
    private let bytes: [UInt8]
    private var offset = 0

    public init<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        self.bytes = Array(bytes)
    }

    public convenience init(_ text: String) {
        self.init(Array(text.utf8))
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
    }
}

/// A stream whose first bytes were already read (to detect the format) and are replayed first.
final class PrefixedByteStream: ByteStream {
    private var prefix: [UInt8]
    private var offset = 0
    private let rest: ByteStream

    init(prefix: [UInt8], rest: ByteStream) {
        self.prefix = prefix
        self.rest = rest
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if offset < prefix.count {
            let n = min(buffer.count, prefix.count - offset)
            prefix.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: n)
            }
            offset += n
            if offset == prefix.count {
                prefix = []
                offset = 0
            }  // free the prefix early
            return n
        }
        return try rest.read(into: buffer)
    }
}

extension ByteStream {
    /// Reads until `count` bytes are gathered or the stream ends.
    func readPrefix(count: Int) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try result.withUnsafeMutableBytes { raw in
                try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
            }
            if n == 0 { break }
            filled += n
        }
        result.removeLast(count - filled)
        return result
    }

    /// Reads everything that is left, refusing more than `limit` bytes.
    func readAll(limit: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if n == 0 { return result }
            guard result.count + n <= limit else { throw ReadError.tooLarge(limitBytes: limit) }
            result.append(contentsOf: chunk[..<n])
        }
    }
}
