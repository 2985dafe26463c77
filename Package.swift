// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Runnect",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "RunnectKit", targets: ["RunnectKit"]),
        .executable(name: "runnect", targets: ["runnect"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // A small C-shaped shim over the system's C++ GeographicLib (libgeographiclib-dev).
        .target(
            name: "CGeographicLib",
            cxxSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("GeographicLib"), .linkedLibrary("stdc++")]
        ),
        // Model, geodesy, readers, analysis, writers. No SQLite, no ArgumentParser.
        .target(
            name: "RunnectKit",
            dependencies: ["CGeographicLib"],
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
        ),
        .executableTarget(
            name: "runnect",
            dependencies: [
                "RunnectKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Throughput and peak memory of the hot paths; run through scripts/bench.sh (release build).
        .executableTarget(name: "runnect-bench", dependencies: ["RunnectKit"]),
        .testTarget(name: "RunnectKitTests", dependencies: ["RunnectKit"]),
        .testTarget(name: "RunnectCLITests", dependencies: ["RunnectKit"]),
    ],
    cxxLanguageStandard: .cxx17
)
