// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Runnect",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "RunnectKit", targets: ["RunnectKit"]),
        .library(name: "RunnectStore", targets: ["RunnectStore"]),
        .executable(name: "runnect", targets: ["runnect"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
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
        // The SQLite course store (GRDB) and keyword search. All SQL lives here.
        .target(
            name: "RunnectStore",
            dependencies: [
                "RunnectKit",
                .product(name: "GRDB", package: "GRDB.swift"),
                "CLibCrypto",
            ]
        ),
        .executableTarget(
            name: "runnect",
            dependencies: [
                "RunnectKit",
                "RunnectStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Throughput and peak memory of the hot paths; run through scripts/bench.sh (release build).
        .executableTarget(name: "runnect-bench", dependencies: ["RunnectKit", "RunnectStore"]),
        .testTarget(name: "RunnectKitTests", dependencies: ["RunnectKit"]),
        .testTarget(name: "RunnectStoreTests", dependencies: ["RunnectStore"]),
        .testTarget(name: "RunnectCLITests", dependencies: [
            "RunnectKit", "RunnectStore", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
    ],
    cxxLanguageStandard: .cxx17
)
