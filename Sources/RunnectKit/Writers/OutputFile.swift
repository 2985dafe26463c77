import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a whole output file so that a reader never sees half of it, without ever replacing
/// something that is not a regular file.
///
/// - A missing path or a **regular file** is written atomically: the bytes go to
///   `.<name>.<pid>.tmp` beside it, which is then renamed over it (`rename(2)`). A replaced file
///   keeps its permission bits; a new one gets 0644 less the umask (not Foundation's 0600, which
///   a web server running as another user cannot read).
/// - A **symbolic link** is followed: the file it points to is replaced as above and the link
///   stays a link.
/// - A **device, FIFO or socket** (`/dev/null`, `/dev/stdout`, a named pipe) is opened and written
///   into. It is never renamed over, removed, or created beside: a root user writing to
///   `/dev/null` must not turn it into a regular file.
/// - A folder is refused.
///
/// ```swift
/// try OutputFile.write(Data(svg.utf8), to: "preview.svg")
/// ```
public enum OutputFile {
    /// What is at a path, as far as writing goes.
    public enum Kind: Equatable, Sendable {
        /// Nothing: the file is created.
        case missing
        /// A regular file: replaced atomically.
        case regular
        /// A folder: refused.
        case folder
        /// A device, FIFO or socket: written into.
        case special
    }

    /// What `path` is, following symbolic links; a dangling link is `missing`.
    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .folder
        default: return .special
        }
    }

    /// Writes `data` to `path` by the rules above.
    /// - Throws: ``OutputFileError``, naming the path and the system's reason.
    public static func write(_ data: Data, to path: String) throws {
        var target = path
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            // Replace what the link points to, not the link. A dangling link names where the file goes.
            guard let resolved = resolvedLink(path) else {
                throw OutputFileError.cannotWrite(path: path, reason: "a symbolic link that cannot be followed")
            }
            target = resolved
        }
        switch kind(of: target) {
        case .folder:
            throw OutputFileError.cannotWrite(path: path, reason: "is a folder")
        case .special:
            try writeInPlace(data, to: target, naming: path)
        case .missing, .regular:
            try replaceAtomically(data, at: target, naming: path)
        }
    }

    /// The path a symbolic link leads to, a dangling one included; `nil` for a loop.
    private static func resolvedLink(_ path: String) -> String? {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        // Dangling: the folder must exist; the last link's target is created.
        var current = path
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current
            }
            current =
                destination.hasPrefix("/")
                ? destination
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
        }
        return nil
    }

    /// Opens an existing device, FIFO or socket and writes into it: no `O_CREAT`, no `O_TRUNC`.
    private static func writeInPlace(_ data: Data, to target: String, naming path: String) throws {
        let fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputFileError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        let failure = writeAll(data, to: fd)
        let closed = close(fd) == 0 ? 0 : errno
        if let code = failure ?? (closed == 0 ? nil : closed) {
            throw OutputFileError.cannotWrite(path: path, reason: String(cString: strerror(code)))
        }
    }

    /// Writes `.<name>.<pid>.tmp` beside `target` and renames it over `target`.
    private static func replaceAtomically(_ data: Data, at target: String, naming path: String) throws {
        let url = URL(fileURLWithPath: target)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        var existing = stat()
        let mode: mode_t = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
        // O_EXCL: a name already there (a link planted by someone else) is never written through.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw OutputFileError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        var failure = writeAll(data, to: fd)
        if failure == nil, existing.st_mode != 0, fchmod(fd, mode) != 0 { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, target) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw OutputFileError.cannotWrite(path: path, reason: String(cString: strerror(failure)))
        }
    }

    /// `write(2)` until every byte is written; the `errno` of a failure.
    private static func writeAll(_ data: Data, to fd: Int32) -> Int32? {
        data.withUnsafeBytes { buffer -> Int32? in
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
}

/// Why an output file could not be written.
public enum OutputFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path could not be written: the system's reason (no permission, disk full, a folder).
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        }
    }
}

/// `write(2)`, out of reach of ``OutputFile/write(_:to:)``'s name.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
