// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "comics",
    products: [
        .executable(name: "comics", targets: ["comics"]),
        .library(name: "ComicsKit", targets: ["ComicsKit"]),
    ],
    targets: [
        // SQLite (libsqlite3-dev), zstd for stored texts (libzstd-dev) and
        // zlib for what older versions stored (zlib1g-dev) are linked from
        // Debian's static archives (see ComicsKit): every command needs
        // them, and a shared library costs each start its loading.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // Gutenberg's HTML editions, read by libxml2's HTML parser: its
        // headers at build time (libxml2-dev, in Debian's folder for them),
        // the library loaded at run time, only when an HTML edition is read.
        .target(
            name: "CHTML",
            cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])],
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // libcurl's headers at build time (libcurl4-openssl-dev); the library
        // itself is loaded at run time, only when the network is needed.
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // Image decoding (gdk-pixbuf) and terminal drawing (chafa), with a
        // small C layer (CImaging) so Swift sees no GLib types. The libraries
        // are loaded at run time, only when a picture is drawn.
        .target(
            name: "CImaging",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // The full screen of `comics browse` (ncursesw, from libncurses-dev),
        // loaded at run time, only when browse starts.
        .target(
            name: "CTerminal",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // The few process calls glibc shows only under _GNU_SOURCE.
        .target(name: "CProcess"),
        .target(
            name: "ComicsKit",
            dependencies: ["CSQLite", "CCurl", "CProcess", "CZstd", "CZlib", "CHTML"],
            linkerSettings: [.linkedLibrary(":libsqlite3.a"), .linkedLibrary(":libzstd.a"), .linkedLibrary(":libz.a")]
        ),
        // Browse and the reader as values: state, messages, update. No
        // terminal, no clock, no threads: what a key does is tested alone.
        .target(name: "BrowseCore", dependencies: ["ComicsKit"]),
        .executableTarget(
            name: "comics",
            dependencies: ["ComicsKit", "BrowseCore", "CImaging", "CTerminal"]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["ComicsKit", "CSQLite", "CZlib"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "ComicsKitTests",
            dependencies: ["ComicsKit", "TestSupport"],
            path: "Tests/ComicsKitTests"
        ),
        .testTarget(
            name: "BrowseCoreTests",
            dependencies: ["BrowseCore", "ComicsKit"],
            path: "Tests/BrowseCoreTests"
        ),
        .testTarget(
            name: "comicsTests",
            dependencies: ["comics", "BrowseCore", "ComicsKit", "TestSupport"],
            path: "Tests/comicsTests"
        ),
    ]
)
