/// One data message as the decoder hands it over: its definition and a view of its bytes, valid
/// only during the call that receives it.
///
/// Values are read by field number. Every accessor returns `nil` for a field the message does
/// not have, for the base type's invalid value (the protocol's "not recorded"), and for a field
/// whose size does not hold exactly one value of its base type (an array).
struct FITDataMessage {
    let definition: FITMessageDefinition
    /// The message's content, after the record header.
    let bytes: UnsafeRawPointer
    /// The message's time: its `timestamp` field (253), or the time a compressed-timestamp
    /// record header gives; FIT seconds since 1989-12-31T00:00:00Z.
    let timestamp: UInt32?

    var globalNumber: UInt16 { definition.globalNumber }

    /// An integer field as a signed 64-bit value (unsigned 64-bit values above `Int64.max` are
    /// `nil`); floats are not integers.
    func integer(_ number: UInt8) -> Int64? {
        guard let field = definition.field(number), field.size == field.baseType.width else { return nil }
        let big = definition.isBigEndian
        let at = field.offset
        switch field.baseType {
        case .enumeration, .uint8:
            let v = bytes.load(fromByteOffset: at, as: UInt8.self)
            return v == 0xFF ? nil : Int64(v)
        case .uint8z:
            let v = bytes.load(fromByteOffset: at, as: UInt8.self)
            return v == 0 ? nil : Int64(v)
        case .sint8:
            let v = bytes.load(fromByteOffset: at, as: Int8.self)
            return v == 0x7F ? nil : Int64(v)
        case .uint16, .uint16z:
            let v = load(UInt16.self, at, big)
            return (field.baseType == .uint16 ? v == 0xFFFF : v == 0) ? nil : Int64(v)
        case .sint16:
            let v = Int16(bitPattern: load(UInt16.self, at, big))
            return v == 0x7FFF ? nil : Int64(v)
        case .uint32, .uint32z:
            let v = load(UInt32.self, at, big)
            return (field.baseType == .uint32 ? v == 0xFFFF_FFFF : v == 0) ? nil : Int64(v)
        case .sint32:
            let v = Int32(bitPattern: load(UInt32.self, at, big))
            return v == 0x7FFF_FFFF ? nil : Int64(v)
        case .sint64:
            let v = Int64(bitPattern: load(UInt64.self, at, big))
            return v == Int64.max ? nil : v
        case .uint64, .uint64z:
            let v = load(UInt64.self, at, big)
            if field.baseType == .uint64 ? v == UInt64.max : v == 0 { return nil }
            return v > UInt64(Int64.max) ? nil : Int64(v)
        case .float32, .float64, .string, .byte:
            return nil
        }
    }

    /// A numeric field (integer or float) as a `Double`; non-finite floats are `nil`.
    func number(_ number: UInt8) -> Double? {
        guard let field = definition.field(number) else { return nil }
        switch field.baseType {
        case .float32:
            guard field.size == 4 else { return nil }
            let raw = load(UInt32.self, field.offset, definition.isBigEndian)
            let value = Double(Float(bitPattern: raw))
            return raw == 0xFFFF_FFFF || !value.isFinite ? nil : value
        case .float64:
            guard field.size == 8 else { return nil }
            let raw = load(UInt64.self, field.offset, definition.isBigEndian)
            let value = Double(bitPattern: raw)
            return raw == UInt64.max || !value.isFinite ? nil : value
        default:
            return integer(number).map(Double.init)
        }
    }

    /// A numeric field with the profile's scale and offset applied: `raw / scale − offset`.
    func scaled(_ number: UInt8, scale: Double, offset: Double = 0) -> Double? {
        guard let raw = self.number(number) else { return nil }
        return raw / scale - offset
    }

    /// A `string` field: UTF-8 up to its first NUL; `nil` when empty.
    func string(_ number: UInt8) -> String? {
        guard let field = definition.field(number), field.baseType == .string else { return nil }
        let raw = UnsafeRawBufferPointer(start: bytes + field.offset, count: field.size)
        let text = raw.prefix { $0 != 0 }
        return text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
    }

    @inline(__always)
    private func load<T: FixedWidthInteger>(_ type: T.Type, _ offset: Int, _ bigEndian: Bool) -> T {
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
        return bigEndian ? T(bigEndian: raw) : T(littleEndian: raw)
    }
}
