import Foundation
import RunnectKit
import RunnectStore

/// The folder of course images (`--images`): the map snapshots the app uploads, each under a
/// random name, and the previews drawn for courses without one, each under a name only this
/// server can make (the course id with a code keyed by the token secret). Neither can be
/// found by counting, so images are served without sign-in (the app's image loader sends none).
struct ImageFolder: Sendable {
    let path: String
    let secret: TokenSecret

    /// The name of an uploaded image: 32 lowercase hex digits and the format's extension.
    static func isUploadName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0].count == 32 && parts[0].allSatisfy(\.isHexDigitLowercase)
            && (parts[1] == "jpg" || parts[1] == "png")
    }

    /// Makes the folder when missing (its parent must exist).
    func prepare() throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw ImageFolderError.notAFolder(path) }
            return
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    /// A new file in the folder for an upload to stream into (the caller removes it).
    func temporaryFile() -> String {
        (path as NSString).appendingPathComponent("upload-\(Self.randomHex()).part")
    }

    /// Keeps an uploaded image under a new random name, written whole or not at all; returns the name.
    func save(_ image: MapImage) throws -> String {
        let name = "\(Self.randomHex()).\(image.format == .jpeg ? "jpg" : "png")"
        try write(image.bytes, as: name)
        return name
    }

    /// Removes these uploaded images (a withdrawal's, a deletion's); a missing one is no error.
    func remove(_ names: [String]) {
        for name in names where Self.isUploadName(name) {
            try? FileManager.default.removeItem(atPath: file(name))
        }
    }

    /// The name of course `id`'s preview.
    func previewName(course id: Int64) -> String {
        "p\(id)-\(previewCode(course: id)).png"
    }

    /// The course a preview's name is of, when this server made the name.
    func previewCourse(_ name: String) -> Int64? {
        guard name.hasPrefix("p"), name.hasSuffix(".png") else { return nil }
        let stem = name.dropFirst().dropLast(4)
        let parts = stem.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Int64(parts[0]), id > 0, String(id) == parts[0] else { return nil }
        let expected = Array(previewCode(course: id).utf8)
        guard MessageAuthentication.equalInConstantTime(Array(parts[1].utf8), expected) else { return nil }
        return id
    }

    /// The size of image `name` in bytes; 0 when it is not there.
    func size(of name: String) -> Int64 {
        var status = stat()
        guard stat(file(name), &status) == 0 else { return 0 }
        return Int64(status.st_size)
    }

    /// The path of image `name` in the folder.
    func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    /// Writes `bytes` as `name`: to a new temporary file first, then renamed over (the names are
    /// the server's own, never an existing file of anyone else's).
    func write(_ bytes: [UInt8], as name: String) throws {
        let temporary = file("write-\(Self.randomHex()).part")
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw ImageFolderError.cannotWrite(path)
        }
        guard rename(temporary, file(name)) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw ImageFolderError.cannotWrite("\(path): \(reason)")
        }
    }

    private func previewCode(course id: Int64) -> String {
        let mac = MessageAuthentication.hmacSHA256(key: secret.bytes, message: Array("preview:\(id)".utf8))
        return ContentHash.hex(Array(mac.prefix(16)))
    }

    static func randomHex() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

/// Why the images folder cannot be used.
enum ImageFolderError: Error, CustomStringConvertible {
    case notAFolder(String)
    case cannotWrite(String)

    var description: String {
        switch self {
        case .notAFolder(let path): "the images folder \(path) is a file, not a folder; pass --images DIR"
        case .cannotWrite(let why): "cannot write an image to \(why)"
        }
    }
}

extension Character {
    fileprivate var isHexDigitLowercase: Bool { ("0"..."9").contains(self) || ("a"..."f").contains(self) }
}
