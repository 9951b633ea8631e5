#!/bin/sh
# The real units under a real systemd, where systemd is not PID 1: runs gestured.socket and
# gestured.service in a *user* manager (as root) with WatchdogSec=2s, and checks socket
# activation, READY/STATUS, reload, that watchdog pings keep it alive, and that a stopped loop
# is killed for the watchdog. MemoryDenyWriteExecute=, SystemCallFilter=, the device policy
# and most Protect*= settings apply there exactly as in the system manager.
#
#   Tests/systemd-user-trial.sh RELEASE_BINARY
#
# Needs root and a reachable user manager (`systemctl --user`). On a machine whose init is not
# systemd, one can be started by hand: `mkdir /run/systemd/system` (the manager refuses to
# start without it; remove it right after), then
# `XDG_RUNTIME_DIR=/run/user/0 systemd --user &`.
#
# A user manager differs from the system one, so a drop-in relaxes what it cannot do:
# DynamicUser= (system only) and SupplementaryGroups=input (needs the group: udev creates it).
# TRIAL_RELAX adds more lines, e.g. for a VM that refuses some mount options even for
# /bin/true: TRIAL_RELAX='ProtectHome=no ProtectKernelTunables=no ProtectKernelLogs=no'.
set -eu
bin=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
: "${XDG_RUNTIME_DIR:=/run/user/$(id -u)}"; export XDG_RUNTIME_DIR
systemctl --user show-environment >/dev/null || { echo "trial: no user manager reachable"; exit 2; }
# Outside /tmp and /home, which PrivateTmp= and ProtectHome= hide from the service.
dir=/opt/gestured-trial
units=$XDG_RUNTIME_DIR/systemd/user
mkdir -p "$dir" "$units/gestured.service.d"
cp "$bin" "$dir/gestured"; cp "$root/config/gestured.json5" "$dir/"
sed -e "s|@BINDIR@|$dir|g" -e "s|@CONFIGDIR@|$dir|g" -e 's|^WatchdogSec=.*|WatchdogSec=2s|' \
	"$root/systemd/gestured.service.in" > "$units/gestured.service"
sed -e '/^SocketGroup=/d' "$root/systemd/gestured.socket.in" > "$units/gestured.socket"
{ printf '[Service]\nDynamicUser=no\nSupplementaryGroups=\nRestart=no\nStandardError=append:%s/stderr\n' "$dir"
  for line in ${TRIAL_RELAX:-}; do echo "$line"; done; } > "$units/gestured.service.d/trial.conf"
: > "$dir/stderr"
cleanup() {
	systemctl --user stop gestured.socket gestured.service 2>/dev/null || true
	rm -rf "$units/gestured.service" "$units/gestured.socket" "$units/gestured.service.d"
	systemctl --user daemon-reload; systemctl --user reset-failed gestured.service gestured.socket 2>/dev/null || true
}
trap cleanup EXIT
fail() { echo "trial: FAIL: $*"; echo "--- daemon stderr:"; cat "$dir/stderr"; exit 1; }
show() { systemctl --user show gestured.service -p "$1" --value; }
systemctl --user daemon-reload
systemctl --user start gestured.socket
hello=$(timeout 10 "$bin" listen --socket /run/gestured/gestured.sock | head -n 1) || true
[ "$hello" = "hello version=1 daemon=gestured" ] || fail "no hello through the activated socket (got '$hello')"
sleep 5   # longer than WatchdogSec=2s: only the pings keep it alive
[ "$(show ActiveState)" = active ] || fail "not active after 5 s: $(show Result)"
echo "trial: active after 5 s with WatchdogSec=2s; status: $(show StatusText)"
pid=$(show MainPID)
grep -q '^Seccomp:[[:space:]]*2' "/proc/$pid/status" || fail "no seccomp filter on the daemon"
[ "$(systemctl --user show gestured.service -p MemoryDenyWriteExecute --value)" = yes ] || fail "MemoryDenyWriteExecute is off"
echo "trial: seccomp filter mode 2 on pid $pid, MemoryDenyWriteExecute=yes"
systemctl --user reload gestured.service
grep -q "configuration reloaded" "$dir/stderr" || fail "reload not logged"
kill -STOP "$(show MainPID)"
sleep 4
[ "$(show Result)" = watchdog ] || fail "a stopped loop was not killed for the watchdog: $(show Result)"
echo "trial: PASS (socket activation, READY, STATUS, reload, watchdog; MemoryDenyWriteExecute and SystemCallFilter in force)"
