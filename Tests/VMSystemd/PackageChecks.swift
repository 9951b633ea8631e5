import FoundationEssentials
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc

// The Debian package's life in the guest, as an administrator lives it: apt install of the
// .deb, an upgrade to a higher revision over an edited configuration, remove, purge (those
// three with dpkg, which is what apt runs for them, to spare apt's start under emulation). The
// packages are the ones `make deb` built (and the same binary rebuilt as revision 2).

/// Every path on the root file system except what changes by itself or belongs to the package
/// manager's own records: the reference that purge must return to.
func fileSnapshot() -> Set<String> {
    let pruned = ["/tmp", "/var/tmp", "/var/log", "/var/cache", "/var/lib/apt", "/var/lib/dpkg", data]
    var arguments = ["find", "/", "-xdev", "("]
    for (index, path) in pruned.enumerated() { arguments += (index == 0 ? [] : ["-o"]) + ["-path", path] }
    arguments += [")", "-prune", "-o", "-print"]
    return Set((run(arguments, milliseconds: 120_000)?.stdout ?? "").split(separator: "\n").map(String.init))
}

/// The packages installed (dpkg's "ii"), by name.
func installedPackages() -> Set<String> {
    let listed = run(["dpkg-query", "-W", "-f", "${db:Status-Abbrev} ${Package}\n"])?.stdout ?? ""
    return Set(listed.split(separator: "\n").compactMap { line in
        line.hasPrefix("ii ") ? String(line.split(separator: " ").last ?? "") : nil
    })
}

/// What systemd-sysusers leaves when it adds the groups: backups of the files it edits (the
/// groups themselves stay: see `checkPurge`).
let sysusersBackups: Set<String> = ["/etc/group-", "/etc/gshadow-"]

/// /dev/uinput's owner, group and mode.
func uinputNode() -> String { run(["stat", "-c", "%U:%G %a", "/dev/uinput"])?.stdout.trimmed ?? "?" }

@MainActor func checkInstall(_ deb: String) -> Bool {
    let install = apt(["install", data + "/" + deb])
    let installed = install?.termination == .exited(0)
    report("apt install ./\(deb)", installed, installed ? "installed" : "\(outcome(install))\n\(install?.stdout ?? "")")
    guard installed else { return false }
    let units = ["gestured.socket", "gestured.service", "gestured.path"]
    let states = units.map { "\($0) \(property("UnitFileState", of: $0))/\(property("ActiveState", of: $0))" }
    report("the package enables and starts the socket, the service and the path unit",
           states == units.map { "\($0) enabled/active" }, states.joined(separator: ", "))
    let version = run(["gestured", "--version"])?.stdout.trimmed ?? ""
    let packaged = run(["dpkg-query", "-W", "-f", "${Version}", "gestured"])?.stdout ?? ""
    let upstream = packaged.split(separator: "-").dropLast().joined(separator: "-")
    report("gestured --version and the package agree", version == "gestured \(upstream) (protocol 1)",
           "\(version); package \(packaged)")
    let uinput = uinputNode()
    report("the udev rule gives /dev/uinput to gestured-uinput at install", uinput == "root:gestured-uinput 660", uinput)
    return true
}

/// The installed configuration is the repository's config/default.json5 (the built-in
/// configuration, commented: ExampleAndDefaultTests), a conffile, and valid.
@MainActor func checkDefaultConfiguration() {
    let check = run(["gestured", "check-config", configPath])
    let installed = (try? readTextFile(path: configPath)) ?? "", shipped = (try? readTextFile(path: data + "/default.json5")) ?? "?"
    let conffiles = run(["dpkg-query", "-W", "-f", "${Conffiles}", "gestured"])?.stdout ?? ""
    report("the conffile is the production default", check?.termination == .exited(0) && installed == shipped
           && conffiles.contains(configPath + " "),
           "same as config/default.json5: \(installed == shipped); conffiles:\(conffiles.trimmed); check-config: \(outcome(check)) \(check?.stdout.trimmed ?? "")")
}

/// The upgrade: `edited` is in the conffile and the service runs with a clone. After apt
/// installs the higher revision, the edit is there byte for byte, the service runs the new
/// binary in a new process, and there is still exactly one clone.
@MainActor func checkUpgrade(to deb: String, edited: String) {
    let oldPID = property("MainPID")
    let oldInode = inode("/proc/\(oldPID)/exe")
    let upgrade = dpkg(["-i", data + "/" + deb])
    let version = run(["dpkg-query", "-W", "-f", "${Version}", "gestured"])?.stdout ?? ""
    report("dpkg -i \(deb) upgrades", upgrade?.termination == .exited(0) && deb.contains("_\(version)_"),
           "\(outcome(upgrade)); installed version \(version)")
    let kept = (try? readTextFile(path: configPath)) ?? ""
    let leftovers = ["dpkg-dist", "dpkg-new", "dpkg-old"].filter { exists(configPath + "." + $0) }
    report("the edited conffile survives the upgrade", kept == edited && leftovers.isEmpty,
           kept == edited ? "unchanged; no \(leftovers.isEmpty ? "dpkg-dist/new/old files" : leftovers.joined(separator: ", "))"
                          : "now:\n\(kept)")
    let newPID = property("MainPID")
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(newPID)/exe")) ?? "?"
    let newInode = inode("/proc/\(newPID)/exe"), installedInode = inode("/usr/bin/gestured")
    report("the upgrade restarts the service on the new binary",
           newPID != oldPID && newPID != "0" && newInode != nil && newInode == installedInode && newInode != oldInode
           && !exe.contains("deleted") && property("ActiveState") == "active",
           "MainPID \(oldPID) → \(newPID); /proc/\(newPID)/exe → \(exe), inode \(newInode.map(String.init) ?? "?") "
           + "(/usr/bin/gestured \(installedInode.map(String.init) ?? "?"), before \(oldInode.map(String.init) ?? "?"))")
    var found: [InputDeviceInfo] = []
    let one = eventually { found = clones(); return found.count == 1 }
    report("after the upgrade there is one clone", one, "clones: \(found.map(\.sysname))")
}

/// Remove: the units stop, the files go, the edited configuration stays (dpkg's "config-files").
@MainActor func checkRemove(edited: String, uinputBefore: String) {
    let remove = dpkg(["--remove", "gestured"])
    let states = ["gestured.service", "gestured.socket", "gestured.path"].map { "\($0) \(property("ActiveState", of: $0))" }
    let status = run(["dpkg-query", "-W", "-f", "${db:Status-Abbrev}", "gestured"])?.stdout.trimmed ?? ""
    report("dpkg --remove stops the units and keeps the configuration",
           remove?.termination == .exited(0) && states.allSatisfy { $0.hasSuffix(" inactive") } && !exists("/usr/bin/gestured")
           && ((try? readTextFile(path: configPath)) ?? "") == edited && status == "rc",
           "\(outcome(remove)); \(states.joined(separator: ", ")); /usr/bin/gestured: \(exists("/usr/bin/gestured") ? "still there" : "gone"); "
           + "dpkg status \(status); \(configPath) \(exists(configPath) ? "kept" : "gone")")
    let noClone = eventually { clones().isEmpty }
    let dropIn = "/run/systemd/generator/gestured.service.d/50-uinput.conf"
    let uinput = uinputNode()
    report("after remove: no clone, no uinput grant, /dev/uinput as before the install", noClone && !exists(dropIn) && uinput == uinputBefore,
           "clones: \(clones().map(\.sysname)); \(dropIn) \(exists(dropIn) ? "still there" : "gone"); /dev/uinput \(uinput) (before: \(uinputBefore))")
}

/// Purge: the configuration and every file the package owned are gone, the file system is as
/// it was before the install but for sysusers' backups, and no file belongs to the groups.
@MainActor func checkPurge(owned: [String], before: Set<String>, packagesBefore: Set<String>) {
    let purge = dpkg(["--purge", "gestured"])
    let status = run(["dpkg-query", "-W", "-f", "${db:Status-Abbrev}", "gestured"])
    let forgotten = status?.termination != .exited(0) || status?.stdout.trimmed == "un"
    report("dpkg --purge", purge?.termination == .exited(0) && forgotten,
           "\(outcome(purge)); dpkg-query: \(status?.stdout.trimmed ?? "") \(status?.stderr.trimmed ?? "")")
    // What the install pulled in (libwayland-client0, for gestured-surface) goes too, as
    // `apt autoremove --purge` would take it (apt itself costs tens of seconds a call here).
    let pulledIn = installedPackages().subtracting(packagesBefore).sorted()
    if !pulledIn.isEmpty {
        let dependencies = dpkg(["--purge"] + pulledIn)
        report("dpkg --purge of what the install pulled in", dependencies?.termination == .exited(0),
               "\(pulledIn.joined(separator: " ")): \(outcome(dependencies))")
    }
    // Directories the package shared with others stay (/lib/systemd, /usr/share/doc): only those
    // that did not exist before may not. /lib is a link to /usr/lib (merged /usr), so compare
    // real paths with the snapshot's.
    let left = owned.filter { path in
        var isDirectory: Bool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        guard isDirectory, let real = realpath(path, nil) else { return true }
        defer { free(real) }
        return !before.contains(String(cString: real))
    }
    report("purge removes the configuration and every file the package owned", !exists("/etc/gestured") && left.isEmpty && owned.count > 40,
           "\(owned.count) paths in dpkg -L; left: \(left.isEmpty ? "none" : left.joined(separator: " ")); /etc/gestured \(exists("/etc/gestured") ? "still there" : "gone")")
    let after = fileSnapshot()
    let added = after.subtracting(before).subtracting(sysusersBackups).sorted(), removed = before.subtracting(after).sorted()
    report("after purge the file system is as before the install", added.isEmpty && removed.isEmpty,
           "\(before.count) paths before, \(after.count) after; added: \(added.isEmpty ? "none" : added.joined(separator: " ")); "
           + "removed: \(removed.isEmpty ? "none" : removed.joined(separator: " ")) (sysusers' backups /etc/group-, /etc/gshadow- aside)")
    let owners = run(["find", "/", "-xdev", "(", "-group", "gestured", "-o", "-group", "gestured-uinput", ")", "-print"])?.stdout.trimmed ?? "?"
    let groups = [gid("gestured"), gid("gestured-uinput")]
    report("the groups own nothing after purge (Debian keeps system groups)", owners.isEmpty,
           "gids \(groups.joined(separator: ", ")); files of theirs: \(owners.isEmpty ? "none" : owners)")
}
