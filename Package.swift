// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "xcmedic",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "xcmedic", targets: ["xcmedic"]),
        .library(name: "XCMedicKit", targets: ["XCMedicKit"]),
    ],
    dependencies: [
        // 1.6: custom completions get the word being completed (`explain` completes rule ids).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // zlib for in-process gzip; on every macOS, and `zlib1g-dev` on Debian and Ubuntu.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "XCMedicKit",
            dependencies: ["CZlib", .product(name: "Yams", package: "Yams")]
        ),
        .executableTarget(
            name: "xcmedic",
            dependencies: [
                "XCMedicKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "XCMedicKitTests",
            dependencies: ["XCMedicKit"],
            // Swift programs the compiler-output tests compile on purpose; not part of the test target.
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "xcmedicCLITests", dependencies: ["xcmedic", "XCMedicKit"]),
    ],
    swiftLanguageModes: [.v6]
)
