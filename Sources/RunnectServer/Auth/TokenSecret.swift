import Foundation

/// The key the server signs its own access and refresh tokens with (HMAC-SHA256): the bytes of
/// `RUNNECT_TOKEN_SECRET`, or of a file (`--token-secret-file`) less one trailing newline, as
/// given. Whoever holds it can sign in as any runner: keep it out of logs and of the store.
public struct TokenSecret: Sendable {
    /// The fewest bytes a secret may have: 256 bits, the size of HMAC-SHA256's output (RFC 7518
    /// §3.2 requires a key at least that long for HS256).
    public static let minimumBytes = 32

    let bytes: [UInt8]

    /// A secret of these bytes.
    /// - Throws: ``TokenSecretError/tooShort(bytes:source:)`` under ``minimumBytes``.
    public init(bytes: [UInt8], source: String) throws {
        guard bytes.count >= Self.minimumBytes else {
            throw TokenSecretError.tooShort(bytes: bytes.count, source: source)
        }
        self.bytes = bytes
    }

    /// The secret in file `path`: its bytes less one trailing newline (`\n` or `\r\n`).
    /// - Throws: ``TokenSecretError/unreadable(path:reason:)``, or
    ///   ``TokenSecretError/tooShort(bytes:source:)``.
    public init(file path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TokenSecretError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        var bytes = [UInt8](data)
        if bytes.last == UInt8(ascii: "\n") {
            bytes.removeLast()
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        }
        try self.init(bytes: bytes, source: path)
    }
}

/// Why the server has no secret to sign its tokens with.
public enum TokenSecretError: Error, Equatable, CustomStringConvertible {
    /// Neither `--token-secret-file` nor `RUNNECT_TOKEN_SECRET` was given.
    case missing
    /// The secret is shorter than ``TokenSecret/minimumBytes``.
    case tooShort(bytes: Int, source: String)
    /// The secret's file could not be read.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing:
            return "no token secret: set RUNNECT_TOKEN_SECRET or --token-secret-file FILE "
                + "(at least \(TokenSecret.minimumBytes) bytes, e.g. `openssl rand -base64 48`)"
        case .tooShort(let bytes, let source):
            return "the token secret in \(source) has \(bytes) bytes; it needs at least "
                + "\(TokenSecret.minimumBytes) (e.g. `openssl rand -base64 48`)"
        case .unreadable(let path, let reason):
            return "cannot read the token secret file \(path): \(reason)"
        }
    }
}
