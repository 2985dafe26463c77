import CZlib
import Foundation

/// A course's map snapshot as the app uploads it (API §3.3 #7), taken by its content, not its
/// name: a JPEG or a PNG whose header reads, at most ``maximumBytes``, with its metadata
/// stripped (EXIF, GPS, XMP, comments, text and time chunks), so a runner's home never leaves
/// the server in an image's tags. The pixels are kept byte for byte: nothing is decoded or
/// re-encoded.
public struct MapImage: Sendable, Equatable {
    public enum Format: String, Sendable {
        case jpeg, png

        /// The `Content-Type` it is served with.
        public var mediaType: String { self == .jpeg ? "image/jpeg" : "image/png" }
    }

    /// The largest upload accepted.
    public static let maximumBytes = 5 * 1024 * 1024
    /// The largest side accepted, pixels.
    public static let maximumSide = 16_384

    public let format: Format
    public let width: Int
    public let height: Int
    /// The image as served: what was uploaded, less its metadata.
    public let bytes: [UInt8]

    /// Reads and strips an upload.
    /// - Throws: ``MapImageError``.
    public init(uploaded data: some Collection<UInt8>) throws {
        guard data.count <= Self.maximumBytes else { throw MapImageError.tooLarge(bytes: data.count) }
        let bytes = Array(data)
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            (width, height, self.bytes) = try Self.strippedJPEG(bytes)
            format = .jpeg
        } else if bytes.starts(with: Self.pngSignature) {
            (width, height, self.bytes) = try Self.strippedPNG(bytes)
            format = .png
        } else {
            throw MapImageError.notAnImage
        }
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw MapImageError.badSize(width: width, height: height)
        }
    }

    // MARK: - JPEG

    /// Keeps SOI, the frame, tables, scans and EOI, and of the application segments only JFIF
    /// (APP0), the colour profile (APP2 `ICC_PROFILE`) and Adobe's colour transform (APP14);
    /// EXIF and XMP (APP1), every other APPn and comments go.
    static func strippedJPEG(_ bytes: [UInt8]) throws -> (Int, Int, [UInt8]) {
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(bytes.count)
        var position = 2
        var size: (Int, Int)?
        var inScan = false
        while position < bytes.count {
            if inScan {
                // Entropy-coded data up to the next marker that is not a stuffed 0xFF or a restart.
                let start = position
                while position + 1 < bytes.count {
                    if bytes[position] == 0xFF, bytes[position + 1] != 0x00,
                        !(0xD0...0xD7).contains(bytes[position + 1])
                    {
                        break
                    }
                    position += 1
                }
                guard position + 1 < bytes.count else { throw MapImageError.truncated(.jpeg) }
                output += bytes[start..<position]
                inScan = false
                continue
            }
            guard bytes[position] == 0xFF else { throw MapImageError.malformed(.jpeg, offset: position) }
            // Fill bytes before a marker.
            var markerAt = position + 1
            while markerAt < bytes.count, bytes[markerAt] == 0xFF { markerAt += 1 }
            guard markerAt < bytes.count else { throw MapImageError.truncated(.jpeg) }
            let marker = bytes[markerAt]
            position = markerAt + 1
            switch marker {
            case 0xD9:
                guard let size else { throw MapImageError.malformed(.jpeg, offset: markerAt) }
                return (size.0, size.1, output + [0xFF, 0xD9])
            case 0xD0...0xD7, 0x01:
                output += [0xFF, marker]
                continue
            case 0xD8, 0x00:
                throw MapImageError.malformed(.jpeg, offset: markerAt)
            default:
                break
            }
            guard position + 2 <= bytes.count else { throw MapImageError.truncated(.jpeg) }
            let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
            guard length >= 2, position + length <= bytes.count else { throw MapImageError.truncated(.jpeg) }
            let segment = bytes[position..<(position + length)]
            let body = segment.dropFirst(2)
            switch marker {
            case 0xC0...0xCF where ![0xC4, 0xC8, 0xCC].contains(marker):
                // A frame header: precision, height, width, components.
                guard body.count >= 6 else { throw MapImageError.malformed(.jpeg, offset: markerAt) }
                let start = body.startIndex
                let height = Int(body[start + 1]) << 8 | Int(body[start + 2])
                let width = Int(body[start + 3]) << 8 | Int(body[start + 4])
                size = (width, height)
            case 0xDA:
                guard size != nil else { throw MapImageError.malformed(.jpeg, offset: markerAt) }
                inScan = true
            default:
                break
            }
            if Self.keepsJPEGSegment(marker, body: body) {
                output += [0xFF, marker]
                output += segment
            }
            position += length
        }
        throw MapImageError.truncated(.jpeg)
    }

    private static func keepsJPEGSegment(_ marker: UInt8, body: ArraySlice<UInt8>) -> Bool {
        switch marker {
        case 0xE0: body.starts(with: Array("JFIF\0".utf8))
        case 0xE2: body.starts(with: Array("ICC_PROFILE\0".utf8))
        case 0xEE: body.starts(with: Array("Adobe".utf8))
        case 0xE1...0xEF, 0xFE: false
        default: true
        }
    }

    // MARK: - PNG

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Ancillary chunks kept: how the pixels look (transparency, gamma, colour space, profile,
    /// significant bits, background, pixel size). Text, EXIF, time and anything unknown go.
    static let keptAncillaryChunks: Set<String> = ["tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "bKGD", "pHYs"]
    static let criticalChunks: Set<String> = ["IHDR", "PLTE", "IDAT", "IEND"]

    /// Checks every chunk's CRC and the header, and keeps the critical chunks and
    /// ``keptAncillaryChunks``.
    static func strippedPNG(_ bytes: [UInt8]) throws -> (Int, Int, [UInt8]) {
        var output = pngSignature
        output.reserveCapacity(bytes.count)
        var position = pngSignature.count
        var size: (Int, Int)?
        var sawData = false
        while position + 12 <= bytes.count {
            let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard length <= bytes.count - position - 12 else { throw MapImageError.truncated(.png) }
            let typeBytes = Array(bytes[(position + 4)..<(position + 8)])
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw MapImageError.malformed(.png, offset: position)
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            let end = position + 12 + length
            let stored = bytes[(end - 4)..<end].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let computed = bytes[(position + 4)..<(end - 4)].withContiguousStorageIfAvailable {
                UInt32(crc32(0, $0.baseAddress, UInt32($0.count)))
            }
            guard stored == computed else { throw MapImageError.malformed(.png, offset: position) }
            if position == pngSignature.count {
                // IHDR first: width, height, bit depth, colour type.
                guard type == "IHDR", length == 13 else { throw MapImageError.malformed(.png, offset: position) }
                let field = bytes[(position + 8)..<(position + 16)].reduce(0) { $0 << 8 | Int($1) }
                size = (field >> 32, field & 0xFFFF_FFFF)
                let depth = bytes[position + 16]
                let colour = bytes[position + 17]
                let allowed: [UInt8: [UInt8]] = [
                    0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16],
                ]
                guard allowed[colour]?.contains(depth) == true else {
                    throw MapImageError.malformed(.png, offset: position)
                }
            }
            let isCritical = typeBytes[0] & 0x20 == 0
            if isCritical && !criticalChunks.contains(type) { throw MapImageError.malformed(.png, offset: position) }
            if type == "IDAT" { sawData = true }
            if criticalChunks.contains(type) || keptAncillaryChunks.contains(type) {
                output += bytes[position..<end]
            }
            position = end
            if type == "IEND" {
                guard let size, sawData else { throw MapImageError.malformed(.png, offset: position) }
                return (size.0, size.1, output)
            }
        }
        throw MapImageError.truncated(.png)
    }
}

/// Why an upload is no map image the server keeps: each is a 400 in the envelope (413 for
/// ``tooLarge(bytes:)``).
public enum MapImageError: Error, Equatable, CustomStringConvertible {
    case tooLarge(bytes: Int)
    case notAnImage
    case truncated(MapImage.Format)
    case malformed(MapImage.Format, offset: Int)
    case badSize(width: Int, height: Int)

    public var description: String {
        switch self {
        case .tooLarge(let bytes):
            "the image has \(bytes) bytes; the most is \(MapImage.maximumBytes) (5 MiB)"
        case .notAnImage: "the image is neither a JPEG nor a PNG (by its content)"
        case .truncated(let format): "the \(format.rawValue.uppercased()) image ends before its end marker"
        case .malformed(let format, let offset):
            "the \(format.rawValue.uppercased()) image is malformed at byte \(offset)"
        case .badSize(let width, let height):
            "the image is \(width)×\(height) pixels; each side must be 1 to \(MapImage.maximumSide)"
        }
    }
}
