// swift-tools-version:6.0
// The access pass over `package` (issue 37): `make access` builds it and runs it from the repository's root.
import PackageDescription

let package = Package(
    name: "access-trim",
    dependencies: [.package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1")],
    targets: [
        .executableTarget(name: "trim", dependencies: [
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftParser", package: "swift-syntax"),
        ]),
    ]
)
