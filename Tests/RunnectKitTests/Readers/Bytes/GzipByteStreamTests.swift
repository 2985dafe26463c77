import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// `.gz` files read transparently: the same figures as the plain file, clear errors for broken
/// ones, and a bound on what a small file may inflate to.
@Suite("gzip")
struct GzipByteStreamTests {
    /// A fresh folder, removed afterwards.
    final class Scratch {
        let folder: URL

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-gzip-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// `source` gzipped by the system's `gzip` into the scratch folder.
        func gzip(_ source: String, as name: String, level: Int = 6) throws -> String {
            let target = folder.appendingPathComponent(name)
            _ = FileManager.default.createFile(atPath: target.path, contents: nil)
            let output = try FileHandle(forWritingTo: target)
            defer { try? output.close() }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["gzip", "-c", "-\(level)", source]
            process.standardOutput = output
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return target.path
        }

        func write(_ bytes: [UInt8], as name: String) throws -> String {
            let target = folder.appendingPathComponent(name)
            try Data(bytes).write(to: target)
            return target.path
        }
    }

    static let sampleFiles = [
        SampleTracks.path("banpo_hangang_night_run.gpx"), SampleTracks.path("namsan_loop_two_segments.gpx"),
        SampleTracks.path("seokchon_lake_tapped.json"),
    ]

    static var corpusFiles: [String] {
        (SharedCorpus.files(format: "tcx") + SharedCorpus.files(format: "fit") + ["gpx/garmin_fr945_run_sloatsburg.gpx"])
            .map { SharedCorpus.url($0).path }
    }

    @Test("a sample gzipped at test time reads exactly as the plain file", arguments: sampleFiles)
    func sampleSameAsPlain(_ path: String) throws {
        try sameAsPlain(path)
    }

    @Test("a corpus file gzipped at test time reads exactly as the plain file", .sharedCorpus, arguments: corpusFiles)
    func corpusSameAsPlain(_ path: String) throws {
        try sameAsPlain(path)
    }

    private func sameAsPlain(_ path: String) throws {
        let scratch = try Scratch()
        let gzipped = try scratch.gzip(path, as: (path as NSString).lastPathComponent + ".gz")
        let plain = try ActivityReader.readAll(path: path)
        let inflated = try ActivityReader.readAll(path: gzipped)
        // Compared as text: trackpoints without a position hold NaN, which is never == itself.
        let same = String(describing: inflated) == String(describing: plain)
        #expect(same, "the gzipped file reads differently from \(path)")
        #expect(
            inflated.map { $0.tracks.flatMap(\.segments).map(\.points.count) }
                == plain.map { $0.tracks.flatMap(\.segments).map(\.points.count) })
        let options = StatsOptions(includeSplits: true, includeSegments: true)
        #expect(inflated.map { $0.stats(options: options) } == plain.map { $0.stats(options: options) })
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test("a corrupt or truncated gzip file is a one-line error naming the byte")
    func corruptAndTruncated() throws {
        let scratch = try Scratch()
        let good = try Self.bytes(try scratch.gzip(SampleTracks.path("banpo_hangang_night_run.gpx"), as: "run.gpx.gz"))

        var corrupt = good
        for i in stride(from: 200, to: 260, by: 1) { corrupt[i] ^= 0x5A }
        let corruptError = try #require(throws: ReadError.self) {
            try ActivityReader.read(path: try scratch.write(corrupt, as: "corrupt.gpx.gz"))
        }
        #expect(corruptError.description.contains("corrupt gzip data near byte"), "\(corruptError)")
        #expect(!corruptError.description.contains("\n"))

        // A flipped byte in the CRC-32 trailer: the content inflates, the check fails.
        var badCRC = good
        badCRC[badCRC.count - 6] ^= 0xFF
        let crcError = try #require(throws: ReadError.self) {
            try ActivityReader.read(path: try scratch.write(badCRC, as: "crc.gpx.gz"))
        }
        #expect(crcError.description.contains("incorrect data check"), "\(crcError)")

        let truncated = Array(good.prefix(good.count / 2))
        let truncatedError = try #require(throws: ReadError.self) {
            try ActivityReader.read(path: try scratch.write(truncated, as: "truncated.gpx.gz"))
        }
        #expect(
            truncatedError.description
                == "truncated gzip file: the compressed data ends at byte \(truncated.count) before the end of the stream",
            "\(truncatedError)")

        let headerOnly = try #require(throws: ReadError.self) {
            try ActivityReader.read(path: try scratch.write(Array(good.prefix(12)), as: "header.gpx.gz"))
        }
        #expect(headerOnly.description.contains("truncated gzip file"), "\(headerOnly)")

        let trailing = try #require(throws: ReadError.self) {
            try ActivityReader.read(path: try scratch.write(good + Array("junk".utf8), as: "trailing.gpx.gz"))
        }
        #expect(trailing.description.contains("after the end of the gzip stream"), "\(trailing)")
        // Zero padding after the stream is accepted, as gzip does.
        #expect(
            try ActivityReader.read(path: try scratch.write(good + [0, 0, 0, 0], as: "padded.gpx.gz")).tracks.count == 1
        )
    }

    @Test("a gzip bomb is refused at the limit, with bounded memory")
    func bomb() throws {
        let scratch = try Scratch()
        // 64 MiB of spaces inside <gpx>: 64 KiB gzipped.
        let inner = scratch.folder.appendingPathComponent("bomb.gpx")
        _ = FileManager.default.createFile(atPath: inner.path, contents: nil)
        let handle = try FileHandle(forWritingTo: inner)
        handle.write(Data("<gpx>".utf8))
        let spaces = Data(repeating: 0x20, count: 1 << 20)
        for _ in 0..<64 { handle.write(spaces) }
        handle.write(Data("</gpx>".utf8))
        try handle.close()
        let bomb = try scratch.gzip(inner.path, as: "bomb.gpx.gz", level: 9)
        let compressed = try Self.bytes(bomb).count
        #expect(compressed < 100_000)

        let limit = 8 << 20
        let error = try #require(throws: ReadError.self) {
            try ActivityReader.readAll(from: FileByteStream(path: bomb), inflateLimit: limit)
        }
        #expect(error == .tooLarge(limitBytes: limit))

        // The stream itself: exactly the limit is fine, one byte more is refused.
        let size = (64 << 20) + 11
        #expect(try drain(GzipByteStream(FileByteStream(path: bomb), maxOutputBytes: size)) == size)
        #expect(throws: ReadError.tooLarge(limitBytes: size - 1)) {
            try drain(GzipByteStream(FileByteStream(path: bomb), maxOutputBytes: size - 1))
        }
        #expect(GzipByteStream.defaultMaxOutputBytes == 1 << 30)
    }

    @Test("concatenated gzip members read as one stream; gzip inside gzip is refused")
    func members() throws {
        let scratch = try Scratch()
        let a = scratch.folder.appendingPathComponent("a.txt")
        let b = scratch.folder.appendingPathComponent("b.txt")
        try "37.5,127.0 ".write(to: a, atomically: true, encoding: .utf8)
        try "37.51,127.01".write(to: b, atomically: true, encoding: .utf8)
        let joined =
            try Self.bytes(try scratch.gzip(a.path, as: "a.gz")) + Self.bytes(try scratch.gzip(b.path, as: "b.gz"))
        let activity = try ActivityReader.read(path: try scratch.write(joined, as: "ab.gz"))
        #expect(activity.routes.first?.points.count == 2)

        let twice = try scratch.gzip(try scratch.gzip(a.path, as: "once.gz"), as: "twice.gz")
        let error = try #require(throws: ReadError.self) { try ActivityReader.read(path: twice) }
        #expect(error.description.contains("gzip file inside a gzip file"), "\(error)")
    }

    /// Reads a stream to its end; returns the byte count.
    private func drain(_ stream: ByteStream) throws -> Int {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            if n == 0 { return total }
            total += n
        }
    }

    @Test("a gzip file whose checksum is wrong is reported as corrupt even where its content breaks first")
    func corruptBeforeContentError() throws {
        // Found by the XML fuzz target: 2 MiB inflate in two reads of the XML scanner, and the
        // mismatched tag in the first one was reported, not the corruption the trailer shows.
        let content = Array(("<gpx><trk></trkseg>" + String(repeating: " ", count: 2 << 20) + "</gpx>").utf8)
        var bytes: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]  // gzip header, deflate, no name
        var offset = 0
        while offset < content.count {  // stored (uncompressed) deflate blocks
            let n = min(65_535, content.count - offset)
            bytes.append(offset + n == content.count ? 1 : 0)
            bytes += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            bytes += content[offset..<(offset + n)]
            offset += n
        }
        let size = UInt32(content.count)
        bytes += [0, 0, 0, 0] + [0, 8, 16, 24].map { UInt8((size >> UInt32($0)) & 0xFF) }  // CRC-32 0: wrong
        let error = try #require(throws: ReadError.self) { try ActivityReader.readAll(from: MemoryByteStream(bytes)) }
        #expect(error.description.contains("incorrect data check"), "\(error)")
    }
}
