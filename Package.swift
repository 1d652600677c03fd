// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "comics",
    products: [
        .executable(name: "comics", targets: ["comics"]),
        .library(name: "ComicsKit", targets: ["ComicsKit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(
            name: "ComicsKit",
            dependencies: ["CSQLite", "CCurl"]
        ),
        .executableTarget(
            name: "comics",
            dependencies: ["ComicsKit"]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["ComicsKit", "CSQLite"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "ComicsKitTests",
            dependencies: ["ComicsKit", "TestSupport"],
            path: "Tests/ComicsKitTests"
        ),
        .testTarget(
            name: "comicsTests",
            dependencies: ["comics", "ComicsKit", "TestSupport"],
            path: "Tests/comicsTests"
        ),
    ]
)
