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
        .testTarget(name: "GesturedCoreTests", dependencies: ["GesturedCore"]),
        .testTarget(name: "GesturedConfigTests", dependencies: ["GesturedConfig", "GesturedCore"]),
        // Across modules: replay goldens with the built-in configuration, the command line.
        .testTarget(name: "GesturedTests", dependencies: ["GesturedCore", "GesturedConfig"],
                    exclude: []),
        .testTarget(name: "GesturedIOTests", dependencies: ["GesturedIO", "GesturedCore"]),
    ],
    swiftLanguageModes: [.v6]
)
