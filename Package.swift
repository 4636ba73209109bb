// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Rewind",
    // The oldest systems every product builds for (README, "Platforms"): the
    // recorder uses `Duration` and other APIs of these releases; newer ones are
    // behind `#available`. Swift 6.0 (Xcode 16) is the oldest toolchain.
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Recorder", targets: ["Recorder"]),
        // The small reference store (Store, Effect, Send) used by the demo and the tests.
        .library(name: "RewindStore", targets: ["RewindStore"]),
        .library(name: "Inspector", targets: ["Inspector"]),
        .library(name: "RewindTesting", targets: ["RewindTesting"]),
        .executable(name: "rewind", targets: ["rewind"]),
        // The sample reducers, for packages that test against them (scripts/testgen-check).
        .library(name: "SampleDomains", targets: ["SampleDomains"]),
    ],
    targets: [
        // The JSON engine: values, parser, encoders, writer, pointer, diff, patch, the
        // value decoder and the skimmer. Only CJSONScan; Recorder re-exports it.
        .target(name: "RewindJSON", dependencies: ["CJSONScan"]),
        // The reading jobs' C fast paths: where a string's plain run ends, UTF-8, the checked
        // skim, a document's tape, members matched against a template (C for the loops over every byte).
        .target(name: "CJSONScan"),
        // The library apps link: recording, the log format, replay (and RewindJSON, re-exported).
        .target(name: "Recorder", dependencies: ["RewindJSON", "CJSONScan", "CBacktrace", "CRC32Hardware"]),
        // CRC-32 by carry-less multiplication (x86-64 PCLMULQDQ), for Recorder's CRC32; C for the intrinsics.
        .target(name: "CRC32Hardware"),
        // Reading logs without building them, and the query language over them: the entry, state
        // and path scans, lazy keyframes, the query parser, evaluator and parallel scan behind
        // `rewind find`, `bisect`, `tail` and the inspector's `:find`. Apart from Recorder, so
        // what an app links holds none of it.
        .target(name: "RewindQuery", dependencies: ["Recorder", "RewindJSON", "CJSONScan", "CReadAhead"]),
        // Files read past the page cache, a few blocks ahead on threads of their own (Linux), for cold searches.
        .target(name: "CReadAhead"),
        // The reference store, apart so its names never clash with an app's architecture.
        .target(name: "RewindStore", dependencies: ["Recorder"]),
        // backtrace(3) and dladdr(3) behind a shim header, for Recorder.Options.trace (nothing to link).
        .systemLibrary(name: "CBacktrace"),
        // ncurses with wide characters, behind a shim header that picks the header per
        // platform (Sources/CNcurses/shim.h); the library is linked by Inspector below.
        .systemLibrary(
            name: "CNcurses",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        // libc's wcwidth (not in Swift's Glibc module): the cell widths ncurses uses.
        .systemLibrary(name: "CCellWidth"),
        // The terminal inspector and the `rewind` subcommands, as a library so
        // users can link it with their own reducer for replay.
        .target(
            name: "Inspector",
            dependencies: ["Recorder", "RewindJSON", "RewindQuery", "CNcurses", "CCellWidth"],
            linkerSettings: [
                // macOS ships the wide-capable ncurses 6 as libncurses; Linux names the wide build libncursesw.
                .linkedLibrary("ncurses", .when(platforms: [.macOS])),
                .linkedLibrary("ncursesw", .when(platforms: [.linux])),
            ]
        ),
        .executableTarget(name: "rewind", dependencies: ["Inspector"]),
        // Realistic reducers (todo list, two cars, search with an effect, a non-Codable
        // domain) shared by the demo, the debug demo and the tests.
        .target(name: "SampleDomains"),
        .executableTarget(name: "rewind-demo", dependencies: ["Recorder", "RewindStore", "SampleDomains"]),
        // The inspector linked with the sample reducers: replay keys and `verify <log>`.
        .executableTarget(name: "rewind-debug-demo", dependencies: ["Inspector", "Recorder", "SampleDomains"]),
        .executableTarget(name: "rewind-bench", dependencies: ["Recorder", "RewindJSON", "RewindQuery", "Inspector", "CReadAhead"]),
        // Kills a recording process at random moments and verifies the log (scripts/test runs it).
        .executableTarget(name: "rewind-crash-test", dependencies: ["Recorder", "RewindJSON"]),
        // Test support for apps: `@Test(.recorded)` and `recordTest()` for XCTest.
        .target(name: "RewindTesting", dependencies: ["Recorder"]),
        // What the three test targets share: temporary directories, file bytes, hand-sealed
        // records and `LogFixture` (Tests/Support; a target, not a product).
        .target(name: "RewindTestSupport", dependencies: ["Recorder", "SampleDomains"], path: "Tests/Support"),
        .testTarget(name: "RewindTestingTests", dependencies: ["RewindTesting", "Recorder", "RewindStore", "SampleDomains", "RewindTestSupport"]),
        // The JSON engine's own tests (parser, encoders, writer, diff, patch, decoder).
        .testTarget(name: "RewindJSONTests", dependencies: ["RewindJSON", "CJSONScan"]),
        .testTarget(name: "RecorderTests", dependencies: ["Recorder", "RewindJSON", "CJSONScan", "RewindStore", "SampleDomains", "RewindTestSupport"]),
        // The scans held to the reference readers, the lazy documents, the query language and its scan.
        .testTarget(name: "RewindQueryTests", dependencies: ["RewindQuery", "Recorder", "RewindJSON", "CJSONScan", "RewindTestSupport"]),
        // Golden/ holds expected export files, read by path (not bundled as resources).
        .testTarget(name: "InspectorTests", dependencies: ["Inspector", "RewindQuery", "Recorder", "RewindJSON", "RewindStore", "SampleDomains", "RewindTestSupport"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
