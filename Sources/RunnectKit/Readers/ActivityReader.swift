/// Reads any supported file, detecting the format from the content, never from the name.
///
/// Detection looks at the first bytes: XML whose root element is `<gpx>` is GPX, one whose root is
/// `<TrainingCenterDatabase>` is TCX; a JSON array or object is a tapped-points course or GeoJSON;
/// text starting with a number is a `lat,lon` list; gzip is inflated and detected again.
public enum ActivityReader {
    /// Bytes looked at to detect the format (the start of the stream is replayed to the reader).
    static let sniffLength = 4096
    /// Text courses are read whole and JSON ones streamed; they are untrusted, so both are bounded.
    public static let maxTextCourseBytes = 64 << 20

    /// Reads the file at `path` (`-` for standard input) as one activity: a file holding several
    /// (a TCX file with several `<Activity>`s) gives them merged (see ``Activity/merging(_:format:)``).
    /// - Parameters:
    ///   - path: The file, or `-` for standard input.
    ///   - parallel: Whether a large GPX file may be read on two threads (see
    ///     ``readAll(path:parallel:)``).
    /// - Throws: ``ReadError``.
    public static func read(path: String, parallel: Bool = true) throws -> Activity {
        let all = try readAll(path: path, parallel: parallel)
        return all.count == 1 ? all[0] : Activity.merging(all, format: all[0].format)
    }

    /// Reads from any byte stream, as ``read(path:parallel:)``; a gzip stream inflates to at
    /// most `inflateLimit` bytes (see ``readAll(from:inflateLimit:)``).
    public static func read(
        from stream: ByteStream, inflateLimit: Int = GzipByteStream.defaultMaxOutputBytes
    ) throws -> Activity {
        let all = try readAll(from: stream, inflateLimit: inflateLimit)
        return all.count == 1 ? all[0] : Activity.merging(all, format: all[0].format)
    }

    /// Reads every activity of the file at `path` (`-` for standard input), in file order: one for
    /// most files, one per `<Activity>` or `<Course>` of a TCX file.
    ///
    /// A plain GPX file of a few megabytes or more is read on two threads, in two parts joined at
    /// a track point near its middle, unless `parallel` is false (the caller already keeps the
    /// cores busy, reading several files at once). The result is the same either way, warnings
    /// and errors included: a file whose parts do not join cleanly is read whole.
    /// - Parameters:
    ///   - path: The file, or `-` for standard input.
    ///   - parallel: Whether a large GPX file may be read on two threads.
    /// - Throws: ``ReadError``.
    public static func readAll(path: String, parallel: Bool = true) throws -> [Activity] {
        try readAll(from: FileByteStream(path: path), parallel: parallel)
    }

    /// Reads every activity of a byte stream, as ``readAll(path:parallel:)``.
    ///
    /// A gzip stream (RFC 1952, detected by its magic bytes) is inflated as it is read and its
    /// content detected again, so `.gpx.gz`, `.tcx.gz` and `.fit.gz` read like the plain files.
    /// The inflated size is bounded by `inflateLimit` (see ``GzipByteStream``). Control
    /// characters in the file's text are replaced (``Activity/replacingControlCharacters()``).
    /// - Throws: ``ReadError``.
    public static func readAll(
        from stream: ByteStream,
        inflateLimit: Int = GzipByteStream.defaultMaxOutputBytes
    ) throws -> [Activity] {
        try readAll(from: stream, inflateLimit: inflateLimit, parallel: false)
    }

    /// `parallel`: a regular file's large GPX may be read in two parts (``readAll(path:parallel:)``).
    static func readAll(
        from stream: ByteStream, inflateLimit: Int = GzipByteStream.defaultMaxOutputBytes, parallel: Bool
    )
        throws -> [Activity]
    {
        try readAll(from: stream, inflateLimit: inflateLimit, insideGzip: false, parallel: parallel).map {
            $0.replacingControlCharacters()
        }
    }

    private static func readAll(from stream: ByteStream, inflateLimit: Int, insideGzip: Bool, parallel: Bool)
        throws -> [Activity]
    {
        let head = try stream.readPrefix(count: sniffLength)
        let replay = PrefixedByteStream(prefix: head, rest: stream)
        switch detect(head) {
        case .gzip:
            guard !insideGzip else { throw ReadError.unrecognizedFormat("a gzip file inside a gzip file") }
            let inflated = try GzipByteStream(replay, maxOutputBytes: inflateLimit)
            do {
                return try readAll(from: inflated, inflateLimit: inflateLimit, insideGzip: true, parallel: false)
            } catch {
                // A corrupt gzip file inflates to garbage before its checksum is reached: when the
                // reader stopped at the garbage, say the file is corrupt, as a read in one piece would.
                var scratch = [UInt8](repeating: 0, count: 64 << 10)
                while try scratch.withUnsafeMutableBytes({ try inflated.read(into: $0) }) > 0 {}
                throw error
            }
        case .gpx:
            // The parts are read with pread(2) from the file's start, whatever `stream` has read.
            if parallel, let file = stream as? FileByteStream, let size = file.regularFileSize,
                size >= GPXReader.splitThresholdBytes,
                let activity = GPXReader.readSplit(descriptor: file.descriptor, size: size)
            {
                return [activity]
            }
            return [try GPXReader().read(from: replay, expectedBytes: (stream as? FileByteStream)?.regularFileSize)]
        case .tcx:
            return try TCXReader().readAll(from: replay)
        case .json:
            return [try TappedPointsReader.read(json: replay, maxBytes: maxTextCourseBytes)]
        case .pointsText:
            let bytes = try replay.readAll(limit: maxTextCourseBytes)
            return [try TappedPointsReader.read(text: String(decoding: bytes, as: UTF8.self))]
        case .fit:
            return [try FITReader().read(from: replay)]
        case .unsupported(let what):
            throw ReadError.unrecognizedFormat(what)
        }
    }

    enum Detected: Equatable {
        case gpx, tcx, gzip, json, pointsText, fit
        case unsupported(String)
    }

    static func detect(_ head: [UInt8]) -> Detected {
        if head.isEmpty { return .unsupported("the file is empty") }
        if head.count >= 2, head[0] == 0x1F, head[1] == 0x8B {
            return .gzip
        }
        if head.count >= 12, head[8] == UInt8(ascii: "."), head[9] == UInt8(ascii: "F"),
            head[10] == UInt8(ascii: "I"), head[11] == UInt8(ascii: "T")
        {
            return .fit
        }
        var i = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 }
        guard i < head.count else { return .unsupported("the file holds only whitespace") }
        switch head[i] {
        case UInt8(ascii: "<"):
            switch rootElementName(head[i...]) {
            case nil, "gpx": return .gpx  // the GPX reader names a root it cannot read
            case "TrainingCenterDatabase": return .tcx
            case let other?: return .unsupported("XML with root element <\(other)> is not GPX")
            }
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            return .json
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            return .pointsText
        default:
            return .unsupported("not GPX, a points list or JSON")
        }
    }

    /// The local name of the first element, skipping declarations, comments and DOCTYPE.
    private static func rootElementName(_ bytes: ArraySlice<UInt8>) -> String? {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            guard let lt = bytes[i...].firstIndex(of: UInt8(ascii: "<")), lt + 1 < bytes.endIndex else { return nil }
            let next = bytes[lt + 1]
            if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") {
                let isComment = bytes[lt...].starts(with: Array("<!--".utf8))
                let terminator = isComment ? Array("-->".utf8) : [UInt8(ascii: ">")]
                guard let close = find(terminator, in: bytes, from: lt + 2) else { return nil }
                i = close + terminator.count
                continue
            }
            var j = lt + 1
            while j < bytes.endIndex,
                ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[j])
            {
                j += 1
            }
            guard j < bytes.endIndex else { return nil }
            let name = String(decoding: bytes[(lt + 1)..<j], as: UTF8.self)
            return name.split(separator: ":").last.map(String.init) ?? name
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard start < bytes.endIndex else { return nil }
        var i = start
        while i + needle.count <= bytes.endIndex {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
