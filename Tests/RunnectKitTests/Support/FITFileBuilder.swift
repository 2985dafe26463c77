/// Builds small FIT files byte by byte for decoder tests, independently of the decoder: its CRC
/// is the protocol description's four-bits-at-a-time algorithm, not the decoder's table.
struct FITFileBuilder {
    /// Field definition: number, size in bytes, base-type byte.
    typealias FieldDefinition = (number: UInt8, size: UInt8, baseType: UInt8)

    /// The data records written so far (everything between the header and the file CRC).
    var records: [UInt8] = []

    // Base-type bytes as a definition message writes them.
    static let enumeration: UInt8 = 0x00, sint8: UInt8 = 0x01, uint8: UInt8 = 0x02
    static let sint16: UInt8 = 0x83, uint16: UInt8 = 0x84, sint32: UInt8 = 0x85, uint32: UInt8 = 0x86
    static let string: UInt8 = 0x07, byte: UInt8 = 0x0D

    /// Appends a definition message.
    mutating func define(
        local: UInt8, global: UInt16, bigEndian: Bool = false, fields: [FieldDefinition],
        developerFields: [FieldDefinition]? = nil
    ) {
        records.append(0x40 | (developerFields == nil ? 0 : 0x20) | local)
        records.append(0)  // reserved
        records.append(bigEndian ? 1 : 0)
        records += Self.integer(UInt64(global), bytes: 2, bigEndian: bigEndian)
        records.append(UInt8(fields.count))
        for field in fields { records += [field.number, field.size, field.baseType] }
        if let developerFields {
            records.append(UInt8(developerFields.count))
            for field in developerFields { records += [field.number, field.size, field.baseType] }
        }
    }

    /// Appends a data message with a normal header and the given field bytes.
    mutating func data(local: UInt8, _ content: [UInt8]) {
        records.append(local & 0x0F)
        records += content
    }

    /// Appends a data message with a compressed-timestamp header (local type 0–3, offset 0–31 s).
    mutating func compressedData(local: UInt8, timeOffset: UInt8, _ content: [UInt8]) {
        records.append(0x80 | (local & 0x03) << 5 | (timeOffset & 0x1F))
        records += content
    }

    /// The whole file: header (12 or 14 bytes, with its CRC), records, file CRC.
    /// - Parameters:
    ///   - protocolVersion: Major version in the high four bits, minor in the low four (2.0).
    ///   - declaredDataBytes: The data size the header states (the true size by default).
    ///   - corruptCRC: Write a file CRC that does not match.
    func file(
        headerBytes: Int = 14, protocolVersion: UInt8 = 0x20, declaredDataBytes: UInt32? = nil,
        corruptCRC: Bool = false
    ) -> [UInt8] {
        var header: [UInt8] = [UInt8(headerBytes), protocolVersion]
        header += Self.integer(2132, bytes: 2, bigEndian: false)  // profile version 21.32
        header += Self.integer(UInt64(declaredDataBytes ?? UInt32(records.count)), bytes: 4, bigEndian: false)
        header += Array(".FIT".utf8)
        if headerBytes == 14 { header += Self.integer(UInt64(Self.crc(header)), bytes: 2, bigEndian: false) }
        var bytes = header + records
        let crc = Self.crc(bytes) ^ (corruptCRC ? 0x5A5A : 0)
        bytes += Self.integer(UInt64(crc), bytes: 2, bigEndian: false)
        return bytes
    }

    /// `value` in `bytes` bytes of the given order.
    static func integer(_ value: UInt64, bytes: Int, bigEndian: Bool) -> [UInt8] {
        let little = (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        return bigEndian ? little.reversed() : little
    }

    static func signed(_ value: Int64, bytes: Int, bigEndian: Bool) -> [UInt8] {
        integer(UInt64(bitPattern: value), bytes: bytes, bigEndian: bigEndian)
    }

    /// The FIT CRC as the protocol description gives it: four bits at a time over a 16-entry table.
    static func crc(_ bytes: [UInt8]) -> UInt16 {
        let table: [UInt16] = [
            0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
            0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
        ]
        var crc: UInt16 = 0
        for byte in bytes {
            var tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte & 0xF)]
            tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int((byte >> 4) & 0xF)]
        }
        return crc
    }

    /// Degrees to semicircles (2³¹ / 180 per degree), as watches store positions.
    static func semicircles(_ degrees: Double) -> Int64 {
        Int64((degrees * 2_147_483_648.0 / 180.0).rounded())
    }
}
