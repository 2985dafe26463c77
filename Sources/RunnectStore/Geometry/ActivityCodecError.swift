/// Why a stored geometry blob could not be decoded (or an activity could not be encoded).
enum ActivityCodecError: Error, Equatable, CustomStringConvertible {
    case badMagic
    case unsupportedVersion(UInt8)
    case truncated(needed: Int, remaining: Int, offset: Int)
    case invalidCount(String, Int, offset: Int)
    case unknownFlags(String, UInt8, offset: Int)
    case invalidUTF8(offset: Int)
    case unknownFormat(String, offset: Int)
    case trailingBytes(Int)
    case tooLarge(String)
    case invalidPause(offset: Int)

    var description: String {
        switch self {
        case .badMagic:
            return "not an RNC geometry blob"
        case .unsupportedVersion(let version):
            return "geometry format version \(Character(Unicode.Scalar(version))) is newer than this build reads"
        case .truncated(let needed, let remaining, let offset):
            return "truncated at byte \(offset): \(needed) bytes needed, \(remaining) left"
        case .invalidCount(let what, let count, let offset):
            return "\(count) \(what) at byte \(offset) cannot fit in the bytes that remain"
        case .unknownFlags(let what, let flags, let offset):
            return "unknown \(what) flags 0x\(String(flags, radix: 16)) at byte \(offset)"
        case .invalidUTF8(let offset):
            return "invalid UTF-8 in the string at byte \(offset)"
        case .unknownFormat(let name, let offset):
            return "unknown source format \"\(name)\" at byte \(offset)"
        case .trailingBytes(let count):
            return "\(count) unexpected bytes after the end"
        case .tooLarge(let what):
            return "too many \(what) to store (more than 4,294,967,295)"
        case .invalidPause(let offset):
            return "a timer pause at byte \(offset) ends before it starts"
        }
    }
}
