import FoundationEssentials
import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Glibc

// The package at boot: uinput is a module on Debian's kernels, and a kiosk that passes its panel
// through needs it loaded, and /dev/uinput given to gestured-uinput, before the daemon opens it.
// The guest's init loads no uinput, as an installed Debian does not. The first boot checks that
// nothing loaded it; after the purge the package is installed again with a pass-through
// configuration and the guest reboots once; the second boot checks what the package did at boot
// (gestured-generator's drop-in: modprobe@uinput.service, then the udev rule applied), then a
// module loaded while udevd runs, then the clone.

/// What the first boot leaves for the second: "reboot PASSED FAILED", then "booted" once the
/// second has started (a third boot is an unexpected reset, reported as such).
let bootState = "/var/lib/gestured-vm.state"

func uinputLoaded() -> Bool { exists("/sys/module/uinput") }

/// One line naming the guest: Debian's version, systemd's, the kernel's.
func describeGuest() {
    let debian = ((try? readTextFile(path: "/etc/debian_version")) ?? "?").trimmed
    let systemd = (run(["systemctl", "--version"])?.stdout ?? "?").split(separator: "\n").first.map(String.init) ?? "?"
    let kernel = (run(["uname", "-r"])?.stdout ?? "?").trimmed
    say("VM-SYSTEMD guest: Debian \(debian), \(systemd), kernel \(kernel)")
}

/// The first thing the first boot checks: nothing has loaded uinput (the checks' own panel then
/// loads it, as an administrator's test tool would).
@MainActor func checkUinputNotPreloaded() {
    let loaded = uinputLoaded()
    report("uinput is not loaded at boot before the package asks for it", !loaded,
           loaded ? "/sys/module/uinput exists: the guest's init or a unit loaded it" : "no /sys/module/uinput; /dev/uinput \(uinputNode())")
    let load = run(["modprobe", "uinput"])
    report("modprobe uinput (the checks' panel)", load?.termination == .exited(0) && uinputLoaded(), outcome(load))
}

/// `systemd-analyze security gestured.service` as systemd itself loads the unit (with the
/// generator's drop-in, if any): its whole table goes to the console, for docs/VM-TESTS.md, and
/// the overall exposure must stay within the unit tests' limit (SystemdUnitTests).
@MainActor func checkSecurity(_ name: String) {
    let analyze = run(["systemd-analyze", "security", "--no-pager", "gestured.service"], milliseconds: 60_000)
    let text = analyze?.stdout ?? ""
    for line in text.split(separator: "\n") { say("VM-SYSTEMD-SECURITY \(line)") }
    let marker = "Overall exposure level for gestured.service: "
    let overall = text.split(separator: "\n").first { $0.contains(marker) }.map { String($0.split(separator: marker).last ?? "") } ?? ""
    let exposure = overall.split(separator: " ").first.flatMap { Double(String($0)) }
    report(name, (exposure ?? 99) <= 1.5, "exposure \(overall.isEmpty ? "not found: " + outcome(analyze) : overall) (limit 1.5)")
}

/// The end of the first boot: the package again, a configuration that passes the panel through,
/// and a reboot. Returns only when that failed.
@MainActor func rebootWithPassThrough(_ deb: String) {
    // apt, not dpkg: purge took the dependencies the first install pulled in, and apt brings
    // them back from its archive cache.
    let install = apt(["install", data + "/" + deb])
    configure(tapConfiguration("booted", devices: passThroughRule), "a pass-through configuration for the next boot")
    let state = "reboot \(Tally.passed) \(Tally.failed)\n"
    let written = (try? TestEnvironment.writeFile(path: bootState, state)) != nil
    guard install?.termination == .exited(0), written else {
        report("install again with passThrough and reboot", false, "\(outcome(install)); state written: \(written)")
        return
    }
    say("VM-SYSTEMD rebooting: the package is installed again, with a pass-through panel configured")
    // Written to the disk first; then `--force --force`: reboot(2) at once, from systemctl itself,
    // which never returns. This unit's end is then neither a success nor a failure (either would
    // power the guest off), and nothing of this boot runs on while the next one starts.
    sync()
    let reboot = run(["systemctl", "reboot", "--force", "--force"])
    report("systemctl reboot --force --force", false, "the guest did not reboot: \(outcome(reboot))")
}

/// The second boot, until its end. The panel comes after the daemon: it finds it by hotplug.
@MainActor func checkAfterReboot(_ state: String) -> Never {
    let fields = state.trimmed.split(separator: " ")
    guard fields.first == "reboot", fields.count == 3, let passed = Int(fields[1]), let failed = Int(fields[2]) else {
        report("one reboot", false, "booted again with state \"\(state.trimmed)\": an unexpected reset")
        finish()
    }
    Tally.passed = passed
    Tally.failed = failed
    _ = try? TestEnvironment.writeFile(path: bootState, "booted\n")
    say("VM-SYSTEMD second boot: \(passed) passed, \(failed) failed before the reboot")

    // This unit and the service start side by side at boot (on Debian 13 this one came first).
    let up = eventually(milliseconds: 60_000) { property("ActiveState") == "active" && property("MainPID") != "0" }
    report("at boot with passThrough: the service starts", up, "ActiveState=\(property("ActiveState")), MainPID \(property("MainPID"))")
    checkIdentity(uinput: true, "at boot with passThrough: the service runs with the uinput grant")
    let wants = property("Wants"), after = property("After")
    let modprobe = "modprobe@uinput.service"
    let ran = property("ExecMainStatus", of: modprobe), exited = property("ExecMainExitTimestampMonotonic", of: modprobe)
    report("at boot: uinput loaded through \(modprobe), which the service wants and follows",
           uinputLoaded() && wants.contains(modprobe) && after.contains(modprobe) && ran == "0" && exited != "0" && !exited.isEmpty,
           "/sys/module/uinput \(uinputLoaded() ? "present" : "missing"); \(modprobe) status \(ran), exited at \(exited) µs; "
           + "Wants has it: \(wants.contains(modprobe)), After has it: \(after.contains(modprobe))")
    let node = uinputNode()
    report("at boot: the udev rule gave /dev/uinput to gestured-uinput", node == "root:gestured-uinput 660", node)
    checkSecurity("systemd-analyze security, with the uinput grant")

    // A module loaded while udevd runs: the rule comes from its uevent, applied before the daemon
    // opens the node (the drop-in's ExecStartPre waits for it).
    let stop = run(["systemctl", "stop", "gestured.service"])
    let unload = run(["modprobe", "-r", "uinput"])
    let unloaded = !uinputLoaded()
    let start = run(["systemctl", "start", "gestured.service"])
    let reloadedNode = uinputNode()
    report("uinput loaded after udevd started: the service loads it and the rule applies before the daemon starts",
           stop?.termination == .exited(0) && unloaded && start?.termination == .exited(0) && uinputLoaded()
           && reloadedNode == "root:gestured-uinput 660",
           "stop: \(outcome(stop)); modprobe -r: \(outcome(unload)), unloaded: \(unloaded); start: \(outcome(start)); "
           + "loaded again: \(uinputLoaded()); /dev/uinput \(reloadedNode)")

    // The panel, after the daemon: found by hotplug, passed through.
    do {
        let description = try EvemuRecording.parse(try readTextFile(path: data + "/synthetic-touchscreen.desc"), sysname: "").description!
        let screen = try UinputDevice(description, name: touchscreenName, udevDeadline: deadline(milliseconds: 20_000))
        var found: [InputDeviceInfo] = []
        let one = eventually { found = clones(); return found.count == 1 }
        let created = journalContains("passThrough: created \"\(cloneName)\"")
        report("after the reboot the service clones a panel plugged in later", one && created,
               "panel \(screen.sysname); clones: \(found.map(\.sysname)); journal has the clone: \(created)")
        guard let client = connect() else {
            report("a tap on the cloned panel reaches a client", false, "no hello; journal:\n\(journal())")
            finish()
        }
        let line = tap(screen, client, id: 40)
        report("a tap on the cloned panel reaches a client", line?.hasPrefix("gesture tap ended booted view=root ") == true, line ?? "no gesture line")
    } catch {
        report("after the reboot the service clones a panel plugged in later", false, "the panel: \(error)")
    }
    finish()
}
