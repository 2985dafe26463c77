/// One field of a FIT definition message: its number in the profile, its size in bytes and its
/// base type byte (the endian bit set for multi-byte types, as the FIT SDK writes them).
struct FITField {
    let number: UInt8
    let size: UInt8
    let baseType: UInt8

    static func enumeration(_ number: UInt8) -> FITField { FITField(number: number, size: 1, baseType: 0x00) }
    static func sint8(_ number: UInt8) -> FITField { FITField(number: number, size: 1, baseType: 0x01) }
    static func uint8(_ number: UInt8) -> FITField { FITField(number: number, size: 1, baseType: 0x02) }
    static func uint16(_ number: UInt8) -> FITField { FITField(number: number, size: 2, baseType: 0x84) }
    static func sint32(_ number: UInt8) -> FITField { FITField(number: number, size: 4, baseType: 0x85) }
    static func uint32(_ number: UInt8) -> FITField { FITField(number: number, size: 4, baseType: 0x86) }
    static func string(_ number: UInt8, size: Int) -> FITField {
        FITField(number: number, size: UInt8(size), baseType: 0x07)
    }
}

/// Writes the FIT protocol's framing: the 14-byte file header with its CRC, definition and data
/// messages (normal headers, little-endian), and the file CRC after the data, computed as the
/// bytes pass to the sink (``FITCRC``, the reader's own).
struct FITEncoder<Sink: ByteSink> {
    /// The header's protocol version (1.0: nothing of 2.0 is used) and profile version (21.32).
    static var protocolVersion: UInt8 { 0x10 }
    static var profileVersion: UInt16 { 2132 }
    static var headerBytes: Int { 14 }

    private var out: ChunkedOutput<CRCSink<Sink>>

    init(_ sink: Sink) {
        out = ChunkedOutput(CRCSink(sink))
    }

    /// The file header for `dataSize` bytes of messages.
    mutating func header(dataSize: Int) throws {
        var bytes: [UInt8] = [UInt8(Self.headerBytes), Self.protocolVersion]
        bytes += Self.littleEndian(UInt64(Self.profileVersion), count: 2)
        bytes += Self.littleEndian(UInt64(UInt32(truncatingIfNeeded: dataSize)), count: 4)
        bytes += Array(".FIT".utf8)
        bytes += Self.littleEndian(UInt64(FITCRC.checksum(bytes)), count: 2)
        try out.append(bytes)
    }

    /// A definition message: local message type `local` now means `global` with `fields`.
    mutating func define(_ local: UInt8, global: UInt16, _ fields: [FITField]) throws {
        var bytes: [UInt8] = [0x40 | local, 0, 0]  // definition header, reserved, little-endian
        bytes += Self.littleEndian(UInt64(global), count: 2)
        bytes.append(UInt8(fields.count))
        for field in fields { bytes += [field.number, field.size, field.baseType] }
        try out.append(bytes)
    }

    /// Starts a data message of local type `local`; its fields follow in the defined order.
    @inline(__always)
    mutating func begin(_ local: UInt8) throws { try out.append(byte: local) }

    @inline(__always)
    mutating func uint8(_ value: UInt8) throws { try out.append(byte: value) }

    @inline(__always)
    mutating func sint8(_ value: Int8) throws { try out.append(byte: UInt8(bitPattern: value)) }

    @inline(__always)
    mutating func uint16(_ value: UInt16) throws {
        try out.append(byte: UInt8(truncatingIfNeeded: value))
        try out.append(byte: UInt8(truncatingIfNeeded: value >> 8))
    }

    @inline(__always)
    mutating func uint32(_ value: UInt32) throws {
        for shift in stride(from: 0, to: 32, by: 8) { try out.append(byte: UInt8(truncatingIfNeeded: value >> shift)) }
    }

    @inline(__always)
    mutating func sint32(_ value: Int32) throws { try uint32(UInt32(bitPattern: value)) }

    /// A string field of `size` bytes: the UTF-8 bytes, then NULs.
    mutating func string(_ utf8: [UInt8], size: Int) throws {
        try out.append(utf8.prefix(size - 1))
        try out.append(repeatElement(0, count: size - min(utf8.count, size - 1)))
    }

    /// Hands everything to the sink, then the file CRC (which covers the header and the data).
    /// - Returns: The sink, with the file in it.
    mutating func finish() throws -> Sink {
        try out.flush()
        let crc = out.sink.crc
        var base = out.sink.base
        try [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8)].withUnsafeBytes { try base.write($0) }
        return base
    }

    static func littleEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// Passes bytes on while computing their FIT CRC.
struct CRCSink<Base: ByteSink>: ByteSink {
    var base: Base
    private(set) var crc: UInt16 = 0

    init(_ base: Base) {
        self.base = base
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        if let start = bytes.baseAddress { crc = FITCRC.update(crc, start, count: bytes.count) }
        try base.write(bytes)
    }
}
