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
        try write(to: path) { try $0.write(data) }
    }

    /// Writes a file by the rules above from what `body` hands its sink, a chunk at a time: the
    /// file's text never needs to be in memory whole.
    ///
    /// A regular or missing file appears only once `body` returned: when `body` throws, the
    /// temporary file is removed and the old file (if any) is left as it was.
    ///
    /// ```swift
    /// try OutputFile.write(to: "course.gpx") { sink in try GPXWriter().write(activity, to: &sink) }
    /// ```
    /// - Parameters:
    ///   - path: The file to write.
    ///   - body: Writes the file's bytes into the sink it is given.
    /// - Throws: ``OutputFileError``, naming the path and the system's reason, or what `body` threw.
    public static func write(to path: String, _ body: (inout FileDescriptorSink) throws -> Void) throws {
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
            try writeInPlace(to: target, naming: path, body)
        case .missing, .regular:
            try replaceAtomically(at: target, naming: path, body)
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
    private static func writeInPlace(
        to target: String, naming path: String, _ body: (inout FileDescriptorSink) throws -> Void
    ) throws {
        let fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputFileError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        var sink = FileDescriptorSink(fileDescriptor: fd, name: path)
        do {
            try body(&sink)
        } catch {
            close(fd)
            throw error
        }
        if close(fd) != 0 {
            throw OutputFileError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Writes `.<name>.<pid>.tmp` beside `target` and renames it over `target`.
    private static func replaceAtomically(
        at target: String, naming path: String, _ body: (inout FileDescriptorSink) throws -> Void
    ) throws {
        let url = URL(fileURLWithPath: target)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        var existing = stat()
        let mode: mode_t = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
        // O_EXCL: a name already there (a link planted by someone else) is never written through.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw OutputFileError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        var sink = FileDescriptorSink(fileDescriptor: fd, name: path)
        do {
            try body(&sink)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        var failure: Int32?
        if existing.st_mode != 0, fchmod(fd, mode) != 0 { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, target) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw OutputFileError.cannotWrite(path: path, reason: String(cString: strerror(failure)))
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
