// swift-tools-version:6.0
// libFuzzer targets for Rewind. A separate package because libFuzzer supplies
// `main`, which an executable in the main package cannot leave out.
// Build and run with scripts/fuzz (see docs/FUZZING.md).
import PackageDescription

let package = Package(
    name: "RewindFuzz",
    dependencies: [.package(name: "Rewind", path: "..")],
    targets: [
        .executableTarget(name: "fuzz-json-parser", dependencies: [.product(name: "Recorder", package: "Rewind")]),
        .executableTarget(name: "fuzz-patch-apply", dependencies: [.product(name: "Recorder", package: "Rewind")]),
        .executableTarget(name: "fuzz-log-reader", dependencies: [.product(name: "Recorder", package: "Rewind"),
                                                          .product(name: "Inspector", package: "Rewind")]),
        // RewindQuery is no product: its module comes with Inspector's, and its fuzzing entry points are `@_spi(Fuzzing)`
        // (the `package` declarations they reach are not visible to another package).
        .executableTarget(name: "fuzz-query-parser", dependencies: [.product(name: "Recorder", package: "Rewind"),
                                                            .product(name: "Inspector", package: "Rewind")]),
        .executableTarget(name: "fuzz-fast-readers", dependencies: [.product(name: "Recorder", package: "Rewind"),
                                                            .product(name: "Inspector", package: "Rewind")]),
        .executableTarget(name: "fuzz-live-stream", dependencies: [.product(name: "Recorder", package: "Rewind"),
                                                           .product(name: "Inspector", package: "Rewind")]),
    ],
    swiftLanguageModes: [.v6]
)
