# gestured: build, test, run, demo and install.
#
#   make run       build (release) and run the daemon in the foreground with the default config
#   make test      install what the tests need (see deps), build them, run them
#   make test-vm   the VM tests: a real kernel and udevd under QEMU (docs/VM-TESTS.md)
#   make test-vm-systemd   gestured installed into a Debian image booted with systemd, under QEMU
#   make test-release  the benchmark tests optimized (zero allocations per steady frame)
#   make bench     build (release) and run the benchmark: a table, and JSON in bench-results/
#   make bench-vm  in the QEMU guest: gestured's CPU per frame and tap latency against
#                  `libinput debug-events` on one uinput touchscreen (docs/PERFORMANCE.md)
#   make demo      an emulated touchscreen (umockdev) double-taps; a client prints the lines
#   make fuzz      FUZZ_SECONDS=60: every fuzz target (libFuzzer, ASan) for that long each
#   make test-sanitize   the host tests built with the address and undefined-behaviour sanitizers
#   make soak-vm   in the QEMU guest: 10^6 frames of ten fingers with clients churning, reloads
#                  and a replug; RSS, descriptors and clients must come back (docs/RELIABILITY.md)
#   make readme-picture   docs/images/example-config.svg: the example configuration as
#                  `gestured draw` sees it (a test checks it matches the code)
#   make install   PREFIX=/usr/local DESTDIR= : binary, systemd units, man pages,
#                  /etc/gestured/gestured.json5, the socket group; then
#                  `systemctl enable --now gestured.socket`
#   make uninstall what install put in place, except the configuration and the group
#
# Works on a fresh Debian 12 with only the Swift toolchain: `deps` installs the C libraries and
# tools with apt-get (through sudo when not root). Variables:
#   SWIFTPM_FLAGS     passed to every swift build/test (e.g. --scratch-path /tmp/build)
#   SWIFT_TEST_FLAGS  passed to swift test only (e.g. --filter GesturedIOTests)
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
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/gestured
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
CONFIGDIR ?= /etc/gestured
# The installed binary is stripped of its symbols (26 MB → 15 MB with the static Swift runtime);
# INSTALL_STRIP= keeps them, for debugging on the target.
INSTALL_STRIP ?= -s
# A prebuilt binary to install instead of building one (tests).
GESTURED_BIN ?=
# The group allowed to connect to the socket (systemd/gestured.socket.in, sysusers.d).
SOCKET_GROUP := gestured
# Release builds link the Swift runtime statically: the target needs only glibc, libevdev, libudev.
RELEASE_FLAGS := -c release --static-swift-stdlib

APT_PACKAGES := libevdev-dev libudev-dev umockdev libumockdev-dev evemu-tools pkg-config \
	groff-base man-db systemd valgrind chromium python3
# The VM tests: QEMU, the guest's busybox, and the tools that unpack Debian's kernel and pack the
# initramfs (the kernel and udev themselves are fetched with apt-get download into a cache), and
# `libinput debug-events`, the application the pass-through tests watch the clone with (the guest
# runs the host's binaries).
VM_APT_PACKAGES := qemu-system-x86 busybox-static xz-utils cpio libinput-tools
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

RECORDINGS := Tests/Fixtures/recordings
DEMO_NODE := /dev/input/event7

.PHONY: all deps deps-vm deps-vm-systemd build run test test-release test-vm test-vm-systemd bench bench-vm demo readme-picture install uninstall clean \
	fuzz fuzz-build fuzz-seeds test-sanitize soak-vm

all: build

## deps: install the Debian packages the build and the tests need, when any is missing.
deps:
	@missing=""; \
	pkg-config --exists libevdev 2>/dev/null || missing="$$missing libevdev"; \
	pkg-config --exists libudev 2>/dev/null || missing="$$missing libudev"; \
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
	if [ -n "$$missing" ]; then \
		echo "deps: missing:$$missing; installing $(APT_PACKAGES)"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(APT_PACKAGES); \
	fi

## deps-vm: what `make test-vm` needs besides deps.
deps-vm: deps
	@missing=""; \
	command -v qemu-system-x86_64 >/dev/null 2>&1 || missing="$$missing qemu-system-x86_64"; \
	dpkg-query -W -f '$${Status}' busybox-static 2>/dev/null | grep -q 'ok installed' || missing="$$missing busybox-static"; \
	command -v xz >/dev/null 2>&1 || missing="$$missing xz"; \
	command -v cpio >/dev/null 2>&1 || missing="$$missing cpio"; \
	command -v libinput >/dev/null 2>&1 || missing="$$missing libinput"; \
	if [ -n "$$missing" ]; then \
		echo "deps-vm: missing:$$missing; installing $(VM_APT_PACKAGES)"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(VM_APT_PACKAGES); \
	fi

## build: release build of the package (Swift runtime linked statically).
build: deps
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS)

## run: the daemon in the foreground with its embedded default configuration. Without root the
## socket goes to $XDG_RUNTIME_DIR (reading /dev/input still needs the input group).
run: build
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
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --product gestured-bench
	$(SWIFT) build --build-tests $(SWIFTPM_FLAGS)
	$(SWIFT) test $(SWIFTPM_FLAGS) $(SWIFT_TEST_FLAGS)

## test-vm: the VM test suite (Tests/GesturedVMTests) in a QEMU guest with Debian's kernel and
## udevd, against the daemon and test bundle built here; one line per test, then
## "N passed, N failed". The guest (kernel + initramfs) is built once from Debian packages and
## cached in $$GESTURED_VM_CACHE (default ~/.cache/gestured-vm). VM_TEST_FILTER narrows the
## tests (a Swift Testing --filter).
VM_TEST_FILTER ?= GesturedVMTests
test-vm: deps-vm
	$(SWIFT) build --build-tests $(SWIFTPM_FLAGS)
	@bin=$$($(SWIFT) build $(SWIFTPM_FLAGS) --show-bin-path); \
	GESTURED_VM_FILTER='$(VM_TEST_FILTER)' Tests/VM/gestured-vm test "$$bin"

## deps-vm-systemd: debootstrap, for the systemd guest's root.
deps-vm-systemd: deps-vm
	@command -v debootstrap >/dev/null 2>&1 || { \
		echo "deps-vm-systemd: installing debootstrap"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap; }

## test-vm-systemd: gestured under systemd as PID 1 in the guest: `make install DESTDIR=` into a
## copy of a cached debootstrap'd Debian root (built once), the checks of Tests/VMSystemd run by
## a oneshot unit. The binaries are built with the Swift runtime linked in (the image has no
## toolchain). It covers the units as they are; what they lack yet is reported as SKIP
## (docs/VM-TESTS.md).
VM_STATIC_FLAGS := --static-swift-stdlib
test-vm-systemd: deps-vm-systemd
	$(SWIFT) build -c release $(SWIFTPM_FLAGS) $(VM_STATIC_FLAGS)
	@set -e; staging=$$(Tests/VM/gestured-vm systemd-staging); \
	trap 'rm -rf "$$staging"' EXIT; \
	$(MAKE) --no-print-directory install DESTDIR="$$staging" SWIFTPM_FLAGS="$(SWIFTPM_FLAGS) $(VM_STATIC_FLAGS)"; \
	bin=$$($(SWIFT) build -c release $(SWIFTPM_FLAGS) $(VM_STATIC_FLAGS) --show-bin-path); \
	Tests/VM/gestured-vm systemd-test "$$staging" "$$bin"
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
	$(SANITIZE_ENV) $(SWIFT) test --skip-build $(SANITIZE_FLAGS) --skip InstallTests --skip SteadyStateAllocationTests \
		$(SANITIZE_TEST_FLAGS)

## bench: the performance figures of docs/PERFORMANCE.md (under five minutes). BENCH_FLAGS are
## passed to gestured-bench (e.g. --runs 3, --core-only).
BENCH_FLAGS ?=
bench: deps
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS)
	@bin=$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --show-bin-path); \
	set -x; "$$bin/gestured-bench" --bin "$$bin" $(BENCH_FLAGS)

## bench-vm: the kernel guest's benchmark (docs/PERFORMANCE.md, "Kernel guest"): the release
## gestured against `libinput debug-events` on one uinput touchscreen in the guest image of
## test-vm, instruction-timed (QEMU -icount, so the figures do not move with the host's load),
## ten moving fingers (CPU per frame, with one client, with none, with no gestures, and `cat` as
## the floor) and taps (latency); a table. About 3 minutes. BENCH_VM_FLAGS are passed to
## gestured-vm-bench (e.g. --rate 100, --rounds 3).
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

## install: the binary, the units (generated from systemd/*.in with this BINDIR and CONFIGDIR),
## the sysusers.d file, man pages, docs, and the configuration unless one exists (an edited one
## is never overwritten). Without DESTDIR it also creates the socket group and, when systemd
## runs, reloads it. Then: systemctl enable --now gestured.socket
## GESTURED_BIN=FILE installs that binary instead of building one (the install test uses it).
install: $(if $(GESTURED_BIN),,build)
	@bin="$(GESTURED_BIN)"; \
	[ -n "$$bin" ] || bin=$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFTPM_FLAGS) --show-bin-path)/gestured; \
	set -e; \
	install -D -m 755 $(INSTALL_STRIP) "$$bin" "$(DESTDIR)$(BINDIR)/gestured"; \
	for unit in gestured.service gestured.socket; do \
		sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@CONFIGDIR@|$(CONFIGDIR)|g' "systemd/$$unit.in" > "systemd/$$unit.tmp"; \
		install -D -m 644 "systemd/$$unit.tmp" "$(DESTDIR)$(SYSTEMDUNITDIR)/$$unit"; \
		rm -f "systemd/$$unit.tmp"; \
	done; \
	install -D -m 644 systemd/gestured.sysusers "$(DESTDIR)$(SYSUSERSDIR)/gestured.conf"; \
	install -D -m 644 systemd/60-gestured-uinput.rules "$(DESTDIR)$(UDEVRULESDIR)/60-gestured-uinput.rules"; \
	install -D -m 644 man/gestured.8 "$(DESTDIR)$(MANDIR)/man8/gestured.8"; \
	install -D -m 644 man/gestured.json5.5 "$(DESTDIR)$(MANDIR)/man5/gestured.json5.5"; \
	install -D -m 644 README.md "$(DESTDIR)$(DOCDIR)/README.md"; \
	for doc in docs/*.md; do install -D -m 644 "$$doc" "$(DESTDIR)$(DOCDIR)/$$doc"; done; \
	if [ -e "$(DESTDIR)$(CONFIGDIR)/gestured.json5" ]; then \
		echo "install: $(DESTDIR)$(CONFIGDIR)/gestured.json5 exists, left as it is"; \
	else \
		install -D -m 644 config/gestured.json5 "$(DESTDIR)$(CONFIGDIR)/gestured.json5"; \
	fi; \
	echo "install: $(DESTDIR)$(BINDIR)/gestured, units in $(DESTDIR)$(SYSTEMDUNITDIR), man pages in $(DESTDIR)$(MANDIR)"; \
	if [ -n "$(DESTDIR)" ]; then \
		echo "install: DESTDIR set: not creating group $(SOCKET_GROUP) (sysusers.d/gestured.conf does it on the target)"; \
	elif getent group $(SOCKET_GROUP) >/dev/null; then \
		echo "install: group $(SOCKET_GROUP) exists"; \
	elif command -v systemd-sysusers >/dev/null 2>&1; then \
		systemd-sysusers "$(SYSUSERSDIR)/gestured.conf"; \
	else \
		groupadd --system $(SOCKET_GROUP); \
	fi; \
	if [ -z "$(DESTDIR)" ] && ! getent group gestured-uinput >/dev/null; then \
		if command -v systemd-sysusers >/dev/null 2>&1; then systemd-sysusers "$(SYSUSERSDIR)/gestured.conf"; \
		else groupadd --system gestured-uinput; fi; \
	fi; \
	if [ -z "$(DESTDIR)" ] && command -v udevadm >/dev/null 2>&1 && [ -d /run/udev ]; then \
		udevadm control --reload && udevadm trigger --subsystem-match=misc --sysname-match=uinput || true; \
	fi; \
	if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
		systemctl daemon-reload; \
		echo "install: now run: systemctl enable --now gestured.socket"; \
	fi

## uninstall: removes what install put in place except the configuration (it may be edited) and
## the group (files elsewhere may belong to it).
uninstall:
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
		systemctl disable --now gestured.socket gestured.service 2>/dev/null || true; \
	fi
	rm -f "$(DESTDIR)$(BINDIR)/gestured"
	rm -f "$(DESTDIR)$(SYSTEMDUNITDIR)/gestured.service" "$(DESTDIR)$(SYSTEMDUNITDIR)/gestured.socket"
	rm -f "$(DESTDIR)$(SYSUSERSDIR)/gestured.conf" "$(DESTDIR)$(UDEVRULESDIR)/60-gestured-uinput.rules"
	rm -f "$(DESTDIR)$(MANDIR)/man8/gestured.8" "$(DESTDIR)$(MANDIR)/man5/gestured.json5.5"
	rm -rf "$(DESTDIR)$(DOCDIR)"
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
	@echo "uninstall: left $(DESTDIR)$(CONFIGDIR)/gestured.json5 and group $(SOCKET_GROUP) in place"

clean:
	$(SWIFT) package clean $(SWIFTPM_FLAGS)
	rm -rf .build
