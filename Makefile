# gestured: build, test, run, demo and install.
#
#   make run       build (release) and run the daemon in the foreground with the default config
#   make test      install what the tests need (see deps), build them, run them
#   make test-vm   the VM tests: a real kernel and udevd under QEMU (docs/VM-TESTS.md)
#   make test-vm-trixie   the same with Debian 13's kernel, udevd, libinput and compositors (cage,
#                  sway, weston, labwc), built with swiftlang 6.0.3 (docs/VM-TESTS.md, docs/KIOSK.md)
#   make test-vm-systemd   gestured installed into a Debian image booted with systemd, under QEMU
#   make test-release  the benchmark tests optimized (zero allocations per steady frame)
#   make bench     build (release) and run the benchmark: a table, and JSON in bench-results/
#   make bench-hostile  as root: a request flood from another uid against ping latency, 20,000
#                  views without frames, connect/close churn, the task and memory budget with
#                  actions running (docs/RELIABILITY.md)
#   make bench-vm  in the QEMU guest: gestured's CPU per frame and tap latency against
#                  `libinput debug-events` on one uinput touchscreen (docs/PERFORMANCE.md)
#   make demo      an emulated touchscreen (umockdev) double-taps; a client prints the lines
#   make fuzz      FUZZ_SECONDS=60: every fuzz target (libFuzzer, ASan) for that long each
#   make test-sanitize   the host tests built with the address and undefined-behaviour sanitizers
#   make soak-vm   in the QEMU guest: 10^6 frames of ten fingers with clients churning, reloads
#                  and a replug; RSS, descriptors and clients must come back (docs/RELIABILITY.md)
#   make readme-picture   docs/images/example-config.svg: the example configuration as
#                  `gestured draw` sees it (a test checks it matches the code)
#   make install   PREFIX=/usr/local DESTDIR= : binary, systemd units and generator, man pages,
#                  docs and examples, /etc/gestured/gestured.json5, the groups; then
#                  `systemctl enable --now gestured.socket gestured.path gestured.service`
#   make uninstall what install put in place, except the configuration and the groups
#   make deb       dist/gestured_<version>_<arch>.deb, built by dpkg-buildpackage from debian/ and
#                  checked by lintian (docs/PACKAGING.md)
#   make deb ARCH=arm64   dist/gestured_<version>_arm64.deb, cross-built on amd64 in the Debian 13
#                  root with its swiftlang (docs/PACKAGING.md, "The arm64 package")
#   make test-arm64   that package's binary under qemu-aarch64-static: every recording replayed,
#                  every configuration checked, byte-identical to amd64; alloc-check on arm64
#   make test-vm-arm64   the arm64 package in an arm64 kernel guest (qemu-system-aarch64, TCG)
#   make test-home-assistant   `gestured mqtt` against a real Home Assistant (from PyPI, in the
#                  Debian 13 root) and mosquitto: discovery, a tap, the lock switch (docs/MQTT.md)
#
# Works on a fresh Debian 12 with only the Swift toolchain: the deps targets install the C
# libraries and tools with apt-get (through sudo when not root), each only what its targets need:
# deps-build (libevdev, libudev: `make run`, `make install`), deps (every test), deps-deb
# (debhelper, lintian: `make deb`), deps-vm, deps-vm-systemd, deps-arm64 (debootstrap,
# qemu-user-static, qemu-system-arm: `make deb ARCH=arm64`, test-arm64, test-vm-arm64). Variables:
#   SWIFTPM_FLAGS     passed to every swift build/test (e.g. --scratch-path /tmp/build)
#   SWIFT_TEST_FLAGS  passed to swift test only (e.g. --filter GesturedIOTests)
#   ARCH              arm64: `make deb` writes the arm64 package instead (cross-built)
#
# The demo's device files come from `gestured-testtool umockdev DESC --umockdev F --ioctl F`, a
# developer tool built with the package (Tests/Tool) that turns an evemu description into the
# files umockdev-run needs; it is never installed. Run it by hand the same way.

SWIFT ?= swift
SWIFTPM_FLAGS ?=
SWIFT_TEST_FLAGS ?=
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
# gestured-surface, the probe's Wayland client, is not a command of its own: gestured finds it in
# ../libexec/gestured/ beside its own folder.
LIBEXECDIR ?= $(PREFIX)/libexec
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/gestured
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
SYSTEMDGENERATORDIR ?= $(PREFIX)/lib/systemd/system-generators
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
CONFIGDIR ?= /etc/gestured
# The installed binary is stripped of its symbols (24 MB → 11 MB with the static Swift runtime);
# INSTALL_STRIP= keeps them, for debugging on the target.
INSTALL_STRIP ?= -s
# A prebuilt binary to install (or package) instead of building one: nothing is built and no
# build or test dependency is installed (the install test, debian/rules, a target without Swift).
GESTURED_BIN ?=
# The group allowed to connect to the socket (systemd/gestured.socket.in, sysusers.d).
SOCKET_GROUP := gestured
# Release builds link the Swift runtime statically: the target needs only glibc, libevdev, libudev.
RELEASE_FLAGS := -c release --static-swift-stdlib

# What `swift build` needs (the Swift toolchain aside): libwayland-client for gestured-surface,
# the probe's Wayland client (Sources/gestured-surface); libmosquitto for `gestured mqtt`.
BUILD_APT_PACKAGES := libevdev-dev libudev-dev libwayland-dev libmosquitto-dev pkg-config
# What the tests need besides.
APT_PACKAGES := $(BUILD_APT_PACKAGES) umockdev libumockdev-dev evemu-tools \
	groff-base man-db systemd valgrind chromium python3 mosquitto mosquitto-clients openssl
# What `make deb` needs besides the build's: Debian's packaging tools.
DEB_APT_PACKAGES := $(BUILD_APT_PACKAGES) debhelper dpkg-dev fakeroot lintian
# The VM tests: QEMU, the guest's busybox, and the tools that unpack Debian's kernel and pack the
# initramfs (the kernel and udev themselves are fetched with apt-get download into a cache), and
# `libinput debug-events`, the application the pass-through tests watch the clone with (the guest
# runs the host's binaries), and `lisgd`, bench-vm's second gesture reader beside libinput. The
# compositor matrix (CompositorVMTests, docs/KIOSK.md) runs Debian's own compositors in the guest
# with an application on the clone: cage, sway and weston with `wev` (seatd gives the wlroots ones
# their devices, cage needs Xwayland), and Xorg with the libinput driver and `xinput test-xi2`.
VM_APT_PACKAGES := qemu-system-x86 busybox-static xz-utils cpio libinput-tools lisgd \
	cage sway weston wev seatd xwayland xserver-xorg-core xserver-xorg-input-libinput xinput
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

RECORDINGS := Tests/Fixtures/recordings
DEMO_NODE := /dev/input/event7

.PHONY: deps-arm64 build-arm64 test-arm64 test-vm-arm64
.PHONY: wayland-glue deps-trixie test-trixie deb-trixie test-home-assistant deps-vm-systemd-trixie test-vm-systemd-trixie test-vm-trixie
.PHONY: all deps deps-build deps-deb deps-vm deps-vm-systemd build build-daemon run test test-release test-vm test-vm-systemd bench bench-hostile bench-vm demo readme-picture install uninstall deb clean \
	fuzz fuzz-build fuzz-seeds test-sanitize soak-vm

all: build

## deps-build: install the Debian packages that building the daemon needs, when any is missing.
deps-build:
	@missing=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	pkg-config --exists libevdev 2>/dev/null || missing="$$missing libevdev"; \
	pkg-config --exists libudev 2>/dev/null || missing="$$missing libudev"; \
	pkg-config --exists wayland-client 2>/dev/null || missing="$$missing wayland-client"; \
	pkg-config --exists libmosquitto 2>/dev/null || missing="$$missing libmosquitto"; \
	if [ -n "$$missing" ]; then \
		echo "deps-build: missing:$$missing; installing $(BUILD_APT_PACKAGES)"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(BUILD_APT_PACKAGES); \
	fi

## deps: install the Debian packages the build and the tests need, when any is missing.
deps: deps-build
	@missing=""; \
	pkg-config --exists umockdev-1.0 2>/dev/null || missing="$$missing umockdev-1.0"; \
	command -v umockdev-wrapper >/dev/null 2>&1 || missing="$$missing umockdev-wrapper"; \
	command -v umockdev-run >/dev/null 2>&1 || missing="$$missing umockdev-run"; \
	command -v evemu-describe >/dev/null 2>&1 || missing="$$missing evemu-describe"; \
	command -v groff >/dev/null 2>&1 || missing="$$missing groff"; \
	command -v man >/dev/null 2>&1 || missing="$$missing man"; \
	command -v systemd-analyze >/dev/null 2>&1 || missing="$$missing systemd-analyze"; \
	command -v valgrind >/dev/null 2>&1 || missing="$$missing valgrind"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	[ -x /usr/bin/python3 ] || missing="$$missing python3"; \
	[ -x /usr/sbin/mosquitto ] || missing="$$missing mosquitto"; \
	command -v mosquitto_sub >/dev/null 2>&1 || missing="$$missing mosquitto_sub"; \
	command -v openssl >/dev/null 2>&1 || missing="$$missing openssl"; \
	if [ -n "$$missing" ]; then \
		echo "deps: missing:$$missing; installing $(APT_PACKAGES)"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(APT_PACKAGES); \
	fi

## deps-deb: Debian's packaging tools for `make deb`, when any is missing (not the tests' deps).
deps-deb: deps-build
	@missing=""; \
	for tool in dh dpkg-buildpackage dpkg-shlibdeps fakeroot lintian; do \
		command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "deps-deb: missing:$$missing; installing $(DEB_APT_PACKAGES)"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(DEB_APT_PACKAGES); \
	fi

## deps-vm: what `make test-vm` needs besides deps.
deps-vm: deps
	@missing=""; \
	command -v qemu-system-x86_64 >/dev/null 2>&1 || missing="$$missing qemu-system-x86_64"; \
	dpkg-query -W -f '$${Status}' busybox-static 2>/dev/null | grep -q 'ok installed' || missing="$$missing busybox-static"; \
	command -v xz >/dev/null 2>&1 || missing="$$missing xz"; \
	command -v cpio >/dev/null 2>&1 || missing="$$missing cpio"; \
	command -v libinput >/dev/null 2>&1 || missing="$$missing libinput"; \
	command -v lisgd >/dev/null 2>&1 || missing="$$missing lisgd"; \
	for tool in cage sway weston wev seatd Xwayland Xorg xinput; do \
		command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; \
	done; \
	[ -f /usr/lib/xorg/modules/input/libinput_drv.so ] || missing="$$missing xserver-xorg-input-libinput"; \
	if [ -n "$$missing" ]; then \
		echo "deps-vm: missing:$$missing; installing $(VM_APT_PACKAGES)"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(VM_APT_PACKAGES); \
	fi

## build: release build of the package (Swift runtime linked statically), test tools included.
build: deps
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS)

## build-daemon: the release gestured alone, with the same flags as `build` and `make test` (so
## after either it is up to date and nothing is compiled), needing only deps-build.
build-daemon: deps-build
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured-surface

## run: the daemon in the foreground with its embedded default configuration. Without root the
## socket goes to $XDG_RUNTIME_DIR (reading /dev/input still needs the input group).
run: build-daemon
	@bin=$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --show-bin-path); \
	if [ "$$(id -u)" = 0 ]; then \
		set -x; exec "$$bin/gestured" run; \
	else \
		runtime="$${XDG_RUNTIME_DIR:-/run/user/$$(id -u)}"; \
		set -x; exec "$$bin/gestured" run --socket "$$runtime/gestured.sock"; \
	fi

## test: every test, including the umockdev ones (they need deps). The release binaries are built
## first: the install test installs gestured and checks it needs no Swift library, and the
## allocation test runs the optimized gestured-bench's alloc-check.
test: deps
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured-surface
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured-bench
	$(SWIFT) build --build-tests $(SWIFTPM_FLAGS)
	$(SWIFT) test $(SWIFTPM_FLAGS) $(SWIFT_TEST_FLAGS)

## test-vm: the VM test suite (Tests/GesturedVMTests) in a QEMU guest with Debian's kernel and
## udevd, against the daemon and test bundle built here; one line per test, then
## "N passed, N failed". The guest (kernel + initramfs) is built once from Debian packages and
## cached in $$GESTURED_VM_CACHE (default ~/.cache/gestured-vm). VM_TEST_FILTER narrows the
## tests (a Swift Testing --filter). VM_TIMEOUT: seconds the guest may run in all (the whole
## suite took 13-17 minutes under TCG at load 10-15 once the compositor suites joined it).
VM_TEST_FILTER ?= GesturedVMTests
VM_TIMEOUT ?= 2400
test-vm: deps-vm
	$(SWIFT) build --build-tests $(SWIFTPM_FLAGS)
	@bin=$$($(SWIFT) build $(SWIFTPM_FLAGS) --show-bin-path); \
	GESTURED_VM_TIMEOUT=$(VM_TIMEOUT) GESTURED_VM_FILTER='$(VM_TEST_FILTER)' Tests/VM/gestured-vm test "$$bin"

## deps-vm-systemd: debootstrap, for the systemd guest's root.
deps-vm-systemd: deps-vm
	@command -v debootstrap >/dev/null 2>&1 || { \
		echo "deps-vm-systemd: installing debootstrap"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap; }

## test-vm-systemd: the Debian package under systemd as PID 1 in the guest: a copy of a cached
## debootstrap'd Debian 12 root (built once) with the packages and the checks of Tests/VMSystemd,
## run by a oneshot unit: apt install of `make deb`'s package (service, socket, path unit, the
## uinput grant both ways, reload, crash and watchdog restarts, socket activation, a clear stop
## on an invalid configuration, an admin action), an upgrade to the same binary packaged as the
## next Debian revision over an edited configuration, remove and purge, then the package again
## with a pass-through panel across one reboot: uinput loaded at boot, and the udev rule for a
## module loaded while udevd runs (docs/VM-TESTS.md).
## Nothing is compiled twice: the package's binary is the release build; only the checks are
## built here, with the same flags.
## VM_SUITE=trixie boots Debian 13 (systemd 257) with its kernel instead: `make test-vm-systemd-trixie`.
VM_SUITE ?= bookworm
DEB_UPGRADE_REVISION = $(shell echo $$(( $(lastword $(subst -, ,$(DEB_VERSION))) + 1 )))
test-vm-systemd: deps-vm-systemd deb
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured-vm-systemd-check
	@set -e; bin=$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --show-bin-path); \
	staging=$$(Tests/VM/gestured-vm systemd-staging $(VM_SUITE)); packages=$$(mktemp -d /tmp/gestured-vm-debs.XXXXXX); \
	trap 'rm -rf "$$staging" "$$packages"' EXIT; \
	debian/make-deb "$$bin/gestured" "$$packages" --revision $(DEB_UPGRADE_REVISION) --no-lintian; \
	Tests/VM/gestured-vm systemd-test "$$staging" "$$bin" $(DEB_FILE) "$$packages"/gestured_*_$(DEB_ARCH).deb
## test-release: the benchmark's tests in an optimized build, where the zero-allocation test
## of the steady-state frame runs (a debug build allocates where -O would not, so it skips there).
## Tests cannot link the Swift runtime statically (the toolchain has no static Testing module),
## so this build has its own scratch directory: the static gestured in .build/release, which
## `make test` (the install test) expects, stays as it is.
TEST_RELEASE_SCRATCH ?= .build/test-release
test-release: deps
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing $(SWIFTPM_FLAGS) --scratch-path $(TEST_RELEASE_SCRATCH)
	$(SWIFT) test -c release --skip-build $(SWIFTPM_FLAGS) --scratch-path $(TEST_RELEASE_SCRATCH) --filter GesturedBenchTests

## test-sanitize: the host tests built with AddressSanitizer (Swift and C code) and
## UndefinedBehaviorSanitizer (C code: swiftc has no -sanitize=undefined on Linux; Swift's own
## checks of this debug build trap on overflow, out-of-bounds access and exclusivity), in their own
## scratch path. `-Xswiftc -sanitize=address` is not used: SwiftPM's --sanitize already reaches
## the compiler, and two -sanitize flags leave only the last. The processes the tests start (the
## daemon, the test tool under umockdev's LD_PRELOAD) are the instrumented builds too. Skipped:
## InstallTests and SteadyStateAllocationTests, which test the release binaries `make test` builds,
## not this build. SANITIZE_TEST_FLAGS narrows the run (CI: the core and IO suites).
SANITIZE_SCRATCH ?= .build/sanitize
SANITIZE_TEST_FLAGS ?=
SANITIZE_FLAGS := --scratch-path $(SANITIZE_SCRATCH) --sanitize address -Xcc -fsanitize=undefined \
	-Xcc -fno-sanitize-recover=undefined
SANITIZE_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 SWIFT_BACKTRACE=enable=no
test-sanitize: deps
	$(SWIFT) build --build-tests $(SANITIZE_FLAGS)
	$(SANITIZE_ENV) $(SWIFT) test --skip-build $(SANITIZE_FLAGS) --skip InstallTests --skip SteadyStateAllocationTests --skip ConfigLoadAllocationGrowthTests \
		$(SANITIZE_TEST_FLAGS)

## bench: the performance figures of docs/PERFORMANCE.md (under five minutes). BENCH_FLAGS are
## passed to gestured-bench (e.g. --runs 3, --core-only).
BENCH_FLAGS ?=
bench: deps
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS)
	@bin=$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --show-bin-path); \
	set -x; "$$bin/gestured-bench" --bin "$$bin" $(BENCH_FLAGS)

## bench-hostile: the figures of docs/RELIABILITY.md, "Hostile clients and configurations", on
## the release gestured (or BIN=DIR's): 16 connections of uid 65534 flooding filters while uid
## 65533 pings every 10 ms, 20,000 views without frames, 3 s of connect/close churn, the
## service's task and memory budget with actions running (budget). As root.
## HOSTILE_FLAGS are passed to Tests/Hostile/hostile-bench (e.g. flood --seconds 10, --summary).
HOSTILE_FLAGS ?=
bench-hostile: deps-build
	@if [ -z "$(BIN)" ]; then $(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured; fi
	@bin=$${BIN:-$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --show-bin-path)}; \
	set -x; python3 Tests/Hostile/hostile-bench "$$bin/gestured" $(HOSTILE_FLAGS)

## bench-vm: the kernel guest's benchmark (docs/PERFORMANCE.md, "Kernel guest"): the release
## gestured against `libinput debug-events` on one uinput touchscreen in the guest image of
## test-vm, instruction-timed (QEMU -icount, so the figures do not move with the host's load),
## ten moving fingers (CPU per frame: libinput, lisgd, gestured with one client, with none, with no
## gestures, and `cat` as the floor) and taps (latency); a table. About 4 minutes. BENCH_VM_FLAGS
## are passed to gestured-vm-bench (e.g. --rate 100, --rounds 3).
## `make test-vm` runs it small, as a smoke run without thresholds (BenchVMTests).
BENCH_VM_FLAGS ?=
bench-vm: deps-vm
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured-vm-bench
	@bin=$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --show-bin-path); \
	Tests/VM/gestured-vm bench "$$bin" $(BENCH_VM_FLAGS)

## fuzz: the fuzz targets of Tests/Fuzz (docs/RELIABILITY.md, "Fuzzing"), each for FUZZ_SECONDS:
## one line per target, "fuzz <target>: <runs> runs, <crashes> crashes", and a non-zero exit on
## any crash (a violated invariant is one). They are built with libFuzzer and AddressSanitizer
## (`-sanitize=fuzzer,address`) in their own scratch path, FUZZ_SCRATCH, so the normal build is
## untouched; what the runs find interesting stays in FUZZ_SCRATCH/run/corpus for the next run.
FUZZ_SECONDS ?= 60
FUZZ_SCRATCH ?= .build/fuzz
FUZZ_TARGETS ?= config requests evemu pipeline strokes
# `--sanitize fuzzer` makes SwiftPM link the executables for libFuzzer's `main`; the combined
# `-sanitize=fuzzer,address` is what reaches the compiler (SwiftPM's two separate flags leave the
# frontend with only the last one, and no coverage instrumentation).
FUZZ_BUILD_FLAGS = -c release --scratch-path $(FUZZ_SCRATCH) --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address
fuzz: fuzz-build
	@Tests/Fuzz/run-fuzz $(FUZZ_SCRATCH)/release $(FUZZ_SECONDS) $(FUZZ_SCRATCH)/run $(FUZZ_TARGETS)

fuzz-build:
	@for t in $(FUZZ_TARGETS); do \
		GESTURED_FUZZ=1 $(SWIFT) build $(FUZZ_BUILD_FLAGS) --product fuzz-$$t || exit 1; \
	done

## fuzz-seeds: rebuilds the kept corpora (Tests/Fuzz/Corpus) from the seeds the repository's
## configurations and recordings make (Tests/Fuzz/seeds.py), the corpora kept so far and what
## this machine's runs found (FUZZ_SCRATCH/run/corpus), merged by libFuzzer to the inputs that
## add coverage. Run it after a long fuzzing run, or after changing an input format.
fuzz-seeds: fuzz-build
	@set -e; rm -rf $(FUZZ_SCRATCH)/seeds $(FUZZ_SCRATCH)/merged; \
	python3 Tests/Fuzz/seeds.py $(FUZZ_SCRATCH)/seeds; \
	for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_SCRATCH)/merged/$$t $(FUZZ_SCRATCH)/run/corpus/$$t Tests/Fuzz/Corpus/$$t; \
		SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 $(FUZZ_SCRATCH)/release/fuzz-$$t -merge=1 \
			-max_len=16384 -timeout=60 -rss_limit_mb=2048 $(FUZZ_SCRATCH)/merged/$$t $(FUZZ_SCRATCH)/seeds/$$t \
			Tests/Fuzz/Corpus/$$t $(FUZZ_SCRATCH)/run/corpus/$$t > $(FUZZ_SCRATCH)/merged/$$t.log 2>&1 || \
			{ echo "fuzz-seeds: merging $$t failed, see $(FUZZ_SCRATCH)/merged/$$t.log"; exit 1; }; \
		rm -rf Tests/Fuzz/Corpus/$$t; mv $(FUZZ_SCRATCH)/merged/$$t Tests/Fuzz/Corpus/$$t; \
		echo "fuzz-seeds: $$t: $$(ls Tests/Fuzz/Corpus/$$t | wc -l) inputs, $$(du -sk Tests/Fuzz/Corpus/$$t | cut -f1) KiB"; \
	done

## soak-vm: the soak of docs/RELIABILITY.md in the kernel guest of test-vm: the release
## gestured with a pass-through touchscreen under 10^6 frames of ten fingers (1000 frames/s)
## while clients connect, subscribe, stall, send garbage and hang up at random, a SIGHUP every
## 3 s and the panel unplugged and plugged back; afterwards its memory, descriptors and clients
## must be back where they started, the reading client must have lost no transition and the
## application (the clone) must hold no touch. About 25 minutes. SOAK_FLAGS are passed to
## gestured-vm-soak (e.g. --frames 100000 for a short one). Set GESTURED_VM_CACHE as for test-vm.
SOAK_FLAGS ?=
soak-vm: deps-vm
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured-vm-soak
	@bin=$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --show-bin-path); \
	Tests/VMSoak/soak-vm "$$bin" $(SOAK_FLAGS)

## demo: gestured under umockdev-run with the synthetic touchscreen replaying a double tap,
## and `gestured listen` printing what it receives for a few seconds.
demo: build
	@set -eu; \
	bin=$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --show-bin-path); \
	dir=$$(mktemp -d /tmp/gestured-demo.XXXXXX); \
	daemon=""; \
	cleanup() { [ -z "$$daemon" ] || kill "$$daemon" 2>/dev/null || true; rm -rf "$$dir"; }; \
	trap cleanup EXIT INT TERM; \
	"$$bin/gestured-testtool" umockdev $(RECORDINGS)/synthetic-touchscreen.desc --node $(DEMO_NODE) \
		--umockdev "$$dir/device.umockdev" --ioctl "$$dir/device.ioctl"; \
	printf '%s\n' '{ screen: { width: 1000, height: 1000 },' \
		'  views: [{ id: "root", gestures: [' \
		'    { id: "single", type: "tap", requireToFail: ["double"] },' \
		'    { id: "double", type: "tap", numberOfTapsRequired: 2 } ] }] }' > "$$dir/demo.json5"; \
	echo "demo: gestured run under umockdev-run; the double tap starts 1.5 s after umockdev-run does"; \
	timeout -s KILL 15 umockdev-run -d "$$dir/device.umockdev" -i $(DEMO_NODE)="$$dir/device.ioctl" \
		-e $(DEMO_NODE)=$(RECORDINGS)/synthetic-double-tap.events -- \
		"$$bin/gestured" run --socket "$$dir/g.sock" --config "$$dir/demo.json5" & \
	daemon=$$!; \
	"$$bin/gestured-testtool" wait-socket "$$dir/g.sock" --timeout-ms 5000 || \
		{ echo "demo: gestured did not open its socket; see its messages above"; exit 1; }; \
	timeout -s INT 5 "$$bin/gestured" listen --socket "$$dir/g.sock" || true; \
	echo "demo: done"

## readme-picture: the README's picture of the example configuration, drawn by the code as it
## is (DrawTests fails when the checked-in file differs from what the code draws).
readme-picture:
	$(SWIFT) build $(SWIFTPM_FLAGS) --product gestured
	@bin=$$($(SWIFT) build $(SWIFTPM_FLAGS) --show-bin-path); \
	set -x; "$$bin/gestured" draw --config config/gestured.json5 --output docs/images/example-config.svg

## install: the binary, the units and the generator (from systemd/*.in with this BINDIR and
## CONFIGDIR), the sysusers.d file, the udev rule, man pages, docs with their pictures, the
## examples, and config/default.json5 (the built-in configuration, commented) as the
## configuration unless one exists (an edited one is never overwritten). Without DESTDIR it also
## creates the groups and, when systemd runs, reloads it (which runs the generator). Then:
## systemctl enable --now gestured.socket gestured.path gestured.service
## GESTURED_BIN=FILE installs that binary (and the gestured-surface beside it) instead of building them: nothing is built and no
## dependency installed (the install test and debian/rules use it).
UNITS := gestured.service gestured.socket gestured.path gestured-action@.service gestured-action@.path gestured-mqtt.service
GENERATOR := gestured-generator
EXAMPLES := config/gestured.json5 config/two-panels.json5 config/kiosk.json5 config/kiosk-rpi-7inch.json5 \
	config/kiosk-rpi-touch-display-2.json5 config/kiosk-browser.json5 config/61-gestured-clone.rules \
	docs/kiosk/kiosk-admin-menu.service
# The kiosk session's hook (docs/KIOSK.md), run as it is by `gestured listen --exec`: a program,
# so in LIBEXECDIR, not among the examples (a system may leave /usr/share/doc out).
KIOSK_HOOK := docs/kiosk/kiosk-hook.sh
DOC_FILES = README.md LICENSE $(wildcard docs/*.md docs/images/*.svg docs/kiosk/*.svg docs/strokes/*.svg)
install: $(if $(GESTURED_BIN),,build-daemon)
	@set -e; \
	bin="$(or $(GESTURED_BIN),$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --show-bin-path)/gestured)"; \
	rendered=$$(mktemp); trap 'rm -f "$$rendered"' EXIT; \
	render() { sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@CONFIGDIR@|$(CONFIGDIR)|g' "systemd/$$1.in" > "$$rendered"; }; \
	install -D -m 755 $(INSTALL_STRIP) "$$bin" "$(DESTDIR)$(BINDIR)/gestured"; \
	surface="$$(dirname "$$(realpath "$$bin")")/gestured-surface"; \
	[ -x "$$surface" ] || { echo "install: no $$surface (it is built beside gestured: make build-daemon)" >&2; exit 1; }; \
	install -D -m 755 $(INSTALL_STRIP) "$$surface" "$(DESTDIR)$(LIBEXECDIR)/gestured/gestured-surface"; \
	install -D -m 755 $(KIOSK_HOOK) "$(DESTDIR)$(LIBEXECDIR)/gestured/kiosk-hook"; \
	for unit in $(UNITS); do \
		render "$$unit"; install -D -m 644 "$$rendered" "$(DESTDIR)$(SYSTEMDUNITDIR)/$$unit"; \
	done; \
	render $(GENERATOR); install -D -m 755 "$$rendered" "$(DESTDIR)$(SYSTEMDGENERATORDIR)/$(GENERATOR)"; \
	install -D -m 644 systemd/gestured.sysusers "$(DESTDIR)$(SYSUSERSDIR)/gestured.conf"; \
	install -D -m 644 systemd/60-gestured-uinput.rules "$(DESTDIR)$(UDEVRULESDIR)/60-gestured-uinput.rules"; \
	install -D -m 644 man/gestured.8 "$(DESTDIR)$(MANDIR)/man8/gestured.8"; \
	install -D -m 644 man/gestured.json5.5 "$(DESTDIR)$(MANDIR)/man5/gestured.json5.5"; \
	for doc in $(DOC_FILES); do install -D -m 644 "$$doc" "$(DESTDIR)$(DOCDIR)/$$doc"; done; \
	for example in $(EXAMPLES); do install -D -m 644 "$$example" "$(DESTDIR)$(DOCDIR)/examples/$$(basename "$$example")"; done; \
	if [ -e "$(DESTDIR)$(CONFIGDIR)/gestured.json5" ]; then \
		echo "install: $(DESTDIR)$(CONFIGDIR)/gestured.json5 exists, left as it is"; \
	else \
		install -D -m 644 config/default.json5 "$(DESTDIR)$(CONFIGDIR)/gestured.json5"; \
	fi; \
	echo "install: $(DESTDIR)$(BINDIR)/gestured, units in $(DESTDIR)$(SYSTEMDUNITDIR), man pages in $(DESTDIR)$(MANDIR)"; \
	if [ -n "$(DESTDIR)" ]; then \
		echo "install: DESTDIR set: not creating groups $(SOCKET_GROUP) and gestured-uinput (sysusers.d/gestured.conf does it on the target)"; \
	else \
		for group in $(SOCKET_GROUP) gestured-uinput; do \
			getent group $$group >/dev/null && continue; \
			if command -v systemd-sysusers >/dev/null 2>&1; then systemd-sysusers "$(SYSUSERSDIR)/gestured.conf"; \
			else groupadd --system $$group; fi; \
		done; \
	fi; \
	if [ -z "$(DESTDIR)" ] && command -v udevadm >/dev/null 2>&1 && [ -d /run/udev ]; then \
		udevadm control --reload && udevadm trigger --settle --subsystem-match=misc --sysname-match=uinput || true; \
	fi; \
	if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
		systemctl daemon-reload; \
		echo "install: now run: systemctl enable --now gestured.socket gestured.path gestured.service"; \
	fi

## deb: dist/gestured_<version>_<arch>.deb (docs/PACKAGING.md), <version> from debian/changelog.
## The release gestured is built as `make build-daemon` builds it (after `make test`, nothing is
## compiled), then debian/make-deb runs dpkg-buildpackage -b on a scratch copy of the tree with
## GESTURED_BIN set to it and lintian on the result: an error fails the target, warnings are
## printed (each one kept is explained in debian/gestured.lintian-overrides). The .deb is a file
## target: it is made again only when the binary or a packaged file is newer.
DEB_DIST ?= dist
DEB_VERSION := $(shell awk 'NR == 1 { gsub(/[()]/, "", $$2); print $$2 }' debian/changelog)
DEB_ARCH := $(or $(ARCH),$(shell dpkg --print-architecture 2>/dev/null || echo amd64))
DEB_FILE := $(DEB_DIST)/gestured_$(DEB_VERSION)_$(DEB_ARCH).deb
DEB_INPUTS = Makefile $(wildcard debian/* debian/source/* systemd/* man/* config/*) $(DOC_FILES) $(EXAMPLES) $(KIOSK_HOOK)
ifneq ($(ARCH),arm64)
deb: deps-deb build-daemon
	@bin=$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --show-bin-path)/gestured; \
	$(MAKE) --no-print-directory DEB_BIN="$$bin" $(DEB_FILE)

$(DEB_FILE): $(DEB_BIN) $(DEB_INPUTS)
	debian/make-deb "$(DEB_BIN)" $(DEB_DIST)
endif

# ---- arm64: the package cross-built in the Debian 13 root, and its proof (issue 32) --------------
## deb ARCH=arm64: dist/gestured_<version>_arm64.deb on this amd64 machine (docs/PACKAGING.md,
## "The arm64 package"). Tests/Arm64/gestured-arm64 holds the cross-build's flags (the only place
## that knows the target): Debian 13's swiftlang 6.0.3 in the root of Tests/Trixie/gestured-trixie
## compiles gestured and gestured-bench for aarch64-unknown-linux-gnu (release, Swift runtime
## linked statically, ld.lld) into .build-arm64, then debian/make-deb --arch arm64 packages the
## binary there (dpkg-buildpackage -a arm64: dpkg-shlibdeps against the arm64 libraries, lintian
## of Debian 13), in a cached layer over the root that carries the packaging tools.
## deps-arm64: debootstrap (the root, made once), qemu-user-static (test-arm64) and
## qemu-system-arm (test-vm-arm64) on this machine, when missing.
ARM64 := Tests/Arm64/gestured-arm64
ARM64_BIN := $(CURDIR)/.build-arm64/aarch64-unknown-linux-gnu/release
ARM64_APT_PACKAGES := debootstrap qemu-user-static qemu-system-arm
deps-arm64:
	@missing=""; \
	for tool in debootstrap qemu-aarch64-static qemu-system-aarch64; do \
		command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "deps-arm64: missing:$$missing; installing $(ARM64_APT_PACKAGES)"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(ARM64_APT_PACKAGES); \
	fi

build-arm64: deps-arm64
	$(ARM64) build gestured gestured-surface gestured-bench

ifeq ($(ARCH),arm64)
# A file target too: made again only when the binary or a packaged file is newer.
deb: build-arm64
	@$(MAKE) --no-print-directory ARCH=arm64 $(DEB_FILE)

$(DEB_FILE): $(ARM64_BIN)/gestured $(DEB_INPUTS)
	$(ARM64) deb $(ARM64_BIN)/gestured $(DEB_DIST)
endif

## test-arm64: the package of `make deb ARCH=arm64` against the amd64 release build (`make test`
## or `make build-daemon` builds it; here only what is missing is built): its binary under
## qemu-aarch64-static with the root as -L prefix replays every recording of the repository
## (text, JSON, strokes, forwarded), checks every configuration (the examples accepted, the bad
## ones of Tests/Fixtures/configs/invalid rejected) and draws, each byte-identical to amd64, and
## the cross-built gestured-bench's alloc-check finds no allocation in a steady frame
## (Tests/Arm64/check-identity). One line per check, then "N passed, N failed".
test-arm64: deps-build
	$(MAKE) --no-print-directory deb ARCH=arm64
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured-bench
	@bin=$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --show-bin-path); \
	$(ARM64) check "$$bin" $(ARM64_BIN) $(DEB_DIST)/gestured_$(DEB_VERSION)_arm64.deb

## test-vm-arm64: the package of `make deb ARCH=arm64` in an arm64 kernel guest: Debian 13's arm64
## kernel under qemu-system-aarch64 (-M virt, TCG) with udevd; a uinput panel (evemu-device)
## replays a tap and a three-finger swipe, a client (`gestured listen`) reads both lines, the
## pass-through clone appears and `libinput debug-events` on it sees the forwarded tap
## (Tests/Arm64/vm-arm64; the guest's packages come through the root's apt and are cached).
test-vm-arm64: deps-arm64
	$(MAKE) --no-print-directory deb ARCH=arm64
	Tests/Arm64/vm-arm64 $(DEB_DIST)/gestured_$(DEB_VERSION)_arm64.deb
# ---- end of arm64 ---------------------------------------------------------------------------------

## uninstall: removes what install put in place except the configuration (it may be edited) and
## the groups (files elsewhere may belong to them).
uninstall:
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
		systemctl disable --now gestured.path gestured.socket gestured.service 2>/dev/null || true; \
	fi
	rm -f "$(DESTDIR)$(BINDIR)/gestured"
	rm -rf "$(DESTDIR)$(LIBEXECDIR)/gestured"
	rm -f $(foreach unit,$(UNITS),"$(DESTDIR)$(SYSTEMDUNITDIR)/$(unit)") "$(DESTDIR)$(SYSTEMDGENERATORDIR)/$(GENERATOR)"
	rm -f "$(DESTDIR)$(SYSUSERSDIR)/gestured.conf" "$(DESTDIR)$(UDEVRULESDIR)/60-gestured-uinput.rules"
	rm -f "$(DESTDIR)$(MANDIR)/man8/gestured.8" "$(DESTDIR)$(MANDIR)/man5/gestured.json5.5"
	rm -rf "$(DESTDIR)$(DOCDIR)"
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
	@echo "uninstall: left $(DESTDIR)$(CONFIGDIR)/gestured.json5 and groups $(SOCKET_GROUP), gestured-uinput in place"

## ---- Debian 13 (trixie): its own Swift, its systemd (docs/PACKAGING.md, "Debian 13") ----
## deps-trixie: debootstrap, for the Debian 13 root of test-trixie (the rest comes from Debian 13's
## own archive into that root).
deps-trixie:
	@command -v debootstrap >/dev/null 2>&1 || { \
		echo "deps-trixie: installing debootstrap"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap; }

## test-trixie: the package built and its host tests run with Debian 13's own Swift (swiftlang
## 6.0.3), in a Debian 13 root with the packages the tests need (Tests/Trixie/gestured-trixie:
## debootstrap'd once and cached in ~/.cache/gestured-trixie, made again only when its package
## list changes): `make test` there, with the scratch path TRIXIE_SCRATCH in this repository (so
## a second run, or CI's next step, builds nothing again), then Tests/Trixie/summary: swift test's
## own summary line, and each skipped test counted with its reason.
TRIXIE_SCRATCH ?= .build-trixie
test-trixie: deps-trixie
	@Tests/Trixie/gestured-trixie root >/dev/null
	@log=$$(mktemp /tmp/gestured-test-trixie.XXXXXX); trap 'rm -f "$$log" "$$log.status"' EXIT; \
	{ Tests/Trixie/gestured-trixie run /bin/sh -c 'swift --version 2>&1 | head -1; \
		exec make --no-print-directory test SWIFTPM_FLAGS="$$1" SWIFT_TEST_FLAGS="$$2"' sh \
		"--scratch-path $(TRIXIE_SCRATCH)" '$(SWIFT_TEST_FLAGS)'; echo $$? > "$$log.status"; } 2>&1 | tee "$$log"; \
	Tests/Trixie/summary "$$log" "$$(cat "$$log.status")"

## deb-trixie: `make deb` as a Debian 13 machine runs it (a Raspberry Pi with Raspberry Pi OS and
## Debian's swiftlang, say): inside test-trixie's root, with the packaging layer of the arm64
## package over it (Tests/Arm64/gestured-arm64 layer), built by swiftlang 6.0.3 in $(TRIXIE_SCRATCH)
## (after test-trixie nothing is compiled again) into dist/trixie/gestured_<version>_<arch>.deb,
## lintian's errors failing it as for `make deb` (docs/PACKAGING.md, "Building on Debian 13").
deb-trixie: deps-trixie
	@Tests/Trixie/gestured-trixie root >/dev/null
	Tests/Arm64/gestured-arm64 layer make --no-print-directory deb SWIFTPM_FLAGS="--scratch-path $(TRIXIE_SCRATCH)" DEB_DIST=$(DEB_DIST)/trixie

## test-home-assistant: `gestured mqtt` against a real Home Assistant (docs/MQTT.md, "Tested against
## Home Assistant"): mosquitto, the daemon on the emulated touchscreen and the bridge from the debug
## build here; Home Assistant (pinned in Tests/HomeAssistant/test-home-assistant) in test-trixie's
## Debian 13 root, from a venv made once and cached in ~/.cache/gestured-ha (GESTURED_HA_CACHE).
test-home-assistant: deps deps-trixie
	$(SWIFT) build $(SWIFTPM_FLAGS) --product gestured
	$(SWIFT) build $(SWIFTPM_FLAGS) --product gestured-testtool
	@Tests/Trixie/gestured-trixie root >/dev/null
	Tests/HomeAssistant/test-home-assistant "$$($(SWIFT) build $(SWIFTPM_FLAGS) --show-bin-path)"

## deps-vm-systemd-trixie: zstd besides deps-vm-systemd (Debian 13's kernel image is zstd-packed).
deps-vm-systemd-trixie: deps-vm-systemd deps-trixie
	@command -v zstd >/dev/null 2>&1 || { \
		echo "deps-vm-systemd-trixie: installing zstd"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends zstd; }

## test-vm-systemd-trixie: test-vm-systemd in Debian 13 (systemd 257, Debian 13's kernel, fetched
## with the apt of test-trixie's root): the same amd64 package `make deb` builds here, the same checks.
test-vm-systemd-trixie: deps-vm-systemd-trixie
	@Tests/Trixie/gestured-trixie root >/dev/null
	$(MAKE) --no-print-directory test-vm-systemd VM_SUITE=trixie
## test-vm-trixie: the VM suites that depend on the compositors and the Debian release (the
## compositor matrix, the doctor, the cancel probe, the kiosk policy and guide: VM_TRIXIE_TEST_FILTER; the
## kernel-level suites run in test-vm's guest) in the guest with Debian 13's kernel, chrooted into the Debian 13 compositor root (Tests/Trixie/
## gestured-trixie compositor-root: test-trixie's root plus cage, sway, weston, labwc, wev, seatd,
## libinput and udev, made once and cached) with Debian 13's udevd and libinput; the bundle is
## built there with swiftlang 6.0.3 in $(TRIXIE_SCRATCH), the build of test-trixie (nothing is
## compiled twice). One line per test, then "N passed, N failed" (docs/VM-TESTS.md).
VM_TRIXIE_TEST_FILTER ?= GesturedVMTests\.(CompositorVMTests|DoctorVMTests|CancelProbeVMTests|KioskVMTests|KioskGuideVMTests)
test-vm-trixie: deps-vm-systemd-trixie
	@Tests/Trixie/gestured-trixie compositor-root >/dev/null
	Tests/Trixie/gestured-trixie run swift build --build-tests --scratch-path $(TRIXIE_SCRATCH)
	GESTURED_VM_TIMEOUT=$(VM_TIMEOUT) GESTURED_VM_FILTER='$(VM_TRIXIE_TEST_FILTER)' Tests/VM/gestured-vm test-trixie "$(CURDIR)/$(TRIXIE_SCRATCH)/debug"
## ---- end of Debian 13 ----

## wayland-glue: regenerate xdg-shell's glue of gestured-surface (committed, because SwiftPM runs no
## code generator without a plugin) with this machine's wayland-scanner and wayland-protocols.
XDG_SHELL_XML := /usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml
wayland-glue:
	@command -v wayland-scanner >/dev/null 2>&1 && [ -f $(XDG_SHELL_XML) ] || { \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libwayland-bin wayland-protocols; }
	wayland-scanner client-header $(XDG_SHELL_XML) Sources/gestured-surface/xdg-shell-client-protocol.h
	wayland-scanner private-code $(XDG_SHELL_XML) Sources/gestured-surface/xdg-shell-protocol.c

clean:
	$(SWIFT) package clean $(SWIFTPM_FLAGS)
	rm -rf .build .build-arm64
