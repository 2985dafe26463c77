import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Atomic replacement is for regular files only: a device, FIFO or socket is written into and
/// stays what it was (the audit saw `-o /dev/null` turn `/dev/null` into a regular file, as root).
/// The tests write to device nodes they make themselves, never to the machine's `/dev/null`: code
/// that regressed would replace it.
@Suite("OutputFile: atomic for regular files, written into for devices and FIFOs")
struct OutputFileTests {
    static func withFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "runnect-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder.path)
    }

    static func lstatInfo(_ path: String) -> stat? {
        var info = stat()
        return lstat(path, &info) == 0 ? info : nil
    }

    static func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test(
        "a character device node the test makes (1,3: a null device) is written into, never replaced, nothing beside it",
        .deviceNodes)
    func characterDevice() throws {
        try Self.withFolder { folder in
            let node = folder + "/null"
            try #require(DeviceNode.make(node) == 0, "mknod: \(String(cString: strerror(errno)))")
            let before = try #require(Self.lstatInfo(node))
            try OutputFile.write(Data(repeating: 65, count: 100_000), to: node)
            let after = try #require(Self.lstatInfo(node))
            #expect(after.st_mode & S_IFMT == S_IFCHR && after.st_ino == before.st_ino)
            #expect(try Self.names(in: folder) == ["null"])
        }
    }

    @Test("a FIFO gets the bytes through the pipe and stays a FIFO; no temporary file beside it")
    func fifo() throws {
        try Self.withFolder { folder in
            let fifo = folder + "/pipe"
            #expect(mkfifo(fifo, 0o600) == 0)
            let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            signal(SIGPIPE, SIG_IGN)  // a reader gone early must fail the write, not end the test run
            let reader = FIFOReader(path: fifo)
            try OutputFile.write(payload, to: fifo)
            #expect(reader.result() == payload)
            #expect(Self.lstatInfo(fifo).map { $0.st_mode & S_IFMT == S_IFIFO } == true)
            #expect(try Self.names(in: folder) == ["pipe"])
        }
    }

    @Test("a regular file is replaced whole and keeps its mode; a new one gets 0644 less the umask")
    func regularFile() throws {
        try Self.withFolder { folder in
            let path = folder + "/out.geojson"
            try OutputFile.write(Data("first".utf8), to: path)
            let mask = umask(0)
            umask(mask)
            #expect(Self.lstatInfo(path).map { $0.st_mode & 0o777 } == 0o644 & ~mask)
            chmod(path, 0o640)
            let before = try #require(Self.lstatInfo(path))
            try OutputFile.write(Data("second".utf8), to: path)
            let after = try #require(Self.lstatInfo(path))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
            #expect(after.st_mode & 0o777 == 0o640)
            #expect(after.st_ino != before.st_ino, "replaced by rename, not rewritten in place")
            #expect(try Self.names(in: folder) == ["out.geojson"])
        }
    }

    @Test("a symbolic link stays a link; the file it points to is replaced")
    func symbolicLink() throws {
        try Self.withFolder { folder in
            try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/target.svg"))
            #expect(symlink("target.svg", folder + "/link.svg") == 0)
            try OutputFile.write(Data("new".utf8), to: folder + "/link.svg")
            #expect(Self.lstatInfo(folder + "/link.svg").map { $0.st_mode & S_IFMT == S_IFLNK } == true)
            #expect(try String(contentsOfFile: folder + "/target.svg", encoding: .utf8) == "new")
            #expect(try Self.names(in: folder) == ["link.svg", "target.svg"])
        }
    }

    @Test("a folder, or a folder that does not exist, is a one-line error naming the path")
    func refusals() throws {
        try Self.withFolder { folder in
            #expect(throws: OutputFileError.cannotWrite(path: folder, reason: "is a folder")) {
                try OutputFile.write(Data("x".utf8), to: folder)
            }
            let missing = folder + "/no/such/folder.svg"
            let error = try #require(throws: OutputFileError.self) { try OutputFile.write(Data("x".utf8), to: missing) }
            #expect(error.description == "cannot write \(missing): No such file or directory")
        }
    }

    @Test(
        "streamed: the file appears only once the body returns; a body that throws leaves the old file and no temporary"
    )
    func streamedWrite() throws {
        struct Refused: Error {}
        try Self.withFolder { folder in
            let path = folder + "/course.gpx"
            try OutputFile.write(to: path) { sink in
                for _ in 0..<3 { try sink.write(Data(repeating: 65, count: 40_000)) }
                #expect(!FileManager.default.fileExists(atPath: path), "visible before the body returned")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 120_000)
            #expect(throws: Refused.self) {
                try OutputFile.write(to: path) { sink in
                    try sink.write(Data("half".utf8))
                    throw Refused()
                }
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 120_000, "the old file is left")
            #expect(throws: Refused.self) {
                try OutputFile.write(to: folder + "/new.fit") { _ in throw Refused() }
            }
            #expect(try Self.names(in: folder) == ["course.gpx"], "no partial file, no temporary")
        }
    }
}
