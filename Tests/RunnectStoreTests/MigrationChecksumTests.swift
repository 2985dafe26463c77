import RunnectTestSupport
import Testing

/// Every shipped SQLite migration file (`Sources/RunnectStore/SQLite/Migrations`), SQL and frozen
/// Swift, pinned by its SHA-256: editing one fails here. A new version adds its files and their
/// lines to the table.
struct MigrationChecksumTests {
    @Test func shippedMigrationsAreUnchanged() throws {
        try ShippedMigrations.expectPinned(
            folder: "Sources/RunnectStore/SQLite/Migrations",
            [
                "v1-courses.sql": "7674b6a525cc8a3de00e880f8e08ee220eaa1de625ede9c40273bd0b4563317f",
                "v2-records.sql": "fea8aa479502d86c1971a036e508da9d4e31a00798c50282c6b32ba0d9a5e53d",
                "v3-course-starts.sql": "473762ae7583f189b9983663a2341f5e91bc25b220de4f10223baf78ab66423d",
                "v3-course-starts.swift": "37f60fff9dc44d5a8fa4e7c56633534e5dfc63a301f6dc7fc820ef5cc95ef193",
                "v4-course-pieces.sql": "a4edea5ea43e194dbb2c9fe49f79c4c3c27379cc141df399ca2b718c3dad8f9b",
                "v4-course-pieces.swift": "7ae8e175bbebe8110d8157794be0b0faac3cac15381e3afc9485241fe46a9585",
                "v5-deleted-courses.sql": "ea3db4f46b5a7b43e563d2818e3c6441941e1061e71dfb9c05f01e34d3d28856",
                "v5-deleted-courses.swift": "4d6de953c4f9a75be5bd5bf067f6d91fec26e17f4cd647252dc5d8f3aee5a42d",
                "v6-runners.sql": "b907852eb7a168bb27e79d9b3afccb1ee9dbfe332a234aac01914faba45d7d02",
            ]
        )
    }
}
