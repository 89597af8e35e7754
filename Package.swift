// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "xcmedic",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "xcmedic", targets: ["xcmedic"]),
        // `xcmedic history` and `scan --record` run it; ships beside xcmedic.
        .executable(name: "xcmedic-history", targets: ["xcmedic-history"]),
        .library(name: "XCMedicKit", targets: ["XCMedicKit"]),
    ],
    dependencies: [
        // 1.6: custom completions get the word being completed (`explain` completes rule ids).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // The history store (`scan --record`, `history`): SQLite bundled in the package, and PostgreSQL's client.
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // zlib for in-process gzip; on every macOS, and `zlib1g-dev` on Debian and Ubuntu.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "XCMedicKit",
            dependencies: ["CZlib", .product(name: "Yams", package: "Yams")]
        ),
        // The stores behind `scan --record` and `history` (in xcmedic-history): the only target that knows SQL, NIO or a server.
        .target(
            name: "XCMedicHistory",
            dependencies: [
                "XCMedicKit",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // The CLI. It links no store: a scan that does not record pays nothing for one (docs/history.md).
        .executableTarget(
            name: "xcmedic",
            dependencies: [
                "XCMedicKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `xcmedic history …` and the recording half of `scan --record`: the only executable linking the store.
        .executableTarget(
            name: "xcmedic-history",
            dependencies: [
                "XCMedicKit",
                "XCMedicHistory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test helpers every test target shares (temporary folders removed at exit).
        .target(name: "XCMedicTestSupport", path: "Tests/Support"),
        .testTarget(
            name: "XCMedicKitTests",
            dependencies: ["XCMedicKit", "XCMedicTestSupport"],
            // Swift programs the compiler-output tests compile on purpose; not part of the test target.
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "xcmedicCLITests", dependencies: ["xcmedic", "xcmedic-history", "XCMedicKit", "XCMedicHistory", "XCMedicTestSupport"]),
        .testTarget(name: "XCMedicHistoryTests", dependencies: ["XCMedicHistory", "XCMedicKit", "XCMedicTestSupport"]),
        // `Benchmarks/history-load.sh`: many concurrent writers recording synthetic builds, then the query times.
        // `Catalog/embed.sh`: reads Catalog/*.yml with the rule loader and writes the compiled catalog the binary carries.
        .executableTarget(name: "xcmedic-embed-catalog", dependencies: ["XCMedicKit"], path: "Catalog/Generator"),
        .executableTarget(name: "xcmedic-history-load", dependencies: ["XCMedicHistory", "XCMedicKit"], path: "Benchmarks/HistoryLoad"),
    ],
    swiftLanguageModes: [.v6]
)
