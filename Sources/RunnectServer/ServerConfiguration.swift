import Foundation

/// How `runnect serve` runs: where it listens and what it signs with. The CLI fills it from its
/// flags and their `RUNNECT_*` variables.
public struct ServerConfiguration: Sendable {
    /// The address to bind: a host name or an IPv4 or IPv6 literal (default `127.0.0.1`).
    public var host: String
    /// The port; 0 takes a free one (the ``RunnectServer/Listening`` line names it).
    public var port: Int
    /// What the server's tokens are signed with.
    public var tokenSecret: TokenSecret
    /// How long in-flight requests may go on after SIGTERM or SIGINT before the remaining
    /// connections are closed.
    public var gracePeriod: Duration

    public init(
        host: String = "127.0.0.1", port: Int = 8080, tokenSecret: TokenSecret, gracePeriod: Duration = .seconds(8)
    ) {
        self.host = host
        self.port = port
        self.tokenSecret = tokenSecret
        self.gracePeriod = gracePeriod
    }
}
