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
        // libcurl's headers at build time (libcurl4-openssl-dev); the library
        // itself is loaded at run time, only when the network is needed.
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // Image decoding (gdk-pixbuf) and terminal drawing (chafa), with a
        // small C layer (CImaging) so Swift sees no GLib types.
        .systemLibrary(
            name: "CGdkPixbuf",
            pkgConfig: "gdk-pixbuf-2.0",
            providers: [.apt(["libgdk-pixbuf-2.0-dev"])]
        ),
        .systemLibrary(
            name: "CChafa",
            pkgConfig: "chafa",
            providers: [.apt(["libchafa-dev"])]
        ),
        .target(
            name: "CImaging",
            dependencies: ["CGdkPixbuf", "CChafa"]
        ),
        .target(
            name: "ComicsKit",
            dependencies: ["CSQLite", "CCurl"]
        ),
        .executableTarget(
            name: "comics",
            dependencies: ["ComicsKit", "CImaging"]
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
