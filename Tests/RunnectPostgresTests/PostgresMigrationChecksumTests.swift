import RunnectTestSupport
import Testing

/// Every shipped PostgreSQL migration file (`Sources/RunnectPostgres/Migrations`), SQL and frozen
/// Swift, pinned by its SHA-256: editing one fails here. A new version adds its files and their
/// lines to the table.
struct PostgresMigrationChecksumTests {
    @Test func shippedMigrationsAreUnchanged() throws {
        try ShippedMigrations.expectPinned(
            folder: "Sources/RunnectPostgres/Migrations",
            [
                "v01-courses-records-search.sql": "bde8de7a6b721481c244a474b7cd6b6e94551b25a0ac03c67d65531fbaf9e436",
                "v02-path-segments.sql": "a81d412f99599952cd804d45b6cf5f54fcac55ce3746c2e8e096c7643b2405b2",
                "v02-path-segments.swift": "4b88ad65d5142106044da8f31a3e8dea30ce8e6da71b53abba203a100b310809",
                "v03-search-gin.sql": "c96bfcaa577e906800575f91f0b5510feb9d8fcc708c7c87b1c0759247550a46",
                "v04-path-pieces.sql": "37ad9a8b124d8e87506700f9b232ac83c979e780c266d53e96e2528e4eef95a6",
                "v04-path-pieces.swift": "3e7fc128851433a52bab03f59dea4bcc228e6df8fd419ea4e5ef49e6d0c29ee3",
                "v05-search-pages.sql": "be61eac761241653ddcb00ab23a839d735bfbf1a6c2ea59d713f9d7a71b4f325",
                "v06-nearby-rings.sql": "8f3125d36e4502438076ec086283a15827836a5da2f754c3ff34000ee549e6f5",
                "v07-lighter-upkeep.sql": "1d55cb6e297ebf2b15405f14b18f7aa1b7daa7ca269d73cbb12d2de7c54bb85b",
                "v08-search-orders.sql": "0277164a8b22c321b88b6b6cc758a7a87de2f47ce3b6533cc2d01caa5332c0d4",
                "v09-piece-boxes.sql": "da32089295abe9a2a474ec15b8c0cb065af648e677bfa5d285c4682bf55b834a",
                "v10-search-initials.sql": "7459da07024a7e23910cc33a4c32e78f3fd02bf3459314f47826cf40e1fe7c7c",
                "v10-search-initials.swift": "a86f00e4c1e422cdff2973a954c1aa0c282f86d35a8d024e0e4f3f937d611442",
                "v11-search-continued.sql": "c7b7deed3a781857cdc5e675cd680e9d16809aec5c4a8913f05e93ae186600c5",
                "v12-search-both-fields.sql": "48ee555d71921cb4713d243dc11ab98b21a58f9caa26ba78ffb8ab6cf9b442b0",
                "v13-planned-reads.sql": "5448923becc149fc4bea38f13a215745acd90b8cb12acfafac1d869b31905c81",
                "v14-covered-walks.sql": "b9729f8d6ccece0efb3d426c10cd0e898c761c6286ad07a8b5bddfbb586d6920",
                "v15-derived-checks.sql": "1be648da2bb2fe739477bd6cff2b993a8eb2318b467a13ba35e389147cd4ef9a",
                "v15-derived-checks.swift": "032400a68d93da95b107e43dcd6da01e19a4ab7e66db3b746c444185d017f013",
                "v16-readable-estimates.sql": "186009d4de742d905696731449f7797b5b4f89b9b787c33d9e15d9b09afffff2",
                "v17-deleted-courses.sql": "f554554b30fab3ba4c174ce260f560da7e0731c5534b86da63270266f9681e48",
                "v18-runners.sql": "697caf2e6a33bef0cb1bdb8014eda8a5a5a88d1a3e2ba6d4e367257ba3d8769d",
                "v19-course-starts.sql": "702eb2e36514ef3a57e20a9081fd361eeea3147f3b8fe24bf51594a75f8df76a",
                "v20-runner-roles-raced.sql": "06c30bcae9bcd24203c50c94964abf2ae126d94897f235d970af4f25d38ef157",
            ]
        )
    }
}
