import Foundation

/// A sign-in provider whose ID tokens the server accepts (`APPLE`, `GOOGLE`): the issuers and
/// audiences it checks, and where the issuer's public keys are. Written as
/// `PROVIDER=ISSUER[|ISSUER…],AUDIENCE[|AUDIENCE…],JWKS` (`--oidc`, repeatable; `RUNNECT_OIDC`
/// holds the same values separated by spaces), split on the first `=`, then on `,`.
public struct OIDCProvider: Sendable, Equatable {
    /// What the app sends as `provider`, upper-cased (`APPLE`).
    public var name: String
    /// `iss` values accepted (Google uses two spellings).
    public var issuers: [String]
    /// `aud` values accepted: the app's bundle id, or its OAuth client ids.
    public var audiences: [String]
    /// The issuer's key set: a file, or an `https` URL (`http` only to a loopback address).
    public var keySet: KeySetLocation

    /// Where a key set is read from.
    public enum KeySetLocation: Sendable, Equatable {
        case file(String)
        case url(URL)
    }

    /// Reads one `--oidc` value.
    /// - Throws: ``OIDCProviderError`` naming what is missing or wrong.
    public init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "=") else { throw OIDCProviderError.form(text) }
        let name = text[..<equals].trimmingCharacters(in: .whitespaces).uppercased()
        let parts = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !name.isEmpty, parts.count == 3 else { throw OIDCProviderError.form(text) }
        let issuers = parts[0].split(separator: "|").map(String.init).filter { !$0.isEmpty }
        let audiences = parts[1].split(separator: "|").map(String.init).filter { !$0.isEmpty }
        guard !issuers.isEmpty else { throw OIDCProviderError.missing("an issuer", text) }
        guard !audiences.isEmpty else { throw OIDCProviderError.missing("an audience", text) }
        guard ["APPLE", "GOOGLE"].contains(name) else { throw OIDCProviderError.unknownProvider(name) }
        let keys = parts[2]
        guard !keys.isEmpty else { throw OIDCProviderError.missing("a JWKS file or URL", text) }
        if keys.lowercased().hasPrefix("https://") || keys.lowercased().hasPrefix("http://") {
            guard let url = URL(string: keys), let host = url.host else { throw OIDCProviderError.form(text) }
            if url.scheme?.lowercased() == "http", !["127.0.0.1", "::1", "[::1]", "localhost"].contains(host) {
                throw OIDCProviderError.insecureURL(keys)
            }
            keySet = .url(url)
        } else {
            keySet = .file(keys)
        }
        self.name = name
        self.issuers = issuers
        self.audiences = audiences
    }

    /// Every provider in `RUNNECT_OIDC`'s value: `--oidc` values separated by spaces.
    public static func parsingList(_ text: String) throws -> [OIDCProvider] {
        try text.split(whereSeparator: \.isWhitespace).map { try OIDCProvider(parsing: String($0)) }
    }
}

/// Why an `--oidc` value was refused (a usage error: the server does not start).
public enum OIDCProviderError: Error, Equatable, CustomStringConvertible {
    case form(String)
    case missing(String, String)
    case unknownProvider(String)
    case insecureURL(String)

    public var description: String {
        switch self {
        case .form(let text):
            "--oidc \(text): write PROVIDER=ISSUER[|ISSUER…],AUDIENCE[|AUDIENCE…],JWKS"
        case .missing(let what, let text): "--oidc \(text): \(what) is missing"
        case .unknownProvider(let name): "--oidc: \(name) is no OpenID Connect provider of the app (APPLE, GOOGLE)"
        case .insecureURL(let url): "--oidc: the JWKS URL \(url) must be https (http only to 127.0.0.1 or ::1)"
        }
    }
}
