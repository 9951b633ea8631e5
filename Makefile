# gestured: build, test, run, demo and install.
#
#   make run       build (release) and run the daemon in the foreground with the default config
#   make test      install what the tests need (see deps), build them, run them
#   make test-release  the benchmark tests optimized (zero allocations per steady frame)
#   make bench     build (release) and run the benchmark: a table, and JSON in bench-results/
#   make demo      an emulated touchscreen (umockdev) double-taps; a client prints the lines
#   make install   PREFIX=/usr/local DESTDIR= : binary, systemd units, /etc/gestured/gestured.json5
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
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
CONFIGDIR ?= /etc/gestured

APT_PACKAGES := libevdev-dev libudev-dev umockdev libumockdev-dev evemu-tools pkg-config valgrind
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

RECORDINGS := Tests/Fixtures/recordings
DEMO_NODE := /dev/input/event7

.PHONY: all deps build run test test-release bench demo install uninstall clean

all: build

## deps: install the Debian packages the build and the tests need, when any is missing.
deps:
	@missing=""; \
	pkg-config --exists libevdev 2>/dev/null || missing="$$missing libevdev"; \
	pkg-config --exists libudev 2>/dev/null || missing="$$missing libudev"; \
	command -v umockdev-run >/dev/null 2>&1 || missing="$$missing umockdev-run"; \
	command -v evemu-describe >/dev/null 2>&1 || missing="$$missing evemu-describe"; \
	command -v valgrind >/dev/null 2>&1 || missing="$$missing valgrind"; \
	if [ -n "$$missing" ]; then \
		echo "deps: missing:$$missing; installing $(APT_PACKAGES)"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(APT_PACKAGES); \
	fi

## build: release build of the package.
build: deps
	$(SWIFT) build -c release $(SWIFTPM_FLAGS)

## run: the daemon in the foreground with its embedded default configuration. Without root the
## socket goes to $XDG_RUNTIME_DIR (reading /dev/input still needs the input group).
run: build
	@bin=$$($(SWIFT) build -c release $(SWIFTPM_FLAGS) --show-bin-path); \
	if [ "$$(id -u)" = 0 ]; then \
		set -x; exec "$$bin/gestured" run; \
	else \
		runtime="$${XDG_RUNTIME_DIR:-/run/user/$$(id -u)}"; \
		set -x; exec "$$bin/gestured" run --socket "$$runtime/gestured.sock"; \
	fi

## test: every test, including the umockdev ones (they need deps).
test: deps
	$(SWIFT) build --build-tests $(SWIFTPM_FLAGS)
	$(SWIFT) test $(SWIFTPM_FLAGS) $(SWIFT_TEST_FLAGS)

## test-release: the benchmark's tests in an optimized build, where the zero-allocation test
## of the steady-state frame runs (a debug build allocates where -O would not, so it skips there).
test-release: deps
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing $(SWIFTPM_FLAGS)
	$(SWIFT) test -c release --skip-build $(SWIFTPM_FLAGS) --filter GesturedBenchTests

## bench: the performance figures of docs/PERFORMANCE.md (under five minutes). BENCH_FLAGS are
## passed to gestured-bench (e.g. --runs 3, --core-only).
BENCH_FLAGS ?=
bench: deps
	$(SWIFT) build -c release $(SWIFTPM_FLAGS)
	@bin=$$($(SWIFT) build -c release $(SWIFTPM_FLAGS) --show-bin-path); \
	set -x; "$$bin/gestured-bench" --bin "$$bin" $(BENCH_FLAGS)

## demo: gestured under umockdev-run with the synthetic touchscreen replaying a double tap,
## and `gestured listen` printing what it receives for a few seconds.
demo: build
	@set -eu; \
	bin=$$($(SWIFT) build -c release $(SWIFTPM_FLAGS) --show-bin-path); \
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
	echo "demo: gestured run under umockdev-run; the double tap starts 1.5 s after the device opens"; \
	timeout -s KILL 15 umockdev-run -d "$$dir/device.umockdev" -i $(DEMO_NODE)="$$dir/device.ioctl" \
		-e $(DEMO_NODE)=$(RECORDINGS)/synthetic-double-tap.events -- \
		"$$bin/gestured" run --socket "$$dir/g.sock" --config "$$dir/demo.json5" & \
	daemon=$$!; \
	"$$bin/gestured-testtool" wait-socket "$$dir/g.sock" --timeout-ms 5000 || \
		{ echo "demo: gestured did not open its socket; see its messages above"; exit 1; }; \
	timeout -s INT 5 "$$bin/gestured" listen --socket "$$dir/g.sock" || true; \
	echo "demo: done"

## install: the binary, the systemd units in systemd/, and the configuration unless one exists.
install: build
	@bin=$$($(SWIFT) build -c release $(SWIFTPM_FLAGS) --show-bin-path); \
	set -ex; \
	install -D -m 755 "$$bin/gestured" "$(DESTDIR)$(BINDIR)/gestured"; \
	if [ -d systemd ]; then \
		for unit in systemd/*; do install -D -m 644 "$$unit" "$(DESTDIR)$(SYSTEMDUNITDIR)/$${unit##*/}"; done; \
	fi; \
	if [ ! -e "$(DESTDIR)$(CONFIGDIR)/gestured.json5" ] && [ -f config/gestured.json5 ]; then \
		install -D -m 644 config/gestured.json5 "$(DESTDIR)$(CONFIGDIR)/gestured.json5"; \
	fi

## uninstall: removes what install put in place except the configuration (it may be edited).
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/gestured"
	@if [ -d systemd ]; then \
		for unit in systemd/*; do set -x; rm -f "$(DESTDIR)$(SYSTEMDUNITDIR)/$${unit##*/}"; done; \
	fi
	@echo "uninstall: left $(DESTDIR)$(CONFIGDIR)/gestured.json5 in place"

clean:
	$(SWIFT) package clean $(SWIFTPM_FLAGS)
	rm -rf .build
