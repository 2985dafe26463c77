/// Whether a TCP connection uses TLS, and what it checks: libpq's `sslmode`.
public enum SSLMode: String, Sendable, Hashable, CaseIterable {
    /// Never TLS.
    case disable
    /// TLS when the server offers it, else plain; the certificate is not checked (libpq's default).
    case prefer
    /// TLS or no connection; the certificate is not checked.
    case require
    /// TLS, with a certificate signed by a trusted authority (any host name).
    case verifyCA = "verify-ca"
    /// TLS, with a certificate signed by a trusted authority for the host connected to.
    case verifyFull = "verify-full"
}
