import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An issuer's key set, read from its file or fetched from its URL (through Foundation's
/// URLSession: the system's libcurl and OpenSSL, no BoringSSL), kept for an hour. A token
/// signed by a key the set does not hold yet (the issuer rotated its keys) reads the set again,
/// at most once a minute, so a stream of forged key ids cannot make the server fetch for each.
actor JSONWebKeySetCache {
    /// How long a set is kept.
    static let maximumAge: Duration = .seconds(3600)
    /// The least time between two reads for an unknown key.
    static let rereadInterval: Duration = .seconds(60)
    /// The largest key set read (Apple's and Google's are under 4 KB).
    static let maximumBytes = 1024 * 1024

    let location: OIDCProvider.KeySetLocation
    private var cached: (keys: JSONWebKeySet, read: ContinuousClock.Instant)?

    init(_ location: OIDCProvider.KeySetLocation) {
        self.location = location
    }

    /// The set, read anew when older than ``maximumAge``, or when `unknownKey` and it was read
    /// more than ``rereadInterval`` ago.
    /// - Throws: ``IDTokenError/keySetUnavailable(_:)``.
    func keys(unknownKey: Bool = false) async throws -> JSONWebKeySet {
        let now = ContinuousClock.now
        if let cached {
            let age = cached.read.duration(to: now)
            if age < Self.maximumAge && (!unknownKey || age < Self.rereadInterval) { return cached.keys }
        }
        let keys = try await read()
        cached = (keys, ContinuousClock.now)
        return keys
    }

    private func read() async throws -> JSONWebKeySet {
        let data: Data
        switch location {
        case .file(let path):
            do {
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                data = try handle.read(upToCount: Self.maximumBytes + 1) ?? Data()
            } catch {
                throw IDTokenError.keySetUnavailable("\(path): \((error as NSError).localizedDescription)")
            }
        case .url(let url):
            var request = URLRequest(url: url, timeoutInterval: 5)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            do {
                let (body, response) = try await URLSession.shared.data(for: request)
                guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
                    throw IDTokenError.keySetUnavailable(
                        "\(url) answered \((response as? HTTPURLResponse)?.statusCode ?? 0)")
                }
                data = body
            } catch let error as IDTokenError {
                throw error
            } catch {
                throw IDTokenError.keySetUnavailable("\(url): \((error as NSError).localizedDescription)")
            }
        }
        guard data.count <= Self.maximumBytes else { throw IDTokenError.keySetUnavailable("the key set is over 1 MiB") }
        do {
            return try JSONDecoder().decode(JSONWebKeySet.self, from: data)
        } catch {
            throw IDTokenError.keySetUnavailable("not a JSON Web Key Set")
        }
    }
}
