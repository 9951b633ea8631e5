// swift-tools-version:6.0
import PackageDescription

/// Layout (see docs/ARCHITECTURE.md):
/// - `GesturedCore`: the pure core. No syscalls, no clock reads, no Foundation.
/// - `GesturedConfig`: JSON5 text → validated `Configuration` (its own JSON5 parser).
/// - `GesturedIO`: the thin shell: libevdev, libudev, epoll, timerfd, signalfd, sockets.
/// - `gestured`: the executable; the only place that logs.
/// Every build keeps Swift's run-time exclusivity checks: a re-entrancy mistake in the field is a
/// trap with a message, not memory corruption (their cost is in docs/PERFORMANCE.md).

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .executable(name: "gestured-surface", targets: ["gestured-surface"]),
    ],
    targets: [
        .systemLibrary(name: "CEvdev", path: "Sources/CEvdev", pkgConfig: "libevdev",
                       providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", path: "Sources/CUdev", pkgConfig: "libudev",
                       providers: [.apt(["libudev-dev"])]),
        // libumockdev's testbed (hotplug in tests): only the test tool links it.
        .systemLibrary(name: "CUmockdev", path: "Sources/CUmockdev", pkgConfig: "umockdev-1.0",
                       providers: [.apt(["libumockdev-dev"])]),
        // libmosquitto: the MQTT bridge's client (`gestured mqtt`, docs/MQTT.md).
        .systemLibrary(name: "CMosquitto", path: "Sources/CMosquitto", pkgConfig: "libmosquitto",
                       providers: [.apt(["libmosquitto-dev"])]),
        // Linux libc headers that the Glibc module leaves out (epoll, timerfd, signalfd, inotify, pidfd).
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        // libm: `Double.rounded()` and friends lower to libm calls on Linux.
        .target(name: "GesturedCore", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "GesturedConfig", dependencies: ["GesturedCore"]),
        .target(name: "GesturedIO", dependencies: ["GesturedCore", "CEvdev", "CUdev", "CLinux"]),
        // The MQTT bridge's decisions (daemon lines → publications, commands → requests, Home
        // Assistant discovery): pure, beside the core and never below it.
        .target(name: "GesturedMQTT", dependencies: ["GesturedCore"]),
        .executableTarget(name: "gestured",
                          dependencies: ["GesturedCore", "GesturedConfig", "GesturedIO", "GesturedMQTT", "CMosquitto", "CLinux"]),
        // The Wayland client of `gestured doctor --probe-cancel` and `gestured calibrate`
        // (gestured(8), GESTURED-SURFACE), in C on libwayland-client: a target here, so one
        // `swift build` makes it for the tests, the package and the arm64 cross-build alike.
        // xdg-shell's glue is wayland-scanner's output, committed (`make wayland-glue`): SwiftPM
        // runs no code generator without a plugin.
        .executableTarget(name: "gestured-surface", path: "Sources/gestured-surface",
                          linkerSettings: [.linkedLibrary("wayland-client")]),
        // Synthetic input: seeded (SplitMix64, hands drawing strokes) and scripted (PanelScript,
        // the one builder of protocol-B frames): the data of the benchmark's scenarios, the
        // fuzzing and the tests alike, so it lives below all of them.
        .target(name: "GesturedSynthetic", dependencies: ["GesturedCore"]),
        // The benchmark (make bench, docs/PERFORMANCE.md): scenarios in a library the smoke test
        // shares, malloc counting and callgrind requests in C. The runner is a tool under Tests/
        // (below): it drives the daemon through the test harness (umockdev, subprocesses).
        .target(name: "GesturedBenchKit", dependencies: ["GesturedCore", "GesturedConfig", "GesturedSynthetic"]),
        .target(name: "CBenchSupport"),
        .executableTarget(name: "gestured-bench",
                          dependencies: ["GesturedBenchKit", "GesturedConfig", "GesturedCore", "GesturedIO", "GesturedSynthetic",
                                         "GesturedTestSupport", "CBenchSupport"],
                          path: "Tests/BenchTool"),
        .testTarget(name: "GesturedCoreTests", dependencies: ["GesturedCore", "GesturedSynthetic", "GesturedTestSupport"]),
        .testTarget(name: "GesturedBenchTests",
                    dependencies: ["GesturedBenchKit", "GesturedConfig", "GesturedCore", "CBenchSupport", "GesturedIO",
                                   "GesturedTestSupport"]),
        .testTarget(name: "GesturedMQTTTests", dependencies: ["GesturedMQTT", "GesturedCore", "GesturedConfig"]),
        .testTarget(name: "GesturedConfigTests", dependencies: ["GesturedConfig", "GesturedCore"]),
        // Test support: umockdev files from evemu descriptions, subprocesses, a line client.
        // Also uinput devices from evemu descriptions and a recording player (UinputDevice).
        .target(name: "GesturedTestSupport", dependencies: ["GesturedCore", "GesturedIO", "CLinux", "CEvdev", "CUdev"],
                path: "Tests/Support"),
        // Developer/test tool: writes umockdev files for a .desc (make demo) and checks the
        // libudev/libevdev path from inside umockdev-run (GesturedIOTests run it there).
        .executableTarget(name: "gestured-testtool",
                          dependencies: ["GesturedTestSupport", "GesturedIO", "GesturedCore", "CUmockdev", "CLinux"],
                          path: "Tests/Tool"),
        // Test tool: plays evemu recordings through a uinput device (the kernel), with their
        // timing or faster. Needs /dev/uinput: the QEMU guest of `make test-vm` has it.
        .executableTarget(name: "gestured-inject",
                          dependencies: ["GesturedTestSupport", "GesturedIO", "GesturedCore"],
                          path: "Tests/Inject"),
        // The checks of the systemd guest (make test-vm-systemd): a program run by a oneshot unit
        // in a Debian image with systemd as PID 1. Never installed.
        .executableTarget(name: "gestured-vm-systemd-check",
                          dependencies: ["GesturedTestSupport", "GesturedIO", "GesturedCore"],
                          path: "Tests/VMSystemd"),
        // The kernel guest's benchmark (make bench-vm): gestured against `libinput debug-events`
        // on one uinput touchscreen, CPU per frame and tap latency. Never installed.
        .executableTarget(name: "gestured-vm-bench",
                          dependencies: ["GesturedTestSupport", "GesturedIO", "GesturedCore", "GesturedSynthetic"],
                          path: "Tests/VMBench"),
        // The kernel guest's soak (make soak-vm, docs/RELIABILITY.md): the daemon under a long
        // ten-finger stream with clients churning, reloads and a replug. Never installed.
        .executableTarget(name: "gestured-vm-soak",
                          dependencies: ["GesturedTestSupport", "GesturedIO", "GesturedCore", "GesturedSynthetic", "CEvdev"],
                          path: "Tests/VMSoak", exclude: ["soak-vm"]),
        // Across modules: replay goldens with the built-in configuration, the command line, and
        // the daemon's parts (`@testable import gestured`) in the test's own process.
        .testTarget(name: "GesturedTests",
                    dependencies: ["gestured", "GesturedCore", "GesturedConfig", "GesturedIO", "GesturedSynthetic",
                                   "GesturedTestSupport", "CLinux"]),
        .testTarget(name: "GesturedIOTests",
                    dependencies: ["GesturedIO", "GesturedCore", "GesturedSynthetic", "GesturedTestSupport", "CLinux", "CEvdev"]),
        // Fuzzing (make fuzz, docs/RELIABILITY.md): the harnesses and the invariants they check,
        // shared by the libFuzzer executables (below, only with GESTURED_FUZZ=1) and by the
        // regression tests of what they found.
        .target(name: "GesturedFuzzKit", dependencies: ["GesturedCore", "GesturedConfig", "GesturedSynthetic"],
                path: "Tests/Fuzz/Kit"),
        .testTarget(name: "GesturedFuzzTests", dependencies: ["GesturedFuzzKit", "GesturedCore", "GesturedConfig"]),
        // Real kernel, real udev: runs only inside the QEMU guest of `make test-vm`
        // (GESTURED_VM_GUEST=1); elsewhere every test is skipped with that reason.
        .testTarget(name: "GesturedVMTests",
                    dependencies: ["GesturedIO", "GesturedCore", "GesturedSynthetic", "GesturedTestSupport", "CLinux", "CEvdev"]),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer executables, one per target (Tests/Fuzz/Targets/<name>): `make fuzz` builds them
// with GESTURED_FUZZ=1, `-sanitize=fuzzer,address` and a scratch path of their own, so the
// normal build never sees them (libFuzzer supplies their `main`).
if Context.environment["GESTURED_FUZZ"] == "1" {
    for name in ["config", "requests", "evemu", "pipeline", "strokes"] {
        package.targets.append(.executableTarget(name: "fuzz-\(name)", dependencies: ["GesturedFuzzKit"],
                                                 path: "Tests/Fuzz/Targets/\(name)",
                                                 swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
}
