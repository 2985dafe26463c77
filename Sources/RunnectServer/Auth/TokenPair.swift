import Foundation
import RunnectStore

/// A runner's access and refresh tokens, as sign-in answers them and `runnect serve token`
/// prints them.
public struct TokenPair: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String

    /// A new pair for runner `runnerID`, signed with `secret`; the refresh token becomes the
    /// runner's one valid refresh token (an earlier one stops working).
    static func issue(for runnerID: Int64, tokens: ServerTokens, store: CourseStore) async throws -> TokenPair {
        let pair = TokenPair(
            accessToken: try tokens.issue(.access, runnerID: runnerID),
            refreshToken: try tokens.issue(.refresh, runnerID: runnerID))
        try await store.setRefreshTokenHash(runner: runnerID, ServerTokens.fingerprint(of: pair.refreshToken))
        return pair
    }

    /// A new pair for the runner named `name` (made through the sign-in's path when they have no
    /// runner yet): for scripts, tests and a club's first administrator. Replaces their refresh
    /// token.
    public static func issue(forRunnerNamed name: String, secret: TokenSecret, store: CourseStore) async throws
        -> TokenPair
    {
        let runner = try await store.runner(named: name)
        return try await issue(for: runner.id, tokens: ServerTokens(secret: secret), store: store)
    }
}
