// swift-tools-version: 6.0
import PackageDescription

// A backend written outside StoreBench: CountingStore, a layer that counts every operation and
// passes it to a store underneath. Its test target runs the conformance kit one test per case;
// its executable is the whole storebench command line with CountingStore registered.
let package = Package(
    name: "OutsideBackend",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `name:` gives the dependency the identity "StoreBench" whatever its folder is called
        // (here the repository root, two levels up). From GitHub instead:
        // .package(url: "https://github.com/OWNER/StoreBench", branch: "main") — the identity is
        // then the URL's last component, which must be StoreBench too.
        .package(name: "StoreBench", path: "../.."),
    ],
    targets: [
        // The backend: depends on StoreCore only (the protocol, schema, queries, errors).
        .target(name: "CountingStore", dependencies: [
            .product(name: "StoreCore", package: "StoreBench"),
            .product(name: "SQLiteStore", package: "StoreBench"),
        ]),

        // `swift run -c release counting-bench run --backends counting+sqlite,sqlite`
        .executableTarget(name: "counting-bench", dependencies: [
            "CountingStore",
            .product(name: "StoreBenchCLI", package: "StoreBench"),
        ]),

        // `swift test --filter queries.inList` runs one kit case.
        .testTarget(
            name: "CountingStoreTests",
            dependencies: ["CountingStore", .product(name: "StoreConformance", package: "StoreBench")],
            plugins: [.plugin(name: "ConformanceKitTests", package: "StoreBench")]
        ),
    ]
)
