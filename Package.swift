// swift-tools-version:6.0
import PackageDescription

/// The stage targets, `Sources/OrderPress<Folder>/`, one layer an entry, lowest first (scripts/layering.txt):
/// a target depends only on layers below its own. A new stage is named here once.
let layers: [[String]] = [
    ["Support"], ["Catalogue", "Output"], ["Config"], ["Fetch"], ["Validate"], ["Slugs"], ["Aggregate", "Diff"],
    ["Render"], ["Reuse"], ["Publish"], ["Notify"], ["Pipeline", "Scaffold", "Serve"],
].map { $0.map { "OrderPress" + $0 } }

/// Every stage target.
let stages: [Target.Dependency] = layers.joined().map { .target(name: $0) }

/// `stage` and every stage target in the layers below it: what the stage's unit tests may use.
func stages(upTo stage: String) -> [Target.Dependency] {
    let layer = layer(of: stage)
    return (layers[..<layer].joined() + [stage]).map { .target(name: $0) }
}

func layer(of stage: String) -> Int { layers.firstIndex { $0.contains(stage) }! }

/// The stages with unit tests (`Tests/OrderPress<Folder>Tests/`), with the libraries their tests use
/// besides the stages'.
let stageTests: [(stage: String, products: [Target.Dependency])] = [
    ("OrderPressSupport", ["CJemalloc", .product(name: "Crypto", package: "swift-crypto")]),
    ("OrderPressCatalogue", []),
    ("OrderPressConfig", []),
    ("OrderPressFetch", [
        .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
        .product(name: "_CryptoExtras", package: "swift-crypto"),
        // The reference CSV grammar that `CSVRows` is checked against (`CSVRowsTests`).
        .product(name: "CSV", package: "CSV.swift"),
    ]),
    ("OrderPressValidate", []),
    ("OrderPressSlugs", []),
    ("OrderPressAggregate", []),
    ("OrderPressDiff", [.product(name: "Crypto", package: "swift-crypto"), .product(name: "GRDB", package: "GRDB.swift")]),
    ("OrderPressRender", [.product(name: "Mustache", package: "swift-mustache")]),
    ("OrderPressReuse", []),
    ("OrderPressPublish", [.product(name: "Crypto", package: "swift-crypto")]),
    ("OrderPressNotify", []),
    ("OrderPressPipeline", []),
    ("OrderPressScaffold", [.product(name: "TOMLKit", package: "TOMLKit")]),
    ("OrderPressServe", []),
]

let package = Package(
    name: "OrderPress",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "orderpress", targets: ["orderpress"]),
        .library(name: "OrderPress", targets: ["OrderPressPipeline", "OrderPressScaffold", "OrderPressServe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // Tests only: the reference CSV reader the byte-level split (`CSVRows`) is checked against.
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // `orderpress serve` (preview on 127.0.0.1), and in tests a real HTTP server standing in for
        // SheetDB and the rates feeds.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // The state folder's snapshot, history and fingerprints in one SQLite database (Debian's
        // libsqlite3-dev, installed by `make deps`).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // A heap for the diff's pairing of edited orders without ids (NearestRows).
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // Tests only: generated inputs for property tests.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // The process's allocator (see Allocator.swift): linked, it stands in for glibc's malloc everywhere.
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        // cmark-gfm's allocator while it renders a page: an arena per thread, in C (see page_arena.c).
        .target(name: "CPageArena"),
        // HTTP requests through libcurl's easy interface (see URLSessionTransport); libcurl4 is a runtime
        // package already (static Foundation links it), libcurl4-openssl-dev a build one.
        .target(name: "CHTTPRequest", linkerSettings: [.linkedLibrary("curl")]),
        // The stages, one target a folder, lowest layer first (scripts/layering.txt, docs/ARCHITECTURE.md):
        // each depends only on the targets below it whose types it uses, so an upward use does not compile.
        .target(
            name: "OrderPressSupport",
            dependencies: [
                "CJemalloc",
                .product(name: "Crypto", package: "swift-crypto")
            ]
        ),
        .target(
            name: "OrderPressCatalogue",
            dependencies: [
                "OrderPressSupport"
            ]
        ),
        .target(
            name: "OrderPressOutput",
            dependencies: [
                "OrderPressSupport"
            ]
        ),
        .target(
            name: "OrderPressConfig",
            dependencies: [
                "OrderPressSupport",
                "OrderPressCatalogue",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "TOMLKit", package: "TOMLKit")
            ]
        ),
        .target(
            name: "OrderPressFetch",
            dependencies: [
                "OrderPressSupport",
                "OrderPressConfig",
                "CHTTPRequest",
                .product(name: "Crypto", package: "swift-crypto"),
                // RS256 for a Google service account's token request (GoogleServiceAccount).
                .product(name: "_CryptoExtras", package: "swift-crypto")
            ]
        ),
        .target(
            name: "OrderPressValidate",
            dependencies: [
                "OrderPressSupport",
                "OrderPressCatalogue",
                "OrderPressConfig",
                "OrderPressFetch"
            ]
        ),
        .target(
            name: "OrderPressSlugs",
            dependencies: [
                "OrderPressSupport",
                "OrderPressValidate"
            ]
        ),
        .target(
            name: "OrderPressAggregate",
            dependencies: [
                "OrderPressSupport",
                "OrderPressFetch",
                "OrderPressValidate"
            ]
        ),
        .target(
            name: "OrderPressDiff",
            dependencies: [
                "OrderPressSupport",
                "OrderPressConfig",
                "OrderPressFetch",
                "OrderPressValidate",
                "OrderPressSlugs",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own calls, for binding a million records without GRDB's per-value cost.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "HeapModule", package: "swift-collections")
            ]
        ),
        .target(
            name: "OrderPressRender",
            dependencies: [
                "OrderPressSupport",
                "OrderPressCatalogue",
                "OrderPressOutput",
                "OrderPressConfig",
                "OrderPressFetch",
                "OrderPressValidate",
                "OrderPressSlugs",
                "OrderPressAggregate",
                "OrderPressDiff",
                "CCmarkGFM",
                "CPageArena",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Mustache", package: "swift-mustache")
            ]
        ),
        .target(
            name: "OrderPressReuse",
            dependencies: [
                "OrderPressSupport",
                "OrderPressOutput",
                "OrderPressConfig",
                "OrderPressFetch",
                "OrderPressValidate",
                "OrderPressAggregate",
                "OrderPressDiff",
                "OrderPressRender",
                .product(name: "Crypto", package: "swift-crypto")
            ]
        ),
        .target(
            name: "OrderPressPublish",
            dependencies: [
                "OrderPressSupport",
                "OrderPressOutput",
                "OrderPressConfig",
                "OrderPressDiff",
                .product(name: "Crypto", package: "swift-crypto")
            ]
        ),
        .target(
            name: "OrderPressNotify",
            dependencies: [
                "OrderPressSupport",
                "OrderPressCatalogue",
                "OrderPressConfig",
                "OrderPressFetch",
                "OrderPressValidate",
                "OrderPressDiff",
                "OrderPressRender",
                "OrderPressPublish"
            ]
        ),
        .target(
            name: "OrderPressPipeline",
            dependencies: [
                "OrderPressSupport",
                "OrderPressCatalogue",
                "OrderPressConfig",
                "OrderPressFetch",
                "OrderPressValidate",
                "OrderPressAggregate",
                "OrderPressDiff",
                "OrderPressRender",
                "OrderPressReuse",
                "OrderPressPublish",
                "OrderPressNotify"
            ]
        ),
        .target(
            name: "OrderPressScaffold",
            dependencies: [
                "OrderPressSupport",
                "OrderPressRender"
            ]
        ),
        .target(
            name: "OrderPressServe",
            dependencies: [
                "OrderPressSupport",
                "OrderPressConfig"
            ]
        ),
        .executableTarget(
            name: "orderpress",
            dependencies: stages + [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),
        // Run by `make templates`: compiles templates/ against templates/models/PageModels.txt into the
        // `*+Generated.swift` files of the page models (docs/ARCHITECTURE.md, Pages).
        .executableTarget(name: "page-generator"),
        // Test-only: `orderpress build` with the crash tests' pause points installed (see TestHook).
        // No product includes it, and nothing in the `orderpress` binary installs a hook.
        .executableTarget(
            name: "orderpress-crashtest",
            dependencies: stages(upTo: "OrderPressPipeline"),
            path: "Tests/CrashTest"
        ),
        // Helpers and fixtures more than one test target uses: paths, the built binary, loopback servers,
        // temporary folders, the sample site, fixed clocks, generated sites, golden pages.
        .target(
            name: "OrderPressTestSupport",
            dependencies: stages(upTo: "OrderPressDiff") + ["OrderPressAggregate",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "Crypto", package: "swift-crypto"),
                // The Google token endpoint stand-in makes an RSA key and checks RS256 signatures.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/OrderPressTestSupport",
            exclude: ["Fixtures"]
        ),
        // What the suites of Render and above share: generated sites, a site's context and its render.
        .target(
            name: "OrderPressSiteTestSupport",
            dependencies: stages(upTo: "OrderPressReuse") + ["OrderPressTestSupport"],
            path: "Tests/OrderPressSiteTestSupport"
        ),
    ]
        // A unit-test target per stage, `Tests/OrderPress<Folder>Tests/`: its own target and those below it.
        + stageTests.map { stage, products in
            .testTarget(
                name: stage + "Tests",
                dependencies: stages(upTo: stage) + ["OrderPressTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
                    + (layer(of: stage) >= layer(of: "OrderPressRender") ? ["OrderPressSiteTestSupport"] : []) + products
            )
        }
        + [
            // The suites that launch the built `orderpress` (and `orderpress-crashtest`) binary.
            .testTarget(
                name: "OrderPressBinaryTests",
                dependencies: stages + [
                    "OrderPressTestSupport", "OrderPressSiteTestSupport", "orderpress", "orderpress-crashtest",
                    .product(name: "FlyingFox", package: "FlyingFox"),
                    .product(name: "PropertyBased", package: "swift-property-based"),
                    .product(name: "GRDB", package: "GRDB.swift"),
                ]
            ),
    ]
)
