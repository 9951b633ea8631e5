import GesturedCore
import GesturedDoctor
import GesturedIO
import Glibc

/// `gestured doctor [--json] [--config FILE] [--socket PATH] [--probe-cancel]`: gathers the facts
/// (the daemon's socket, the devices as `gestured devices` judges them, /dev/uinput, each clone's
/// readers from /proc with their Debian packages, the clone guards, check-config's warnings),
/// lets `DoctorFacts.report()` judge them, prints the checks, and exits 1 when one is a problem.
/// `--probe-cancel` then measures the compositor at `WAYLAND_DISPLAY` (`CancelProbeRun`) after
/// the facts are gathered, so its own touchscreen is never among them.
enum DoctorCommand {
    static func run(config: String?, socket: String?, json: Bool, probeCancel: Bool = false) throws(CommandFailure) {
        let choice = ConfigChoice.resolve(given: config)
        choice.announce(assumedScreen: false)
        // With nowhere to look (no system socket, no $XDG_RUNTIME_DIR), the system socket is
        // probed: its absence is then what the report says.
        let path = (try? ClientSocket(option: socket).path) ?? SocketLocation.system
        let facts: DoctorFacts
        do throws(CommandFailure) {
            let (configuration, warnings) = try checkConfiguration(choice.path)
            facts = gather(configuration: configuration, socketPath: path, warnings: warnings.map { "\($0)" })
        } catch where error.status == ExitStatus.config {
            // An invalid configuration is one of the things wrong (exit 1), not the command's failure.
            var invalid = DoctorFacts(socket: SocketProbe.probe(path), caller: SocketProbe.caller())
            invalid.configErrors = error.lines
            facts = invalid
        }
        let report: DoctorReport
        if probeCancel {
            let (probe, display) = CancelProbeRun.run()
            report = facts.report(probe: probe, display: display)
        } else {
            report = facts.report()
        }
        var out = OutputBuffer()
        out.append(json ? report.json : report.text)
        out.flush()
        if !report.ok { throw CommandFailure(ExitStatus.failure, lines: []) }
    }

    static func gather(configuration: Configuration, socketPath: String, warnings: [String]) -> DoctorFacts {
        var facts = DoctorFacts(socket: SocketProbe.probe(socketPath), caller: SocketProbe.caller(),
                                needsUinput: UinputGrantCommand.needsUinput(configuration),
                                uinputPresent: isAccessible("/dev/uinput", F_OK), configWarnings: warnings)
        let infos: [InputDeviceInfo]
        do { infos = try UdevEnumerator.inputDevices() } catch {
            facts.udevError = "\(error)"
            infos = []
        }
        let entries = infos.map { DevicesCommand.entry(for: $0, configuration: configuration) }
        let cloneNames = Set(entries.compactMap { $0.description.map { UinputClone.name(cloning: $0.name) } })
        // Each clone's device number, as the kernel registered it (sysfs `dev`), and its index in facts.clones.
        var wanted: [ProcessScan.DeviceNumber: Int] = [:]
        // The clones are listed as the panels' clones, not as devices of their own.
        for entry in entries where !cloneNames.contains(entry.info.name) {
            let ignoredBy = entry.rule.flatMap { configuration.devices[$0].ignore ? $0 : nil }
            let used = entry.used
            facts.devices.append(DoctorFacts.Device(sysname: entry.info.sysname, name: entry.info.name, kind: entry.kind, used: used,
                                                    decision: entry.decision, ignoredBy: ignoredBy, openError: entry.openError))
            // A clone is expected where the daemon makes one: passThrough not turned off, the panel clonable.
            guard used, let rule = entry.rule, configuration.devices[rule].passThrough, !entry.decision.contains("; passThrough off"),
                  let description = entry.description, description.cloneRefusal == nil else { continue }
            let cloneName = UinputClone.name(cloning: description.name)
            let clone = infos.first { $0.name == cloneName }
            if let clone, let number = ProcessScan.deviceNumber(sysfsDevice: clone.syspath) { wanted[number] = facts.clones.count }
            facts.clones.append(DoctorFacts.Clone(device: description.name, rule: rule, cancelStyle: configuration.devices[rule].cancelStyle,
                                                  slots: description.slotCount, clone: clone?.devnode))
        }
        guard !facts.clones.isEmpty else { return facts }
        let found = ProcessScan.scan(ProcessScan.Query(devices: Set(wanted.keys), daemonExecutables: ProcessScan.identities(of: daemonExecutables),
                                                       seatManagerExecutables: ProcessScan.identities(of: DoctorFacts.seatManagerExecutables)))
        for process in found.readers {
            if let k = wanted[process.device] { facts.clones[k].readers.append(reader(process)) }
        }
        facts.guards = found.guards
        facts.scanBound = found.bound
        return facts
    }

    /// The daemon's executable as doctor knows it: its own (doctor is the daemon's binary), and
    /// where the package and `make install` put it (a doctor run from a build folder).
    /// A guard started from a binary replaced since (an upgrade without a restart) is none of
    /// these; the package restarts the daemon, whose new guards are.
    static let daemonExecutables = ["/proc/self/exe", "/usr/bin/gestured", "/usr/local/bin/gestured"]

    static func reader(_ process: ProcessScan.Reader) -> DoctorFacts.Reader {
        var reader = DoctorFacts.Reader(pid: process.pid, command: process.command, seatManager: process.seatManager)
        if !process.seatManager, let executable = process.executable, let owner = DebianPackages.owner(of: executable) {
            reader.package = owner.package
            reader.version = owner.version
        }
        return reader
    }
}
