import Foundation
import GRDB
import RunnectTestSupport
import Testing

/// `runnect db copy FROM TO` through the built binary (SQLite to SQLite here; PostgreSQL in the
/// backends' suites).
@Suite("runnect db copy")
struct DatabaseCopyCommandTests {
    @Test("copies, says what it copied, copies nothing the second time; piped, no progress bar")
    func copyTwice() throws {
        let scratch = try StoreCommandTests.Scratch()
        let lake = try scratch.objects([
            "draw", "--points-file", "SampleTracks/seokchon_lake_tapped.json", "--title", "석촌호수 한 바퀴",
        ])[0]
        let lakeID = "\(lake["id"]!)"
        _ = try scratch.objects(["upload", lakeID, "--title", "석촌호수 한 바퀴", "--description", "호수 둘레"])
        _ = try scratch.objects(["scrap", lakeID], user: "friend")
        _ = try scratch.objects(["draw", "--points", "37.51,127.06 37.512,127.062", "--title", "강변"], user: "friend")
        let to = scratch.folder.appendingPathComponent("copy.sqlite").path

        let first = try RunnectProcess.run(["db", "copy", scratch.db, to])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.isEmpty, "no progress bar when standard error is not a terminal")
        #expect(
            first.stdout
                == "copied 2 course(s), 0 record(s), 1 scrap(s) of 2 user(s); already there: 0 course(s), "
                + "0 record(s), 0 scrap(s)\n")
        let again = try RunnectProcess.run(["db", "copy", scratch.db, to, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let summary = try #require(JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Int])
        #expect(summary["courses"] == 0 && summary["courses_present"] == 2 && summary["scraps_present"] == 1)

        // The copy shows the same courses to each user, under the same ids.
        for user in ["runner", "friend"] {
            let original = try RunnectProcess.run(["list", "--shared", "--json", "--db", scratch.db, "--user", user])
            let copied = try RunnectProcess.run(["list", "--shared", "--json", "--db", to, "--user", user])
            #expect(original.status == 0 && copied.status == 0)
            #expect(copied.stdout == original.stdout && !original.stdout.isEmpty)
        }
    }

    @Test("a store cannot be copied onto itself, nor onto another store's rows")
    func refusals() throws {
        let scratch = try StoreCommandTests.Scratch()
        _ = try scratch.objects(["draw", "--points", "37.51,127.06 37.512,127.062", "--title", "강변"])
        let same = try RunnectProcess.run(["db", "copy", scratch.db, scratch.db])
        #expect(same.status == 64 && same.stderr.contains("FROM and TO are the same store"))

        let other = try StoreCommandTests.Scratch()
        _ = try other.objects(["draw", "--points", "37.6,127.1 37.61,127.11", "--title", "다른"], user: "jisoo")
        let conflict = try RunnectProcess.run(["db", "copy", scratch.db, other.db])
        #expect(conflict.status == 1)
        #expect(
            conflict.stderr.contains("cannot copy course #1: the destination holds jisoo's")
                && conflict.stderr.hasPrefix("runnect: error:"), "\(conflict.stderr)")
    }
}

/// `runnect db copy` between SQLite and PostgreSQL, both ways.
@Suite(.postgres)
struct DatabaseCopyPostgresCommandTests {
    @Test("SQLite to PostgreSQL and back: each user sees the same courses and records under the same ids")
    func roundTrip() throws {
        let cluster = try PostgresCluster.get()
        let database = try cluster.makeDatabase(prefix: "copy")
        let admin = cluster.url(database: database)
        #expect(try RunnectProcess.run(["db", "init", "--db", admin]).status == 0)
        let scratch = try StoreCommandTests.Scratch()
        let runner = PostgresCluster.uniqueRoleName("runner")
        let friend = PostgresCluster.uniqueRoleName("friend")
        let lake = try scratch.objects(
            ["draw", "--points-file", "SampleTracks/seokchon_lake_tapped.json", "--title", "석촌호수 한 바퀴"],
            user: runner)[0]
        let lakeID = "\(lake["id"]!)"
        _ = try scratch.objects(
            ["upload", lakeID, "--title", "석촌호수 한 바퀴", "--description", "호수 둘레"], user: runner)
        _ = try scratch.objects(["scrap", lakeID], user: friend)
        let run = try scratch.run(["import", "SampleTracks/banpo_hangang_night_run.gpx"], user: friend)
        #expect(run.status == 0, "\(run.stderr)")

        let there = try RunnectProcess.run(["db", "copy", scratch.db, admin, "--json"])
        #expect(there.status == 0, "\(there.stderr)")
        let summary = try #require(JSONSerialization.jsonObject(with: Data(there.stdout.utf8)) as? [String: Int])
        #expect(summary["courses"] == 2 && summary["records"] == 1 && summary["scraps"] == 1 && summary["users"] == 2)
        let again = try RunnectProcess.run(["db", "copy", scratch.db, admin, "--json"])
        #expect(again.stdout.contains(#""courses":0"#) && again.stdout.contains(#""courses_present":2"#))

        let back = scratch.folder.appendingPathComponent("back.sqlite").path
        let returned = try RunnectProcess.run(["db", "copy", admin, back])
        #expect(returned.status == 0, "\(returned.stderr)")
        for user in [runner, friend] {
            // The copied users are login roles; over the cluster's socket they need no password.
            let asUser = "postgresql://\(user)@/\(database)?host=\(cluster.directory)&port=\(cluster.port)"
            for arguments in [["list", "--shared", "--json"], ["list", "--json"], ["records", "--json"]] {
                let sqlite = try scratch.run(arguments, user: user)
                let postgres = try RunnectProcess.run(arguments + ["--db", asUser])
                let copiedBack = try RunnectProcess.run(arguments + ["--db", back, "--user", user])
                #expect(sqlite.status == 0 && postgres.status == 0 && copiedBack.status == 0, "\(postgres.stderr)")
                #expect(postgres.stdout == sqlite.stdout, "\(arguments) as \(user)")
                #expect(copiedBack.stdout == sqlite.stdout, "\(arguments) as \(user)")
            }
        }
        // New courses on PostgreSQL get ids after the copied ones.
        let next = try RunnectProcess.run([
            "draw", "--points", "37.51,127.06 37.512,127.062", "--title", "새 코스", "--json", "--db",
            "postgresql://\(runner)@/\(database)?host=\(cluster.directory)&port=\(cluster.port)",
        ])
        #expect(next.status == 0 && next.stdout.contains(#""id":3"#), "\(next.stdout) \(next.stderr)")
    }

    /// A SQLite store whose course owners are `owners` (drawn as other users, then renamed).
    func source(owners: [String]) throws -> StoreCommandTests.Scratch {
        let scratch = try StoreCommandTests.Scratch()
        for (n, _) in owners.enumerated() {
            let drawn = try scratch.run(
                ["draw", "--points", "37.5\(n),127.06 37.5\(n)2,127.062", "--title", "코스 \(n)"], user: "drawer\(n)")
            #expect(drawn.status == 0, "\(drawn.stderr)")
        }
        try DatabaseQueue(path: scratch.db).write { db in
            for (n, owner) in owners.enumerated() {
                try db.execute(sql: "UPDATE course SET owner = ? WHERE owner = ?", arguments: [owner, "drawer\(n)"])
            }
        }
        return scratch
    }

    @Test("refuses, before writing, owners naming existing roles that are not runners, unless --existing-roles")
    func existingRolesAreNotEnrolled() throws {
        let cluster = try PostgresCluster.get()
        let database = try cluster.makeDatabase(prefix: "copyroles")
        let admin = cluster.url(database: database)
        #expect(try RunnectProcess.run(["db", "init", "--db", admin]).status == 0)
        let lurker = PostgresCluster.uniqueRoleName("lurker")
        let keeper = PostgresCluster.uniqueRoleName("keeper")
        let runner = PostgresCluster.uniqueRoleName("runner")
        let created = try cluster.psql([
            "-d", database, "-c", "CREATE ROLE \"\(lurker)\" LOGIN", "-c", "CREATE ROLE \"\(keeper)\" CREATEROLE",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let added = try RunnectProcess.run(["db", "add-user", runner, "--no-password", "--db", admin])
        #expect(added.status == 0, "\(added.stderr)")
        let scratch = try source(owners: [cluster.admin, lurker, keeper, runner])
        // Whether each role is a runner (a member of runnect_runner), and the courses copied.
        let state = """
            SELECT string_agg(r.rolname || '=' || EXISTS (SELECT 1 FROM pg_auth_members m JOIN pg_roles g
                ON g.oid = m.roleid WHERE m.member = r.oid AND g.rolname = 'runnect_runner'), ' ' ORDER BY r.rolname)
                || ' ' || (SELECT count(*) FROM course)
            FROM pg_roles r WHERE r.rolname IN ('\(cluster.admin)', '\(lurker)', '\(keeper)', '\(runner)')
            """
        let before = try cluster.psql(["-d", database, "-c", state]).stdout

        let refused = try RunnectProcess.run(["db", "copy", scratch.db, admin])
        #expect(refused.status == 1)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && refused.stderr.hasPrefix("runnect: error: "), "\(refused.stderr)")
        for name in [cluster.admin, lurker, keeper] {
            #expect(refused.stderr.contains("\"\(name)\""), "\(name): \(refused.stderr)")
        }
        #expect(!refused.stderr.contains(runner) && refused.stderr.contains("--existing-roles"))
        #expect(try cluster.psql(["-d", database, "-c", state]).stdout == before)
        #expect(before.hasSuffix(" 0\n"), "\(before)")

        let allowed = try RunnectProcess.run(["db", "copy", scratch.db, admin, "--existing-roles"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        for name in [cluster.admin, lurker, keeper] {
            #expect(
                allowed.stderr.contains("made existing role \(name) a runner, unchanged otherwise"),
                "\(allowed.stderr)")
        }
        let after = try cluster.psql(["-d", database, "-c", state]).stdout
        #expect(!after.contains("=false") && after.hasSuffix(" 4\n"), "\(after)")
    }

    @Test("refuses owners that differ from their trimmed NFC form, naming them, the destination unchanged")
    func lookalikeOwnersAreRefused() throws {
        let cluster = try PostgresCluster.get()
        let database = try cluster.makeDatabase(prefix: "copynames")
        let admin = cluster.url(database: database)
        #expect(try RunnectProcess.run(["db", "init", "--db", admin]).status == 0)
        let alice = PostgresCluster.uniqueRoleName("alice")
        // Trailing space; leading tab; "é" decomposed (e + U+0301); one good name.
        let owners = [alice + " ", "\t" + alice, alice + "e\u{301}", alice]
        let scratch = try source(owners: owners)
        let roles = "SELECT count(*) FROM pg_roles WHERE rolname LIKE '%\(alice)%'"
        let refused = try RunnectProcess.run(["db", "copy", scratch.db, admin])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.split(separator: "\n").count == 1 && refused.stderr.hasPrefix("runnect: error: "),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("\"\(alice) \"") && refused.stderr.contains("NFC"), "\(refused.stderr)")
        #expect(refused.stderr.contains(#""\u{9}"# + alice), "\(refused.stderr)")
        // Decomposed, byte for byte (Swift's `contains` would match the composed form too).
        #expect(
            refused.stderr.utf8.split(separator: UInt8(ascii: "\"")).contains {
                Array($0) == Array((alice + "e\u{301}").utf8)
            })
        #expect(try cluster.psql(["-d", database, "-c", roles]).stdout == "0\n")
        #expect(try cluster.psql(["-d", database, "-c", "SELECT count(*) FROM course"]).stdout == "0\n")
    }
}
