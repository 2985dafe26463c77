/// The layout a definition message declares for the data messages of one local message type:
/// the global message number, the byte order, and each field's number, size and base type.
///
/// The sizes come from the file: one definition describes at most 255 fields and 255 developer
/// fields of at most 255 bytes each, so a data message is never longer than
/// ``maximumDataMessageBytes``, however corrupt the file.
final class FITMessageDefinition {
    /// One field of the data message.
    struct Field {
        /// Field definition number (the profile's field number).
        var number: UInt8
        /// Offset of the field from the first byte after the record header.
        var offset: Int
        /// Size of the field, bytes (an array when larger than the base type's width).
        var size: Int
        var baseType: FITBaseType
    }

    /// Longest data message any definition can declare, record header included.
    static let maximumDataMessageBytes = 1 + 255 * 255 + 255 * 255

    /// The profile's message number (20 for `record`, 18 for `session`, …).
    let globalNumber: UInt16
    let isBigEndian: Bool
    let fields: [Field]
    /// Bytes of a data message after its record header: fields plus developer fields.
    let contentBytes: Int
    /// Index into ``fields`` by field number, or −1 when the message has no such field.
    private let slots: [Int16]

    init(globalNumber: UInt16, isBigEndian: Bool, fields: [Field], developerBytes: Int) {
        self.globalNumber = globalNumber
        self.isBigEndian = isBigEndian
        self.fields = fields
        self.contentBytes = fields.reduce(0) { $0 + $1.size } + developerBytes
        var slots = [Int16](repeating: -1, count: 256)
        for (index, field) in fields.enumerated().reversed() { slots[Int(field.number)] = Int16(index) }
        self.slots = slots
    }

    /// The field with profile number `number`, if the message has it.
    @inline(__always)
    func field(_ number: UInt8) -> Field? {
        let slot = slots[Int(number)]
        return slot < 0 ? nil : fields[Int(slot)]
    }
}
