import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A large GPX file read on two cores: the bytes are cut at a `<trkpt` start tag near the middle,
/// the second part is parsed on another thread as if it started inside a `<trkseg>`, and the
/// first part's parse, stopped at the cut, confirms that it really did.
///
/// The second part's parse is speculative. The first part, read from the start of the file as the
/// whole document would be, ends at the cut; the parts are joined only when its parse stopped
/// between markup (not inside a comment, CDATA, a processing instruction or a tag, which the end
/// of its bytes makes an error) inside exactly the elements the second part assumed, named as it
/// assumed (prefixes included), with no field's text being captured. From that state the whole
/// document's parse would read the second part's bytes token for token as the second part did. An
/// error in either part, a part that set what the other may have set too (the document's
/// metadata, the name or type of the track that spans the cut), or an extension value left out in
/// the second part (its message names a line the second part does not know) gives `nil`: the
/// caller then reads the file whole, so every error and warning is the whole read's, line and
/// column included.
///
/// Memory stays that of a streamed read: each part reads its range in chunks with `pread(2)`.
extension GPXReader {
    /// Files smaller than this are read whole. A bound on the safe side, not a measured break-even:
    /// 4 MB parse in about 4 ms on each of two cores where a thread costs about 0.1 ms, and the
    /// files read by the thousand (one-hour runs, 0.6 MB) stay on one core each.
    static let splitThresholdBytes = 4 << 20

    /// Where the cut is looked for from, percent of the file: a little past the middle, so that
    /// the second part (which starts a thread first) is done a little before the first and
    /// readies the pages the join copies into (big.gpx, whole `runnect stats` process, best of 15:
    /// 47 %: 0.132 s, 50 %: 0.128 s, 52 %: 0.126 s, 56 %: 0.133 s).
    static let cutPercent = 52

    /// Bytes searched for a `<trkpt` start tag from there on.
    static let splitSearchBytes = 256 << 10

    /// Reads the regular file open as `descriptor`, `size` bytes, in two parts on two threads.
    /// - Returns: the activity, as the whole read gives it; `nil` when the file has no `<trkpt`
    ///   near its middle, or the parts cannot be joined (see the extension's discussion): read it
    ///   whole then.
    /// - Parameter searchFrom: where to look for the cut from (tests); ``cutPercent`` of the file
    ///   by default.
    static func readSplit(descriptor: Int32, size: Int, searchFrom: Int? = nil) -> Activity? {
        guard let cut = findCut(descriptor: descriptor, size: size, from: searchFrom ?? size / 100 * cutPercent) else {
            return nil
        }
        let prefix = cut.prefix
        let openNames = [prefix + Array("gpx".utf8), prefix + Array("trk".utf8), prefix + Array("trkseg".utf8)]

        let scanner = XMLScanner(stream: FileRangeByteStream(descriptor: descriptor, start: 0, end: cut.offset))
        scanner.stopsAtEndOfStream = true
        scanner.window.tracksLines = false
        let first = GPXParser(scanner: scanner)
        first.isPart = true
        // Sized for the whole file's points: the second part's are appended in place.
        first.expectedBytes = size
        let storage = ReservedStorage()
        first.reserved = { storage.set($0, $1) }
        // The second part on another thread, the first on this one.
        let (second, firstRead) = InParallel.run(
            { () -> GPXParser? in
                // A smaller token limit than the whole read's: whatever this part accepts, the
                // whole read accepts too (a token it refuses sends the file to the whole read).
                let scanner = XMLScanner(
                    stream: FileRangeByteStream(descriptor: descriptor, start: cut.offset, end: size),
                    maxTokenBytes: 32 << 20)
                scanner.assumeOpen(openNames)
                scanner.window.tracksLines = false  // an error here is never shown: the file is read whole
                let parser = GPXParser(scanner: scanner)
                parser.expectedBytes = size - cut.offset
                parser.contexts = [.gpx, .track, .segment]
                parser.hasOpenSegment = true
                parser.continuesTrack = true
                parser.isPart = true
                guard (try? parser.parse()) != nil else { return nil }
                // Done first (as the cut is placed): the pages the join will copy this part's
                // first points into are readied now, not after both parts.
                let count = parser.activity.tracks.first?.segments.first?.points.count ?? 0
                storage.readyTail(bytes: count * MemoryLayout<TrackPoint>.stride)
                return parser
            },
            { (try? first.parse()) != nil })

        guard firstRead, scanner.stoppedInsideRoot, first.field == nil, first.hasOpenSegment,
            first.contexts == [.gpx, .track, .segment], scanner.openNames == openNames,
            let last = second, !last.setSharedState, last.skipped.count == 0,
            !last.activity.tracks.isEmpty
        else { return nil }
        return join(first, last)
    }

    /// The activity of the whole document from its two parts' parsers.
    private static func join(_ first: GPXParser, _ last: GPXParser) -> Activity {
        var activity = first.activity
        let rest = last.activity
        // The track open at the cut: its segments before the cut, the one open at the cut (the
        // first part's points, then the second's), then its segments after.
        var track = first.track
        let continued = rest.tracks[0]
        var points = first.segment
        first.segment = []  // the only reference left: the second part's points are appended in place
        points.append(contentsOf: continued.segments[0].points)
        track.segments.append(TrackSegment(points: points))
        track.segments += continued.segments.dropFirst()
        activity.tracks.append(track)
        activity.tracks += rest.tracks.dropFirst()
        activity.routes += rest.routes
        activity.waypoints += rest.waypoints

        let warnings = GPXParser.warnings(
            sawZonelessTime: first.sawZonelessTime || last.sawZonelessTime, skipped: first.skipped)
        // The times go back nowhere when they go back in neither part nor from one to the other:
        // then the whole check (TimeOrder) finds nothing to say.
        if !first.timeSpan.followed(by: last.timeSpan) { activity.warnAboutTimesGoingBack() }
        activity.warnings += warnings
        return activity
    }

    /// Where the second part starts: the `<` of the first `trkpt` start tag (any prefix) from
    /// byte `start` on, and the tag's prefix (`gpx:` in `<gpx:trkpt`, else empty).
    static func findCut(descriptor: Int32, size: Int, from start: Int) -> (offset: Int, prefix: [UInt8])? {
        guard start > 0 else { return nil }
        let count = min(splitSearchBytes, size - start)
        guard count > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { buffer in
            (try? FileRangeByteStream(descriptor: descriptor, start: start, end: start + count).readFully(into: buffer))
                ?? 0
        }
        return findCut(in: bytes[..<read]).map { (start + $0.offset, $0.prefix) }
    }

    /// The first `<trkpt` or `<prefix:trkpt` start tag in `bytes` whose name ends inside them.
    static func findCut(in bytes: ArraySlice<UInt8>) -> (offset: Int, prefix: [UInt8])? {
        let trkpt = Array("trkpt".utf8)
        var i = bytes.startIndex
        while let lt = bytes[i...].firstIndex(of: UInt8(ascii: "<")) {
            var j = lt + 1
            while j < bytes.endIndex, !isNameEnd(bytes[j]) { j += 1 }
            guard j < bytes.endIndex else { return nil }
            let name = bytes[(lt + 1)..<j]
            if name.count >= trkpt.count, name.suffix(trkpt.count).elementsEqual(trkpt) {
                let prefix = Array(name.dropLast(trkpt.count))
                if prefix.isEmpty || (prefix.last == UInt8(ascii: ":") && prefix.count > 1) {
                    return (lt - bytes.startIndex, prefix)
                }
            }
            i = lt + 1
        }
        return nil
    }

    private static func isNameEnd(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "<")
    }
}

/// Where the first part reserved the storage of the segment that spans the cut, for the second
/// part to ready its tail's pages (`MADV_POPULATE_WRITE`, Linux 5.14) while the first part
/// finishes: the join then copies into memory already there, instead of page-faulting it in
/// (about 3,000 faults for big.gpx's 100,000 points after the cut) after both parts.
///
/// Readying pages changes no byte in them and any part of the range may be in use, or no longer
/// mapped (the storage grew past the estimate and moved): the call is only a hint, and its error is
/// ignored.
private final class ReservedStorage: @unchecked Sendable {
    private let lock = NSLock()
    private var start: UnsafeRawPointer?
    private var bytes = 0

    func set(_ start: UnsafeRawPointer, _ bytes: Int) {
        lock.lock()
        (self.start, self.bytes) = (start, bytes)
        lock.unlock()
    }

    /// Readies the last `bytes` of the storage, and a little before them (the estimate's margin).
    func readyTail(bytes wanted: Int) {
        lock.lock()
        let (start, bytes) = (self.start, self.bytes)
        lock.unlock()
        #if os(Linux)
            guard let start, wanted > 0 else { return }
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let from = max(bytes - wanted - bytes / 32, 0)
            let first = (Int(bitPattern: start) + from + page - 1) / page * page
            let end = (Int(bitPattern: start) + bytes) / page * page
            guard end > first else { return }
            let populateWrite: Int32 = 23  // MADV_POPULATE_WRITE
            _ = madvise(UnsafeMutableRawPointer(bitPattern: first), end - first, populateWrite)
        #endif
    }
}

extension FileRangeByteStream {
    /// Reads until `buffer` is full or the range ends; the bytes read.
    func readFully(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if n == 0 { break }
            filled += n
        }
        return filled
    }
}
