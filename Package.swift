// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Runnect",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RunnectKit", targets: ["RunnectKit"]),
        .library(name: "RunnectStore", targets: ["RunnectStore"]),
        .library(name: "RunnectPostgres", targets: ["RunnectPostgres"]),
        .library(name: "RunnectBackends", targets: ["RunnectBackends"]),
        .library(name: "RunnectSite", targets: ["RunnectSite"]),
        .library(name: "RunnectServer", targets: ["RunnectServer"]),
        .executable(name: "runnect", targets: ["runnect"]),
    ],
    // `runnect` and `CourseStore.open(_:)` reach PostgreSQL only with the trait PostgreSQL, and
    // `runnect serve` is there only with the trait Server; both are on by default.
    // `--disable-default-traits` builds the CLI SQLite-only, without postgres-nio, SwiftNIO,
    // swift-nio-ssl and their two BoringSSL builds (what `scripts/demo.sh` builds);
    // `--disable-default-traits --traits Server` adds the server (Hummingbird over SwiftNIO, no
    // BoringSSL: its HTTPS goes through the system's libcurl and OpenSSL).
    traits: [
        .trait(
            name: "PostgreSQL",
            description: "The PostgreSQL + PostGIS backend in runnect and RunnectBackends (postgres-nio and TLS)."),
        .trait(name: "Server", description: "`runnect serve`: the Runnect app's HTTP API (Hummingbird 2)."),
        .default(enabledTraits: ["PostgreSQL", "Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        // The PostgreSQL backend's client (RunnectPostgres only: SQLite users never build it).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        // Already under postgres-nio; named so that RunnectPostgres can silence its logger.
        .package(url: "https://github.com/apple/swift-log", from: "1.5.3"),
        // `runnect serve`: the HTTP server (not its TLS, HTTP/2 or swift-configuration parts) and
        // the service lifecycle that stops it gracefully on SIGTERM.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.20.0", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.8.0"),
        // `GET /metrics`: the server's metrics in Prometheus's text format.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        // The app's course upload (multipart/form-data), parsed as it streams in.
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.0"),
        // `swift package generate-documentation`: the DocC catalogs, built by scripts/test.sh.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // A small C-shaped shim over the system's C++ GeographicLib (libgeographiclib-dev).
        .target(
            name: "CGeographicLib",
            linkerSettings: [.linkedLibrary("GeographicLib"), .linkedLibrary("stdc++")]
        ),
        // The system's zlib (zlib1g-dev), for reading .gz files as a stream.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The system's OpenSSL libcrypto (libssl-dev), for the store's SHA-256 content hashes.
        .systemLibrary(name: "CLibCrypto", path: "Sources/CLibCrypto", providers: [.apt(["libssl-dev"])]),
        // Model, geodesy, readers, analysis, writers. No SQLite, no ArgumentParser.
        .target(
            name: "RunnectKit",
            dependencies: ["CGeographicLib", "CZlib"]
        ),
        // The course store (its logic, written once over both backends), its SQLite backend
        // (GRDB) and the backend-neutral half of keyword search.
        .target(
            name: "RunnectStore",
            dependencies: [
                "RunnectKit",
                .product(name: "GRDB", package: "GRDB.swift"),
                "CLibCrypto",
            ],
            // Each migration's SQL as shipped, compiled in; the schema they make, for reading only.
            exclude: ["SQLite/Schema"],
            resources: [
                "v1-courses", "v2-records", "v3-course-starts", "v4-course-pieces", "v5-deleted-courses", "v6-runners",
            ].map {
                .embedInCode("SQLite/Migrations/\($0).sql")
            }
        ),
        // The PostgreSQL + PostGIS backend: connection URLs, schema, roles and row-level security.
        // Its own target because postgres-nio brings SwiftNIO, swift-nio-ssl and swift-crypto
        // (two BoringSSL builds): a SQLite-only user of RunnectStore compiles none of them.
        .target(
            name: "RunnectPostgres",
            dependencies: [
                "RunnectKit", "RunnectStore", "CLibCrypto", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Each migration's SQL as shipped, compiled in; the schema they make, for reading only.
            exclude: ["Schema"],
            resources: [
                "v01-courses-records-search", "v02-path-segments", "v03-search-gin", "v04-path-pieces",
                "v05-search-pages", "v06-nearby-rings", "v07-lighter-upkeep", "v08-search-orders", "v09-piece-boxes",
                "v10-search-initials", "v11-search-continued", "v12-search-both-fields", "v13-planned-reads",
                "v14-covered-walks", "v15-derived-checks", "v16-readable-estimates", "v17-deleted-courses",
                "v18-runners", "v19-course-starts", "v20-runner-roles-raced",
            ].map { .embedInCode("Migrations/\($0).sql") }
        ),
        // `CourseStore.open(_:)`: a store by its location, with every backend of the build.
        .target(
            name: "RunnectBackends",
            dependencies: ["RunnectStore", .target(name: "RunnectPostgres", condition: .when(traits: ["PostgreSQL"]))]
        ),
        // The discovery site: a static folder of the store's courses. The page's HTML, CSS and
        // script are resource files.
        .target(
            name: "RunnectSite",
            dependencies: ["RunnectKit", "RunnectStore"],
            // Compiled into the code: `runnect` stays one file that can be copied anywhere, with no
            // resource bundle to find beside it at run time.
            resources: [
                .embedInCode("Resources/index.html"), .embedInCode("Resources/index.css"),
                .embedInCode("Resources/index.js"),
            ]
        ),
        // `runnect serve`: the Runnect app's HTTP API over an open store, on Hummingbird 2. Its own
        // target, so the library and the CLI's other commands are used without it.
        .target(
            name: "RunnectServer",
            dependencies: [
                "RunnectKit", "RunnectStore", "RunnectBackends", "RunnectSite", "CLibCrypto", "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The API's document and the discovery page at `/` (its stylesheet starts with
            // RunnectSite's, so the served page and `runnect index`'s look the same).
            resources: [
                .embedInCode("Resources/openapi.json"), .embedInCode("Resources/page.html"),
                .embedInCode("Resources/page.css"), .embedInCode("Resources/page.js"),
                .embedInCode("Resources/page-icon.svg"),
            ]
        ),
        .executableTarget(
            name: "runnect",
            dependencies: [
                "RunnectKit",
                "RunnectStore",
                .target(name: "RunnectPostgres", condition: .when(traits: ["PostgreSQL"])),
                "RunnectBackends",
                .target(name: "RunnectServer", condition: .when(traits: ["Server"])),
                "RunnectSite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmark code, no product: generated corpora and the store and index benchmarks,
        // built through the store's own API (its migrations, its `package` helpers).
        .target(name: "RunnectBenchmarkSupport", dependencies: ["RunnectKit", "RunnectStore", "RunnectSite"]),
        // Throughput and peak memory of the hot paths; run through scripts/bench.sh (release build).
        .executableTarget(
            name: "runnect-bench",
            dependencies: [
                "RunnectKit", "RunnectStore", "RunnectPostgres", "RunnectBenchmarkSupport", "CFromChars",
                "RunnectServer",
            ]),
        // libstdc++'s std::from_chars for double, only for runnect-bench's comparison with
        // DecimalParser (`runnect-bench numbers`).
        .target(name: "CFromChars", linkerSettings: [.linkedLibrary("stdc++")]),
        // What the test targets share: the shared corpus and its reference figures, and the
        // `.requires` trait (skip where an external tool or the corpus is missing, fail under CI),
        // and the throwaway PostgreSQL cluster (`.postgres`) with its databases and runner roles,
        // which the store tests and the PostgreSQL tests both make.
        .target(
            name: "RunnectTestSupport", dependencies: ["RunnectStore", "RunnectPostgres"],
            path: "Tests/RunnectTestSupport"),
        .testTarget(name: "RunnectKitTests", dependencies: ["RunnectKit", "RunnectTestSupport"]),
        // Store and search tests run on SQLite and on PostgreSQL (one parameterised suite).
        .testTarget(
            name: "RunnectStoreTests", dependencies: ["RunnectStore", "RunnectPostgres", "RunnectTestSupport"]),
        .testTarget(
            name: "RunnectPostgresTests",
            dependencies: [
                "RunnectPostgres", "RunnectTestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        .testTarget(
            name: "RunnectSiteTests", dependencies: ["RunnectKit", "RunnectStore", "RunnectSite", "RunnectTestSupport"]),
        .testTarget(
            name: "RunnectServerTests",
            dependencies: [
                "RunnectServer", "RunnectTestSupport", .product(name: "Hummingbird", package: "hummingbird"),
            ]),
        .testTarget(
            name: "RunnectBenchmarkSupportTests", dependencies: ["RunnectBenchmarkSupport", "RunnectTestSupport"]),
        .testTarget(
            name: "RunnectCLITests",
            dependencies: [
                "RunnectKit", "RunnectStore", "RunnectTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
    ],
    cxxLanguageStandard: .cxx17
)
