// swift-tools-version: 6.0
import PackageDescription

// The kit's mutation score, measured from outside as a backend author would: KitMutants wraps
// SQLiteStore (and the object graph over it, for observation) and injects one plausible bug at
// a time; `kit-score` runs the conformance kit against each and prints what caught it.
let package = Package(
    name: "KitScore",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "StoreBench", path: "../.."),
    ],
    targets: [
        .target(name: "KitMutants", dependencies: [
            .product(name: "StoreCore", package: "StoreBench"),
            .product(name: "StoreConformance", package: "StoreBench"),
            .product(name: "SQLiteStore", package: "StoreBench"),
            .product(name: "ObjectGraph", package: "StoreBench"),
        ]),
        // `swift run -c release kit-score [MUTATION ...]`
        .executableTarget(name: "kit-score", dependencies: ["KitMutants", .product(name: "StoreConformance", package: "StoreBench")]),
        .testTarget(name: "KitMutantsTests", dependencies: [
            "KitMutants", .product(name: "StoreConformance", package: "StoreBench"), .product(name: "StoreCore", package: "StoreBench"),
        ]),
    ]
)
