// swift-tools-version:6.0
import PackageDescription

/// Layout (see docs/ARCHITECTURE.md):
/// - `GesturedCore`: the pure core. No syscalls, no clock reads, no Foundation.
/// - `GesturedConfig`: JSON5 text → validated `Configuration` (FoundationEssentials).
/// - `GesturedIO`: the thin shell: libevdev, libudev, epoll, timerfd, signalfd, sockets.
/// - `gestured`: the executable; the only place that logs.
let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
    ],
    targets: [
        .systemLibrary(name: "CEvdev", path: "Sources/CEvdev", pkgConfig: "libevdev",
                       providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", path: "Sources/CUdev", pkgConfig: "libudev",
                       providers: [.apt(["libudev-dev"])]),
        // Linux libc headers that the Glibc module leaves out (epoll, timerfd, signalfd, inotify, pidfd).
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        // libm: `Double.rounded()` and friends lower to libm calls on Linux.
        .target(name: "GesturedCore", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "GesturedConfig", dependencies: ["GesturedCore"]),
        .target(name: "GesturedIO", dependencies: ["GesturedCore", "CEvdev", "CUdev", "CLinux"]),
        .executableTarget(name: "gestured",
                          dependencies: ["GesturedCore", "GesturedConfig", "GesturedIO"]),
        // The benchmark (make bench, docs/PERFORMANCE.md): scenarios in a library the smoke test
        // shares, malloc counting and callgrind requests in C, the runner as an executable.
        .target(name: "GesturedBenchKit", dependencies: ["GesturedCore", "GesturedConfig"]),
        .target(name: "CBenchSupport"),
        .executableTarget(name: "gestured-bench",
                          dependencies: ["GesturedBenchKit", "GesturedCore", "GesturedIO", "GesturedTestSupport",
                                         "CBenchSupport"]),
        .testTarget(name: "GesturedCoreTests", dependencies: ["GesturedCore"]),
        .testTarget(name: "GesturedBenchTests", dependencies: ["GesturedBenchKit", "GesturedCore", "CBenchSupport"]),
        .testTarget(name: "GesturedConfigTests", dependencies: ["GesturedConfig", "GesturedCore"]),
        // Test support: umockdev files from evemu descriptions, subprocesses, a line client.
        .target(name: "GesturedTestSupport", dependencies: ["GesturedCore", "GesturedIO", "CLinux"],
                path: "Tests/Support"),
        // Developer/test tool: writes umockdev files for a .desc (make demo) and checks the
        // libudev/libevdev path from inside umockdev-run (GesturedIOTests run it there).
        .executableTarget(name: "gestured-testtool",
                          dependencies: ["GesturedTestSupport", "GesturedIO", "GesturedCore"],
                          path: "Tests/Tool"),
        // Across modules: replay goldens with the built-in configuration, the command line.
        .testTarget(name: "GesturedTests",
                    dependencies: ["GesturedCore", "GesturedConfig", "GesturedTestSupport"]),
        .testTarget(name: "GesturedIOTests",
                    dependencies: ["GesturedIO", "GesturedCore", "GesturedTestSupport", "CLinux"]),
    ],
    swiftLanguageModes: [.v6]
)
