import Testing

@testable import RunnectPostgres

@Suite struct PostgresURLTests {
    /// No PG* variables: the defaults are libpq's own.
    let clean: [String: String] = ["USER": "ignored"]

    @Test func everyPartOfATCPURL() throws {
        let url = try PostgresURL(
            "postgresql://minji:s3cret@db.example.org:6543/club?sslmode=require&application_name=runnect",
            environment: clean)
        #expect(url.endpoint == .tcp(host: "db.example.org", port: 6543))
        #expect(url.user == "minji")
        #expect(url.password == "s3cret")
        #expect(url.database == "club")
        #expect(url.sslMode == .require)
        #expect(url.applicationName == "runnect")
        #expect(url.socketPath == nil)
    }

    @Test func percentDecodingOfEveryPart() throws {
        let url = try PostgresURL(
            "postgres://%EB%AF%BC%EC%A7%80:p%40ss%3Aw%2Fo%25rd+x@db.example.org/%ED%81%B4%EB%9F%BD%20a",
            environment: clean)
        #expect(url.user == "민지")
        #expect(url.password == "p@ss:w/o%rd+x")  // `+` stays a plus, as for libpq
        #expect(url.database == "클럽 a")
    }

    @Test func anUnencodedAtSignInThePasswordStillReads() throws {
        let url = try PostgresURL("postgresql://minji:a@b@localhost/club", environment: clean)
        #expect(url.user == "minji")
        #expect(url.password == "a@b")
        #expect(url.endpoint == .tcp(host: "localhost", port: 5432))
    }

    @Test func defaultsAreLibpqs() throws {
        let url = try PostgresURL("postgresql://", environment: clean)
        #expect(url.endpoint == .unixSocket(directory: "/var/run/postgresql", port: 5432))
        #expect(url.socketPath == "/var/run/postgresql/.s.PGSQL.5432")
        #expect(url.password == nil)
        #expect(url.database == url.user)  // the database defaults to the user's name
        #expect(!url.user.isEmpty)
        #expect(url.sslMode == .prefer)
        #expect(url.connectTimeoutSeconds == nil)
    }

    @Test func environmentFillsWhatTheURLLeavesOut() throws {
        let environment = [
            "PGHOST": "pg.internal", "PGPORT": "5433", "PGUSER": "haneul", "PGPASSWORD": "pw",
            "PGDATABASE": "runs", "PGSSLMODE": "verify-full",
        ]
        let bare = try PostgresURL("postgresql://", environment: environment)
        #expect(bare.endpoint == .tcp(host: "pg.internal", port: 5433))
        #expect(bare.user == "haneul")
        #expect(bare.password == "pw")
        #expect(bare.database == "runs")
        #expect(bare.sslMode == .verifyFull)
        // What the URL says wins over the environment.
        let full = try PostgresURL("postgresql://jisoo@other:5434/club?sslmode=disable", environment: environment)
        #expect(full.endpoint == .tcp(host: "other", port: 5434))
        #expect(full.user == "jisoo")
        #expect(full.database == "club")
        #expect(full.sslMode == .disable)
    }

    @Test func unixSocketFromTheHostParameterOrAnEncodedHost() throws {
        let query = try PostgresURL("postgresql://minji@/club?host=/tmp/runnect-pg.x&port=40001", environment: clean)
        #expect(query.endpoint == .unixSocket(directory: "/tmp/runnect-pg.x", port: 40001))
        #expect(query.socketPath == "/tmp/runnect-pg.x/.s.PGSQL.40001")
        let encoded = try PostgresURL("postgresql://minji@%2Fvar%2Frun%2Fpostgresql:5433/club", environment: clean)
        #expect(encoded.endpoint == .unixSocket(directory: "/var/run/postgresql", port: 5433))
        // A parameter overrides the part of the URL.
        let both = try PostgresURL("postgresql://minji@db:1/club?host=/s&port=2", environment: clean)
        #expect(both.endpoint == .unixSocket(directory: "/s", port: 2))
    }

    @Test func ipv6InBrackets() throws {
        #expect(
            try PostgresURL("postgresql://[::1]:5433/x", environment: clean).endpoint == .tcp(host: "::1", port: 5433))
        #expect(
            try PostgresURL("postgresql://[fe80::1]/x", environment: clean).endpoint
                == .tcp(host: "fe80::1", port: 5432))
    }

    @Test(arguments: SSLMode.allCases) func everySSLModeIsHonoured(mode: SSLMode) throws {
        let url = try PostgresURL("postgresql://a@db/x?sslmode=\(mode.rawValue)", environment: clean)
        #expect(url.sslMode == mode)
        // And becomes a configuration: TLS only when the mode allows it.
        let configuration = try url.connectionConfiguration()
        #expect(configuration.tls.isAllowed == (mode != .disable))
        #expect(configuration.tls.isEnforced == (mode != .disable && mode != .prefer))
    }

    @Test func aUnixSocketNeverUsesTLS() throws {
        let url = try PostgresURL("postgresql://a@/x?host=/tmp/s&sslmode=require", environment: clean)
        let configuration = try url.connectionConfiguration()
        #expect(configuration.unixSocketPath == "/tmp/s/.s.PGSQL.5432")
        #expect(!configuration.tls.isAllowed)
    }

    @Test(arguments: [
        ("mysql://a@b/c", PostgresURLError.notPostgresURL),
        ("/var/lib/courses.sqlite", .notPostgresURL),
        ("postgresql://a:%zz@b/c", .invalidPercentEncoding(part: "password")),
        ("postgresql://a@b/%E0%A4", .invalidPercentEncoding(part: "database name")),
        ("postgresql://a@b:0/c", .invalidPort("0")),
        ("postgresql://a@b:65536/c", .invalidPort("65536")),
        ("postgresql://a@b:x1/c", .invalidPort("x1")),
        ("postgresql://a@b1,b2/c", .multipleHosts("b1,b2")),
        ("postgresql://a@[::1/c", .invalidHost("[::1")),
        ("postgresql://a@b/c?sslmode=allow", .invalidSSLMode("allow")),
        ("postgresql://a@b/c?sslmode=maybe", .invalidSSLMode("maybe")),
        ("postgresql://a@b/c?ssl=true", .unknownParameter("ssl")),
        ("postgresql://a@b/c?port=1&port=2", .repeatedParameter("port")),
        ("postgresql://a@b/c?sslmode", .invalidParameter(name: "sslmode", value: "")),
        ("postgresql://a@b/c?connect_timeout=soon", .invalidParameter(name: "connect_timeout", value: "soon")),
    ])
    func badURLsAreRefusedWithTheirReason(text: String, error: PostgresURLError) {
        #expect(throws: error) { try PostgresURL(text, environment: clean) }
    }

    @Test func noMessageShowsThePassword() throws {
        let url = try PostgresURL("postgresql://minji:hunter2@db:5433/club?sslmode=require", environment: clean)
        #expect(url.description == "postgresql://minji:***@db:5433/club?sslmode=require")
        #expect(!"\(PostgresURLError.invalidPercentEncoding(part: "password"))".contains("%zz"))
        let socket = try PostgresURL("postgresql://minji@/club?host=/tmp/s&port=5", environment: clean)
        #expect(socket.description == "postgresql://minji@/club?host=/tmp/s&port=5")
        // The description reads back as the same URL (but the password).
        var again = try PostgresURL(socket.description, environment: clean)
        #expect(again == socket)
        again = try PostgresURL(url.description, environment: clean)
        #expect(again.endpoint == url.endpoint && again.user == url.user && again.database == url.database)
    }

    @Test func theSchemeTellsAURLFromAFile() {
        #expect(PostgresURL.isPostgresURL("postgresql://x"))
        #expect(PostgresURL.isPostgresURL("POSTGRES://x"))
        #expect(!PostgresURL.isPostgresURL("courses.sqlite"))
        #expect(!PostgresURL.isPostgresURL("./postgresql:/x"))
    }
}
