/// The FIT protocol's base types: how a field's bytes are laid out and which value means
/// "invalid" (the field was not recorded).
///
/// A field definition names its base type in one byte: the low five bits are the type number,
/// the top bit says whether the type has an endianness. Numbers Runnect does not know are read
/// as `byte` (opaque, never a number).
enum FITBaseType: UInt8, Sendable {
    case enumeration = 0, sint8, uint8, sint16, uint16, sint32, uint32, string, float32, float64
    case uint8z, uint16z, uint32z, byte, sint64, uint64, uint64z

    /// The base type named by a field definition's base-type byte.
    init(definitionByte: UInt8) {
        self = FITBaseType(rawValue: definitionByte & 0x1F) ?? .byte
    }

    /// Bytes of one value; 1 for `string` and `byte`, which are arrays of any length.
    var width: Int {
        switch self {
        case .enumeration, .sint8, .uint8, .uint8z, .string, .byte: return 1
        case .sint16, .uint16, .uint16z: return 2
        case .sint32, .uint32, .uint32z, .float32: return 4
        case .float64, .sint64, .uint64, .uint64z: return 8
        }
    }

    /// Whether values are numbers (integers or floats), as opposed to text or opaque bytes.
    var isNumeric: Bool { self != .string && self != .byte }
}
