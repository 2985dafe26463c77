#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Receives what ``FITDecoder`` reads, in file order.
protocol FITMessageHandler {
    /// A FIT file begins (the first one, or the next one of a chain) at `byteOffset`.
    mutating func fileBegins(index: Int, byteOffset: Int)
    /// One data message; its bytes are valid only during the call.
    mutating func message(_ message: FITDataMessage)
}

/// Where and why decoding stopped before the end of a file.
struct FITDamage: Error, Equatable {
    /// Offset of the first byte that could not be decoded, from the start of the stream.
    var byteOffset: Int
    var reason: String
}

/// What ``FITDecoder/decode(into:)`` found besides the messages.
struct FITDecodeOutcome {
    /// FIT files decoded (more than one for chained files).
    var fileCount = 0
    /// Problems that did not stop decoding: CRC mismatches, bytes after the last file.
    var warnings: [String] = []
    /// Set when decoding stopped at damage (truncation, an undefined local message, …); the
    /// messages before it were delivered.
    var damage: FITDamage?
}

/// A streaming decoder of the FIT protocol: file headers (12 or 14 bytes), header and file
/// CRCs, definition and data messages in either byte order, compressed-timestamp record
/// headers, developer fields (skipped by their declared size) and chained files.
///
/// The stream is read in chunks into one buffer of ``bufferBytes``, which always holds the
/// longest message a definition can declare: memory does not grow with the file. Every size read
/// from the file (header length, data size, field counts and sizes) is checked against what the
/// protocol allows and against the bytes that are left before it is used.
final class FITDecoder {
    static let bufferBytes = 1 << 20
    /// Seconds from the Unix epoch to the FIT epoch, 1989-12-31T00:00:00Z.
    static let epochOffsetSeconds: Double = 631_065_600
    /// Smaller `date_time` values are relative times (seconds since the device powered up).
    static let minimumAbsoluteTimestamp: UInt32 = 0x1000_0000

    private let stream: ByteStream
    private let buffer: UnsafeMutableRawPointer
    /// Valid bytes are `buffer[start..<end]`; `buffer[0]` is byte `bufferOrigin` of the stream.
    private var start = 0
    private var end = 0
    private var bufferOrigin = 0
    private var streamEnded = false
    /// CRC of the current file's bytes consumed so far.
    private var crc: UInt16 = 0

    private var definitions = [FITMessageDefinition?](repeating: nil, count: 16)
    private var lastTimestamp: UInt32?

    init(stream: ByteStream) {
        assert(Self.bufferBytes >= FITMessageDefinition.maximumDataMessageBytes, "a message must fit in the buffer")
        self.stream = stream
        buffer = .allocate(byteCount: Self.bufferBytes, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// Offset of the next byte to decode, from the start of the stream.
    private var offset: Int { bufferOrigin + start }

    /// Decodes every file of the stream.
    /// - Throws: ``FITDamage`` when the stream does not start with a FIT file header, and the
    ///   stream's own errors; damage after the first header ends decoding with
    ///   ``FITDecodeOutcome/damage`` set instead.
    func decode<Handler: FITMessageHandler>(into handler: inout Handler) throws -> FITDecodeOutcome {
        var outcome = FITDecodeOutcome()
        try decodeFiles(into: &handler, &outcome)
        if suppressedWarnings > 0 {
            outcome.warnings.append("\(suppressedWarnings) more warning(s) like these were left out")
        }
        return outcome
    }

    /// Warnings kept; a stream of many small damaged files must not make a warning per file.
    static let maximumWarnings = 20
    private var suppressedWarnings = 0

    private func warn(_ warning: String, _ outcome: inout FITDecodeOutcome) {
        if outcome.warnings.count < Self.maximumWarnings {
            outcome.warnings.append(warning)
        } else {
            suppressedWarnings += 1
        }
    }

    private func decodeFiles<Handler: FITMessageHandler>(
        into handler: inout Handler,
        _ outcome: inout FITDecodeOutcome
    ) throws {
        while true {
            let headerOffset = offset
            guard try available(1) else {
                if outcome.fileCount == 0 { throw FITDamage(byteOffset: 0, reason: "the file is empty") }
                return
            }
            let dataBytes: Int
            do {
                dataBytes = try readFileHeader(&outcome)
            } catch let damage as FITDamage {
                if outcome.fileCount == 0 { throw damage }
                let trailing = try skipToEnd()
                warn(
                    "\(trailing) byte(s) after the FIT data ending at byte \(headerOffset) "
                        + "are not a FIT file and were ignored", &outcome)
                return
            }
            handler.fileBegins(index: outcome.fileCount, byteOffset: headerOffset)
            outcome.fileCount += 1
            definitions = [FITMessageDefinition?](repeating: nil, count: 16)
            lastTimestamp = nil
            do {
                try decodeMessages(until: offset + dataBytes, into: &handler)
            } catch let damage as FITDamage {
                outcome.damage = damage
                return
            }
            let computed = crc
            guard try available(2) else {
                warn("the file ends at byte \(offset) without the CRC of its data", &outcome)
                return
            }
            let stored = UInt16(littleEndian: buffer.loadUnaligned(fromByteOffset: start, as: UInt16.self))
            if stored != computed {
                warn(
                    "CRC mismatch for the FIT data ending at byte \(offset): the file says "
                        + "\(hex(stored)), the bytes give \(hex(computed)); figures read anyway", &outcome)
            }
            consume(2)
        }
    }

    // MARK: - File header

    /// Reads and checks a file header; returns the size of the data that follows it.
    private func readFileHeader(_ outcome: inout FITDecodeOutcome) throws -> Int {
        let headerOffset = offset
        let headerBytes = Int(buffer.load(fromByteOffset: start, as: UInt8.self))
        guard headerBytes >= 12 else {
            throw FITDamage(
                byteOffset: headerOffset,
                reason: "not a FIT file header (header size \(headerBytes), "
                    + "expected 12 or 14)")
        }
        guard try available(headerBytes) else {
            throw FITDamage(byteOffset: headerOffset, reason: "the file ends inside the \(headerBytes)-byte FIT header")
        }
        let signature = (8..<12).map { buffer.load(fromByteOffset: start + $0, as: UInt8.self) }
        guard signature == Array(".FIT".utf8) else {
            throw FITDamage(byteOffset: headerOffset + 8, reason: "not a FIT file (no \".FIT\" signature)")
        }
        let protocolVersion = buffer.load(fromByteOffset: start + 1, as: UInt8.self)
        if protocolVersion >> 4 > 2 {
            warn(
                "FIT protocol version \(protocolVersion >> 4).\(protocolVersion & 0x0F) at byte \(headerOffset + 1) "
                    + "is newer than 2.x; read as 2.x", &outcome)
        }
        let dataBytes = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self)))
        if headerBytes >= 14 {
            let stored = UInt16(littleEndian: buffer.loadUnaligned(fromByteOffset: start + 12, as: UInt16.self))
            let computed = FITCRC.update(0, buffer + start, count: 12)
            if stored != 0 && stored != computed {
                warn(
                    "header CRC mismatch at byte \(headerOffset + 12): the file says "
                        + "\(hex(stored)), the header gives \(hex(computed))", &outcome)
            }
        }
        crc = 0
        consume(headerBytes)
        return dataBytes
    }

    // MARK: - Messages

    private func decodeMessages<Handler: FITMessageHandler>(until dataEnd: Int, into handler: inout Handler) throws {
        while offset < dataEnd {
            guard try available(1) else { throw truncated(dataEnd) }
            let header = buffer.load(fromByteOffset: start, as: UInt8.self)
            if header & 0x80 != 0 {
                // Compressed timestamp: local type in bits 5–6, seconds in bits 0–4.
                try decodeData(
                    local: Int((header >> 5) & 0x03), timeOffset: UInt32(header & 0x1F),
                    dataEnd: dataEnd, into: &handler)
            } else if header & 0x40 != 0 {
                try decodeDefinition(
                    local: Int(header & 0x0F), hasDeveloperFields: header & 0x20 != 0, dataEnd: dataEnd)
            } else {
                try decodeData(local: Int(header & 0x0F), timeOffset: nil, dataEnd: dataEnd, into: &handler)
            }
        }
    }

    private func decodeDefinition(local: Int, hasDeveloperFields: Bool, dataEnd: Int) throws {
        let messageOffset = offset
        // header, reserved, architecture, global number (2), field count
        guard try available(6) else { throw truncated(dataEnd) }
        let architecture = buffer.load(fromByteOffset: start + 2, as: UInt8.self)
        guard architecture <= 1 else {
            throw FITDamage(
                byteOffset: messageOffset + 2,
                reason: "definition message with architecture "
                    + "\(architecture) (0 little-endian or 1 big-endian expected)")
        }
        let isBigEndian = architecture == 1
        let rawGlobal = buffer.loadUnaligned(fromByteOffset: start + 3, as: UInt16.self)
        let globalNumber = isBigEndian ? UInt16(bigEndian: rawGlobal) : UInt16(littleEndian: rawGlobal)
        let fieldCount = Int(buffer.load(fromByteOffset: start + 5, as: UInt8.self))
        var length = 6 + 3 * fieldCount
        guard try available(length + (hasDeveloperFields ? 1 : 0)) else { throw truncated(dataEnd) }
        var developerCount = 0
        if hasDeveloperFields {
            developerCount = Int(buffer.load(fromByteOffset: start + length, as: UInt8.self))
            length += 1 + 3 * developerCount
            guard try available(length) else { throw truncated(dataEnd) }
        }
        guard messageOffset + length <= dataEnd else { throw overrun(messageOffset, length, dataEnd) }

        var fields: [FITMessageDefinition.Field] = []
        fields.reserveCapacity(fieldCount)
        var fieldOffset = 0
        for index in 0..<fieldCount {
            let at = start + 6 + 3 * index
            let size = Int(buffer.load(fromByteOffset: at + 1, as: UInt8.self))
            fields.append(
                .init(
                    number: buffer.load(fromByteOffset: at, as: UInt8.self), offset: fieldOffset, size: size,
                    baseType: FITBaseType(definitionByte: buffer.load(fromByteOffset: at + 2, as: UInt8.self))))
            fieldOffset += size
        }
        var developerBytes = 0
        for index in 0..<developerCount {
            developerBytes += Int(
                buffer.load(fromByteOffset: start + 6 + 3 * fieldCount + 1 + 3 * index + 1, as: UInt8.self))
        }
        definitions[local] = FITMessageDefinition(
            globalNumber: globalNumber, isBigEndian: isBigEndian,
            fields: fields, developerBytes: developerBytes)
        consume(length)
    }

    private func decodeData<Handler: FITMessageHandler>(
        local: Int, timeOffset: UInt32?, dataEnd: Int,
        into handler: inout Handler
    ) throws {
        let messageOffset = offset
        guard let definition = definitions[local] else {
            throw FITDamage(
                byteOffset: messageOffset,
                reason: "data message of local type \(local), "
                    + "which no definition message declared")
        }
        let length = 1 + definition.contentBytes
        guard messageOffset + length <= dataEnd else { throw overrun(messageOffset, length, dataEnd) }
        guard try available(length) else { throw truncated(dataEnd) }

        let message = FITDataMessage(
            definition: definition, bytes: UnsafeRawPointer(buffer + start + 1), timestamp: nil)
        var timestamp: UInt32?
        if let field = message.integer(FITProfile.timestampField) {
            timestamp = UInt32(truncatingIfNeeded: field)
            lastTimestamp = timestamp
        } else if let timeOffset, let last = lastTimestamp {
            // The offset replaces the low five bits of the last timestamp, rolling over forwards.
            // A roll-over past the largest `date_time` (2126) would wrap to 1989 and run time
            // backwards: such a message has no time, and the ones after it none either.
            let (next, overflow) = (last & ~0x1F | timeOffset)
                .addingReportingOverflow(timeOffset < last & 0x1F ? 0x20 : 0)
            timestamp = overflow ? nil : next
            lastTimestamp = timestamp
        }
        handler.message(FITDataMessage(definition: definition, bytes: message.bytes, timestamp: timestamp))
        consume(length)
    }

    // MARK: - Errors

    private func truncated(_ dataEnd: Int) -> FITDamage {
        FITDamage(
            byteOffset: bufferOrigin + end,
            reason: "the file ends before the end of the data its header "
                + "declares (byte \(dataEnd))")
    }

    private func overrun(_ messageOffset: Int, _ length: Int, _ dataEnd: Int) -> FITDamage {
        FITDamage(
            byteOffset: messageOffset,
            reason: "a \(length)-byte message runs past the end of the data "
                + "its header declares (byte \(dataEnd))")
    }

    private func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    // MARK: - Buffer

    /// Makes `count` bytes (at most ``bufferBytes``) available from `start`; `false` when the
    /// stream ends first.
    private func available(_ count: Int) throws -> Bool {
        if end - start >= count { return true }
        if start > 0 {
            memmove(buffer, buffer + start, end - start)
            bufferOrigin += start
            end -= start
            start = 0
        }
        while end < count && !streamEnded {
            let n = try stream.read(
                into: UnsafeMutableRawBufferPointer(start: buffer + end, count: Self.bufferBytes - end))
            if n == 0 { streamEnded = true } else { end += n }
        }
        return end - start >= count
    }

    /// Moves past `count` available bytes, adding them to the CRC.
    @inline(__always)
    private func consume(_ count: Int) {
        crc = FITCRC.update(crc, buffer + start, count: count)
        start += count
    }

    /// Reads the rest of the stream; returns how many bytes it held.
    private func skipToEnd() throws -> Int {
        var count = end - start
        start = end
        while !streamEnded {
            let n = try stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Self.bufferBytes))
            if n == 0 { streamEnded = true }
            count += n
        }
        return count
    }
}
