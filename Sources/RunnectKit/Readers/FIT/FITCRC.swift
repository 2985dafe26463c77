/// The FIT protocol's 16-bit CRC (the reflected polynomial 0xA001, initial value 0, no final
/// XOR), which a FIT file writes after its 14-byte header and after its data.
///
/// The protocol describes it four bits at a time; this computes the same function a byte at a
/// time, eight bytes per step ("slicing by 8"), because it runs over every byte of every file.
enum FITCRC {
    /// `tables[k][b]`: the CRC contribution of byte `b` followed by `k` zero bytes.
    private static let tables: [[UInt16]] = {
        var first = [UInt16](repeating: 0, count: 256)
        for byte in 0..<256 {
            var crc = UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
            first[byte] = crc
        }
        var tables = [first]
        for k in 1..<8 {
            tables.append(
                (0..<256).map { byte in
                    let previous = tables[k - 1][byte]
                    return (previous >> 8) ^ first[Int(previous & 0xFF)]
                })
        }
        return tables
    }()

    /// A flat copy of ``tables`` (8 × 256 entries) for the hot loop.
    private static let flat: [UInt16] = tables.flatMap { $0 }

    /// The CRC of `count` bytes at `bytes`, continuing from `crc`.
    static func update(_ crc: UInt16, _ bytes: UnsafeRawPointer, count: Int) -> UInt16 {
        var crc = crc
        var index = 0
        flat.withUnsafeBufferPointer { table in
            let t = table.baseAddress!
            while index + 8 <= count {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let low = UInt32(truncatingIfNeeded: word) ^ UInt32(crc)
                let high = UInt32(truncatingIfNeeded: word >> 32)
                crc =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                index += 8
            }
            while index < count {
                let byte = bytes.load(fromByteOffset: index, as: UInt8.self)
                crc = (crc >> 8) ^ t[Int((crc ^ UInt16(byte)) & 0xFF)]
                index += 1
            }
        }
        return crc
    }

    /// The CRC of `bytes`.
    static func checksum<Bytes: Collection>(_ bytes: Bytes) -> UInt16 where Bytes.Element == UInt8 {
        let array = Array(bytes)
        return array.withUnsafeBytes { update(0, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: $0.count) }
    }
}
