// gestured-vm-systemd-check: the checks of the systemd guest (`make test-vm-systemd`,
// docs/VM-TESTS.md). Runs as a oneshot unit in a Debian 12 or 13 image booted with systemd as
// PID 1, where nothing of gestured is installed yet: it installs the Debian package that `make deb`
// built, checks the service it brings up, upgrades to the same binary rebuilt as the next Debian
// revision, removes and purges it; then installs it again with a pass-through panel, reboots
// the guest once and checks the package at boot (BootChecks). Test program, never installed on
// a real system.
//
//   gestured-vm-systemd-check PACKAGE UPGRADE_PACKAGE    (file names in /usr/local/libexec/gestured-vm)
//
// It prints one line per check, "VM-SYSTEMD PASS|FAIL|SKIP name: detail", then
// "VM-SYSTEMD summary: N passed, N failed" and "GESTURED-VM-EXIT <failed>" (the marker the host
// judges the run by; the host prints the closing "N passed, N failed" itself).
import FoundationEssentials
import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Glibc

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    report("arguments", false, "usage: gestured-vm-systemd-check PACKAGE UPGRADE_PACKAGE; got \(arguments.dropFirst())")
    finish()
}

describeGuest()
// The second boot (BootChecks) goes on from the state the first left.
if let state = try? readTextFile(path: bootState) { checkAfterReboot(state) }
checkUinputNotPreloaded()

// The panel exists before the package starts the service: the daemon enumerates at start.
let screen: UinputDevice
do {
    let description = try EvemuRecording.parse(try readTextFile(path: data + "/synthetic-touchscreen.desc"), sysname: "").description!
    screen = try UinputDevice(description, name: touchscreenName, udevDeadline: deadline(milliseconds: 20_000))
    report("uinput touchscreen through udevd", true, "\(screen.devnode)")
} catch {
    report("uinput touchscreen through udevd", false, "\(error)")
    finish()
}

// Install: the package enables and starts everything, with the production default.
let pristine = fileSnapshot()
let packagesBefore = installedPackages()
let uinputBefore = uinputNode()
report("the file system before the install", pristine.count > 1000, "\(pristine.count) paths; /dev/uinput \(uinputBefore)")
guard checkInstall(arguments[1]) else { finish() }
checkDefaultConfiguration()
guard let client = connect() else {
    report("the installed service serves \(socketPath)", false, "no hello; journal:\n\(journal())")
    finish()
}
report("the installed service serves \(socketPath)", true, "hello received")
let opened = journalContains("\(screen.sysname) (\(touchscreenName)): using it")
report("reads /dev/input", opened, opened ? "\(screen.sysname) opened" : "journal:\n\(journal())")
let first = tap(screen, client, id: 1)
report("a tap reaches a client (the built-in configuration)", first?.hasPrefix("gesture tap ended tap view=root device=\(screen.sysname) ") == true,
       first ?? "no gesture line")
let state = property("ActiveState")
report("READY=1 (Type=notify, active)", property("Type") == "notify" && state == "active", "Type=\(property("Type")), ActiveState=\(state)")
checkSecurity("systemd-analyze security, without the uinput grant")

checkReload(screen, client, firstTap: 2)
let firstClone = checkUinputGrant()
checkGuardRuns()
checkCrashRestart(screen, client, firstClone: firstClone)
checkWatchdog()
checkSocketActivation()
checkInvalidConfiguration()
checkAdminAction(screen, firstTap: 10)
checkKioskUser(screen, firstTap: 20)

// Upgrade over an edited configuration that passes the panel through (the generator must grant
// uinput again after the package's daemon-reload, and the new daemon make one clone).
let edited = tapConfiguration("edited before the upgrade", devices: passThroughRule)
configure(edited, "the edited conffile survives the upgrade")
_ = run(["systemctl", "daemon-reload"])
_ = run(["systemctl", "restart", "gestured.service"])
let owned = (run(["dpkg", "-L", "gestured"])?.stdout ?? "").split(separator: "\n").map(String.init).filter { $0.hasPrefix("/") && $0 != "/." }
checkUpgrade(to: arguments[2], edited: edited)
checkIdentity(uinput: true, "after the upgrade the service still has the uinput grant")

checkRemove(edited: edited, uinputBefore: uinputBefore)
checkPurge(owned: owned, before: pristine, packagesBefore: packagesBefore)
rebootWithPassThrough(arguments[1])
finish()
