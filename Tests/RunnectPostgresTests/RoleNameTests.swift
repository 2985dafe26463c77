import Testing

@testable import RunnectPostgres

@Suite struct RoleNameTests {
    @Test(arguments: [
        ("minji", #""minji""#),
        ("민지", #""민지""#),
        ("Run Club", #""Run Club""#),
        (#"a"b"#, #""a""b""#),
        (#"x"; DROP ROLE postgres; --"#, #""x""; DROP ROLE postgres; --""#),
    ])
    func quotedAsOneIdentifier(name: String, quoted: String) throws {
        #expect(try RoleName(name).quoted == quoted)
    }

    @Test(arguments: [
        ("", "it is blank"),
        ("   ", "it is blank"),
        (String(repeating: "a", count: 64), "it has 64 bytes, over 63"),
        (String(repeating: "민", count: 22), "it has 66 bytes, over 63"),
        ("pg_monitor", "names starting with pg_ are PostgreSQL's"),
        ("PUBLIC", "the name is reserved"),
        ("runnect_runner", "the name is reserved"),
        ("a\u{1B}[31mb", "it holds a control character (U+001B at character 2)"),
        ("a\u{0}b", "it holds a control character (U+0000 at character 2)"),
    ])
    func refusedWithTheReason(name: String, reason: String) {
        #expect(throws: PostgresAdministrationError.self) { try RoleName(name) }
        do {
            _ = try RoleName(name)
        } catch let error as PostgresAdministrationError {
            guard case .invalidRoleName(_, let found) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(found == reason)
            #expect(!"\(error)".contains("\u{1B}"))  // shown escaped
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func sixtyThreeBytesIsTheLongest() throws {
        #expect(try RoleName(String(repeating: "a", count: 63)).name.utf8.count == 63)
        #expect(try RoleName(String(repeating: "민", count: 21)).name.utf8.count == 63)
    }
}
