import Testing

/// `runnect db init` and `db add-user` arguments refused before any connection: no server needed.
@Suite struct DatabaseCommandUsageTests {
    @Test func badURLsAndMissingPasswordsAreUsageErrors() throws {
        let badURL = try RunnectProcess.run(["db", "init", "--db", "postgresql://a@b/c?sslmode=sometimes"])
        #expect(badURL.status == 64)
        #expect(badURL.stderr.contains("sslmode=sometimes is not supported"))
        let notURL = try RunnectProcess.run(["db", "add-user", "x", "--db", "/tmp/courses.sqlite", "--no-password"])
        #expect(notURL.status == 64)
        #expect(notURL.stderr.contains("needs a PostgreSQL database"))
        // Standard input is a pipe here, not a terminal: no prompt, a clear message.
        let noPassword = try RunnectProcess.run(["db", "add-user", "x", "--db", "postgresql://a@127.0.0.1:1/c"])
        #expect(noPassword.status == 64)
        #expect(noPassword.stderr.contains("pass --password-stdin"))
        let both = try RunnectProcess.run([
            "db", "add-user", "x", "--no-password", "--existing", "--db", "postgresql://",
        ])
        #expect(both.status == 64)
    }
}
