// swift-tools-version: 6.0
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "StoreBench",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StoreCore", targets: ["StoreCore"]),
        .library(name: "StoreSQL", targets: ["StoreSQL"]),
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "LMDBStore", targets: ["LMDBStore"]),
        .library(name: "GRDBStore", targets: ["GRDBStore"]),
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        // Declared models (`@Model` classes) over ObjectGraph. Builds swift-syntax: nothing the
        // runner builds depends on it.
        .library(name: "ObjectGraphModels", targets: ["ObjectGraphModels"]),
        .library(name: "StoreConformance", targets: ["StoreConformance"]),
        .library(name: "StoreBenchKit", targets: ["StoreBenchKit"]),
        .library(name: "StoreBench", targets: ["StoreBench"]),
        .library(name: "StoreBenchCLI", targets: ["StoreBenchCLI"]),
        .executable(name: "storebench", targets: ["storebench"]),
        // One test per kit case in the test target they are applied to (`swift test --filter group.name`).
        .plugin(name: "ConformanceKitTests", targets: ["ConformanceKitTests"]),
        .plugin(name: "ConformanceKitXCTests", targets: ["ConformanceKitXCTests"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // `swift package generate-documentation --target StoreCore` (and StoreConformance).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The `@Model` macros (ObjectGraphModels only) and their expansion tests.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/pointfreeco/swift-macro-testing", exact: "0.7.0"),
    ],
    targets: [
        // System libraries, found through pkg-config (`make deps` installs the -dev packages).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]
        ),

        // The row checksum function every SQLite driver registers (one C implementation).
        .target(name: "CRowChecksum", linkerSettings: [.linkedLibrary("sqlite3")]),

        // Writes the per-case kit tests for the two plugins below (a build-time tool).
        .executableTarget(name: "storebench-kit-tests", dependencies: ["StoreConformance"], path: "Sources/storebench-kit-tests"),
        .plugin(name: "ConformanceKitTests", capability: .buildTool(), dependencies: ["storebench-kit-tests"]),
        .plugin(name: "ConformanceKitXCTests", capability: .buildTool(), dependencies: ["storebench-kit-tests"]),

        // The runner's C support: the counting allocator, hardware counters, the measured region.
        .target(name: "CBenchSupport"),

        // Schema, values, records, queries, errors and the Repository protocol. No C.
        .target(name: "StoreCore"),

        // StoreCore's semantics in SQLite's SQL, for any SQLite driver. No C.
        .target(name: "StoreSQL", dependencies: ["StoreCore"]),

        // Backends.
        .target(name: "SQLiteStore", dependencies: ["StoreCore", "StoreSQL", "CSQLite", "CRowChecksum"]),
        .target(name: "LMDBStore", dependencies: ["StoreCore", "CLMDB"]),

        // A peer: GRDB.swift behind the protocol, written from the README's walkthrough. Its
        // own product, so users of the core never pull GRDB in.
        .target(
            name: "GRDBStore",
            dependencies: [
                "StoreCore", "StoreSQL", "CRowChecksum",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),

        // The floors' work as a plain GRDB program, the reference GRDBStore is measured against.
        // Its own target so that both the CLI and GRDBStore's tests reach it, and the runner
        // never pulls GRDB in.
        .target(
            name: "PlainGRDB",
            dependencies: ["StoreCore", "StoreBenchKit", .product(name: "GRDB", package: "GRDB.swift")]
        ),

        // Core Data / Realm-style object graph over any Repository (never a concrete backend).
        .target(name: "ObjectGraph", dependencies: ["StoreCore"]),

        // `@Model`, `@Attribute`, `@Relationship`: declared classes become entities. The macro
        // implementation, run by the compiler (swift-syntax)...
        .macro(
            name: "ObjectGraphMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        // ...and what a user imports: the macro declarations, ObjectGraph re-exported (the
        // runtime support needs no swift-syntax and lives in ObjectGraph/Declared).
        .target(name: "ObjectGraphModels", dependencies: ["ObjectGraph", "ObjectGraphMacros"]),

        // The conformance kit every backend runs.
        .target(name: "StoreConformance", dependencies: ["StoreCore"]),

        // The rows workloads in plain C over the same tables as the floors: what each Swift
        // floor is checked against (StoreBench wraps it as a floor-shaped target).
        .target(
            name: "CReference",
            dependencies: ["CSQLite", "CLMDB"],
            linkerSettings: [.linkedLibrary("sqlite3"), .linkedLibrary("lmdb")]
        ),

        // What a floor or reference program needs, without the runner: the measurement primitives
        // (timers, clocks, figures), the seeded dataset, and the floor contract (Floor, FloorSQL, Touch).
        .target(
            name: "StoreBenchKit",
            dependencies: [
                "StoreCore", "StoreConformance", "CBenchSupport", .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),

        // The workload runner: the C-API floors, workloads by suite, the runner, reports.
        .target(
            name: "StoreBench",
            dependencies: [
                "StoreCore", "StoreSQL", "StoreConformance", "StoreBenchKit", "CSQLite", "CLMDB", "CBenchSupport", "CReference", "CRowChecksum",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),

        // The object graph's programming models measured (store, string-keyed, declared `@Model`):
        // a suite the storebench executable registers, so only it builds swift-syntax for the runner.
        .target(name: "StoreBenchModels", dependencies: ["StoreBench", "StoreBenchKit", "ObjectGraphModels"]),

        // The command line as a library: the built-in backends registered, and an entry point
        // an outside package calls with its own backends (cells re-execute that package's binary).
        .target(
            name: "StoreBenchCLI",
            dependencies: [
                "StoreCore", "SQLiteStore", "LMDBStore", "GRDBStore", "ObjectGraph", "StoreConformance", "StoreBench",
                "PlainGRDB",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The command-line tool: StoreBenchCLI with the built-in backends only.
        .executableTarget(name: "storebench", dependencies: ["StoreBenchCLI", "StoreBenchModels"]),

        // Reader threads beside a writer, map growth, object-graph contexts on threads: run under
        // ThreadSanitizer by `make test-tsan`. Its own executable, so the sanitized build is small.
        .executableTarget(
            name: "storebench-stress",
            dependencies: ["StoreCore", "SQLiteStore", "LMDBStore", "ObjectGraph", "StoreConformance"],
            path: "Sources/storebench-stress"
        ),

        // The seed tutorials' programs ported to declared models (Examples/Seeds): Realm's social app,
        // Core Data's blog, their batch-write and memory comparisons. Tests/ExamplesTests runs each on
        // the object graph over SQLite and over LMDB and checks what it prints.
        .executableTarget(name: "seed-realm-social", dependencies: ["ObjectGraphModels", "SQLiteStore", "LMDBStore"],
                          path: "Examples/Seeds/RealmSocial", exclude: ["expected.txt"]),
        .executableTarget(name: "seed-coredata-blog", dependencies: ["ObjectGraphModels", "SQLiteStore", "LMDBStore"],
                          path: "Examples/Seeds/CoreDataBlog", exclude: ["expected.txt"]),
        .executableTarget(name: "seed-batch-memory", dependencies: ["ObjectGraphModels", "SQLiteStore", "LMDBStore"],
                          path: "Examples/Seeds/BatchAndMemory", exclude: ["expected.txt"]),

        // The fuzz targets (predicate parser, record decoder, LMDB page walk) and the seed corpora's
        // writer; `storebench-fuzz` runs them under libFuzzer when built with STOREBENCH_FUZZ and
        // `-sanitize=fuzzer` (Tests/Fuzz/fuzz.sh), and replays inputs when built normally.
        .target(name: "StoreFuzzing", dependencies: ["StoreCore", "LMDBStore"]),
        .executableTarget(name: "storebench-fuzz", dependencies: ["StoreFuzzing"], path: "Sources/storebench-fuzz"),

        .testTarget(name: "StoreCoreTests", dependencies: ["StoreCore", "StoreConformance"]),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore", "StoreSQL", "StoreConformance", "CSQLite"], plugins: [.plugin(name: "ConformanceKitTests")]),
        .testTarget(name: "LMDBStoreTests", dependencies: ["LMDBStore", "StoreConformance", "CLMDB"],
                    exclude: ["Fixtures"],   // store files the tests copy out (a format-2 store)
                    plugins: [.plugin(name: "ConformanceKitTests")]),
        .testTarget(
            name: "GRDBStoreTests",
            dependencies: [
                "GRDBStore", "SQLiteStore", "StoreCore", "StoreConformance", "StoreBench", "PlainGRDB",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            plugins: [.plugin(name: "ConformanceKitTests")]
        ),
        .testTarget(name: "ObjectGraphTests", dependencies: ["ObjectGraph", "SQLiteStore", "LMDBStore", "StoreConformance"], plugins: [.plugin(name: "ConformanceKitTests")]),
        .testTarget(name: "ObjectGraphMacrosTests", dependencies: [
            "ObjectGraphMacros", .product(name: "MacroTesting", package: "swift-macro-testing"),
        ]),
        // One model declaration run on the object graph over SQLiteStore and LMDBStore.
        .testTarget(name: "ObjectGraphModelsTests", dependencies: ["ObjectGraphModels", "SQLiteStore", "LMDBStore", "StoreConformance"]),
        // The kit's self-test, and the kit from XCTest (one XCTest method per case, over SQLiteStore).
        .testTarget(name: "StoreConformanceTests", dependencies: ["StoreConformance", "SQLiteStore", "ObjectGraph"],
                    plugins: [.plugin(name: "ConformanceKitXCTests")]),
        // Counts the heap allocations of one thread (glibc's malloc interposed in the test binary).
        .testTarget(name: "StoreBenchTests", dependencies: [
            "StoreBench", "StoreBenchKit", "StoreBenchCLI", "StoreCore", "StoreConformance", "SQLiteStore", "LMDBStore", "GRDBStore", "ObjectGraph", "CSQLite",
            "StoreBenchModels",
        ], exclude: ["Fixtures"]),   // a results file (and its report) written by an older build
        // Runs the seed ports (their binaries are built beside it) and counts their tokens.
        .testTarget(name: "ExamplesTests", path: "Tests/ExamplesTests"),
        // Replays every kept fuzz input (Tests/Fuzz/<target>/seeds and regressions) without the sanitizer.
        .testTarget(name: "FuzzTests", dependencies: ["StoreFuzzing", "LMDBStore", "StoreCore"], path: "Tests/Fuzz",
                    exclude: ["predicate", "record", "pagewalk", "fuzz.sh"]),
    ],
    swiftLanguageModes: [.v6]
)
