// swift-tools-version:6.0
import PackageDescription

/// Layout (see docs/ARCHITECTURE.md, "Modules"); each module imports only what lies below it,
/// and every file imports only its target's dependencies (ModuleLayeringTests reads them all):
/// - `GesturedCore`: the pure core and the whole frame path (decoder, engine, pipeline, encoders,
///   replay). No syscalls, no clock reads, no Foundation; it imports nothing of the package.
/// - The tools beside it, pure too, each depending on `GesturedCore` and never the reverse:
///   `GesturedEvemu` (evemu recordings parsed), `GesturedSeeing` (explain, draw, the configuration
///   warnings), `GesturedDoctor` (doctor's checks, the cancel probe, how `gestured-surface` starts),
///   `GesturedCalibration` (calibrate's session and fit; on `GesturedDoctor` for the surface).
/// - `GesturedMQTT`: the MQTT bridge's decisions, on `GesturedCore` alone.
/// - `GesturedConfig`: JSON5 text → validated `Configuration` (its own JSON5 parser), on
///   `GesturedCore` and `GesturedSeeing` (its warnings).
/// - `GesturedIO`: the thin shell: libevdev, libudev, epoll, timerfd, signalfd, sockets, /proc (on
///   `GesturedDoctor` for what the scan reports).
/// - `gestured`: the executable, over all of them; the only place that logs.
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
        // The tools beside the core, each a module that depends on it and never the reverse
        // (docs/ARCHITECTURE.md, "Modules"): nothing on the frame path calls into them.
        // Evemu recordings and descriptions, parsed (replay, record-stroke, the tests' devices).
        .target(name: "GesturedEvemu", dependencies: ["GesturedCore"]),
        // What explain, draw and check-config say: the hit-test walk, the drawings, the warnings.
        .target(name: "GesturedSeeing", dependencies: ["GesturedCore"]),
        // `gestured doctor`'s checks and the cancel probe; how `gestured-surface` is started.
        .target(name: "GesturedDoctor", dependencies: ["GesturedCore"]),
        // `gestured calibrate`'s session, fit and rules (it starts the surface as the probe does).
        .target(name: "GesturedCalibration", dependencies: ["GesturedCore", "GesturedDoctor"]),
        // Its warnings are GesturedSeeing's (`Configuration.warnings()`), located in the text.
        .target(name: "GesturedConfig", dependencies: ["GesturedCore", "GesturedSeeing"]),
        // ProcessScan reports in the doctor's terms (`DoctorFacts.Guard`, `.ScanBound`).
        .target(name: "GesturedIO", dependencies: ["GesturedCore", "GesturedDoctor", "CEvdev", "CUdev", "CLinux"]),
        // The MQTT bridge's decisions (daemon lines → publications, commands → requests, Home
        // Assistant discovery): pure, beside the core and never below it.
        .target(name: "GesturedMQTT", dependencies: ["GesturedCore"]),
        .executableTarget(name: "gestured",
                          dependencies: ["GesturedCore", "GesturedConfig", "GesturedIO", "GesturedMQTT", "GesturedEvemu",
                                         "GesturedSeeing", "GesturedDoctor", "GesturedCalibration", "CMosquitto", "CLinux"]),
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
                          dependencies: ["GesturedBenchKit", "GesturedConfig", "GesturedCore", "GesturedEvemu", "GesturedIO",
                                         "GesturedSynthetic", "GesturedTestSupport", "CBenchSupport"],
                          path: "Tests/BenchTool"),
        // The core's tests, and the tool modules' beside them.
        .testTarget(name: "GesturedCoreTests",
                    dependencies: ["GesturedCore", "GesturedEvemu", "GesturedSeeing", "GesturedDoctor", "GesturedCalibration",
                                   "GesturedSynthetic", "GesturedTestSupport"]),
        .testTarget(name: "GesturedBenchTests",
                    dependencies: ["GesturedBenchKit", "GesturedConfig", "GesturedCore", "CBenchSupport", "GesturedIO",
                                   "GesturedTestSupport"]),
        .testTarget(name: "GesturedMQTTTests", dependencies: ["GesturedMQTT", "GesturedCore", "GesturedConfig"]),
        .testTarget(name: "GesturedConfigTests", dependencies: ["GesturedConfig", "GesturedCore", "GesturedSeeing"]),
        // Test support: umockdev files from evemu descriptions, subprocesses, a line client.
        // Also uinput devices from evemu descriptions and a recording player (UinputDevice).
        .target(name: "GesturedTestSupport",
                dependencies: ["GesturedCore", "GesturedEvemu", "GesturedIO", "CLinux", "CEvdev", "CUdev"],
                path: "Tests/Support"),
        // Developer/test tool: writes umockdev files for a .desc (make demo) and checks the
        // libudev/libevdev path from inside umockdev-run (GesturedIOTests run it there).
        .executableTarget(name: "gestured-testtool",
                          dependencies: ["GesturedTestSupport", "GesturedIO", "GesturedCore", "GesturedEvemu", "CUmockdev", "CLinux"],
                          path: "Tests/Tool"),
        // Test tool: plays evemu recordings through a uinput device (the kernel), with their
        // timing or faster. Needs /dev/uinput: the QEMU guest of `make test-vm` has it.
        .executableTarget(name: "gestured-inject",
                          dependencies: ["GesturedTestSupport", "GesturedIO", "GesturedCore", "GesturedEvemu"],
                          path: "Tests/Inject"),
        // The checks of the systemd guest (make test-vm-systemd): a program run by a oneshot unit
        // in a Debian image with systemd as PID 1. Never installed.
        .executableTarget(name: "gestured-vm-systemd-check",
                          dependencies: ["GesturedTestSupport", "GesturedIO", "GesturedCore", "GesturedEvemu"],
                          path: "Tests/VMSystemd"),
        // The kernel guest's benchmark (make bench-vm): gestured against `libinput debug-events`
        // on one uinput touchscreen, CPU per frame and tap latency. Never installed.
        .executableTarget(name: "gestured-vm-bench",
                          dependencies: ["GesturedTestSupport", "GesturedIO", "GesturedCore", "GesturedEvemu", "GesturedSynthetic"],
                          path: "Tests/VMBench"),
        // The kernel guest's soak (make soak-vm, docs/RELIABILITY.md): the daemon under a long
        // ten-finger stream with clients churning, reloads and a replug. Never installed.
        .executableTarget(name: "gestured-vm-soak",
                          dependencies: ["GesturedTestSupport", "GesturedIO", "GesturedCore", "GesturedEvemu", "GesturedSynthetic", "CEvdev"],
                          path: "Tests/VMSoak", exclude: ["soak-vm"]),
        // Across modules: replay goldens with the built-in configuration, the command line, and
        // the daemon's parts (`@testable import gestured`) in the test's own process.
        .testTarget(name: "GesturedTests",
                    dependencies: ["gestured", "GesturedCore", "GesturedConfig", "GesturedIO", "GesturedEvemu", "GesturedSeeing",
                                   "GesturedCalibration", "GesturedSynthetic", "GesturedTestSupport", "CLinux"]),
        .testTarget(name: "GesturedIOTests",
                    dependencies: ["GesturedIO", "GesturedCore", "GesturedEvemu", "GesturedDoctor", "GesturedSynthetic",
                                   "GesturedTestSupport", "CLinux", "CEvdev"]),
        // Fuzzing (make fuzz, docs/RELIABILITY.md): the harnesses and the invariants they check,
        // shared by the libFuzzer executables (below, only with GESTURED_FUZZ=1) and by the
        // regression tests of what they found.
        .target(name: "GesturedFuzzKit", dependencies: ["GesturedCore", "GesturedConfig", "GesturedEvemu", "GesturedSynthetic"],
                path: "Tests/Fuzz/Kit"),
        .testTarget(name: "GesturedFuzzTests", dependencies: ["GesturedFuzzKit", "GesturedCore", "GesturedConfig"]),
        // Real kernel, real udev: runs only inside the QEMU guest of `make test-vm`
        // (GESTURED_VM_GUEST=1); elsewhere every test is skipped with that reason.
        .testTarget(name: "GesturedVMTests",
                    dependencies: ["GesturedIO", "GesturedCore", "GesturedEvemu", "GesturedDoctor", "GesturedCalibration",
                                   "GesturedSynthetic", "GesturedTestSupport", "CLinux", "CEvdev"]),
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
