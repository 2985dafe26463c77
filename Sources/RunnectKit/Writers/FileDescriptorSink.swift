import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor as a ``ByteSink``: every byte handed over is written with `write(2)`
/// (retried after an interruption and after a short write).
///
/// ```swift
/// var out = FileDescriptorSink.standardOutput
/// try GPXWriter().write(activity, to: &out)
/// ```
public struct FileDescriptorSink: ByteSink, Sendable {
    /// The descriptor written to; never closed by the sink.
    public let fileDescriptor: Int32
    /// How errors name the output (a path, or "standard output").
    public let name: String

    /// A sink writing to `fileDescriptor`, named `name` in its errors.
    public init(fileDescriptor: Int32, name: String) {
        self.fileDescriptor = fileDescriptor
        self.name = name
    }

    /// Standard output (descriptor 1).
    public static var standardOutput: FileDescriptorSink {
        FileDescriptorSink(fileDescriptor: STDOUT_FILENO, name: "standard output")
    }

    /// - Throws: ``OutputFileError/cannotWrite(path:reason:)`` naming the output and the system's
    ///   reason (a full disk, a closed pipe).
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        if let code = Self.writeAll(bytes, to: fileDescriptor) {
            throw OutputFileError.cannotWrite(path: name, reason: String(cString: strerror(code)))
        }
    }

    /// `write(2)` until every byte is written; the `errno` of a failure.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        var offset = 0
        while offset < buffer.count {
            let written = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }
}

/// `write(2)`, out of reach of ``FileDescriptorSink/write(_:)``'s name.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
