import GesturedCore

/// `check-config --needs-uinput FILE`: whether the configuration makes the daemon create uinput
/// devices (clones, or `gestured input` for input actions), so the service must be granted
/// /dev/uinput (docs/KIOSK.md, "Permissions").
///
/// gestured.service has no access to /dev/uinput of its own: gestured-generator (systemd/)
/// asks this at boot and at every `systemctl daemon-reload`, and writes the drop-in that grants
/// it only when the answer is yes. The file is read and validated exactly as the daemon reads
/// it (never searched as text): an invalid file is an error, exit 78, and gets no grant.
enum UinputGrantCommand {
    static func run(file: String) throws(CommandFailure) {
        let configuration = try loadConfiguration(file)
        print("uinput: \(needsUinput(configuration) ? "yes" : "no")")
    }

    /// A rule with `passThrough` that does not also `ignore` its devices (`DeviceHub.makeClone`),
    /// or a gesture with an input action (`InputSink`, the device `gestured input`): the only
    /// ways the daemon opens /dev/uinput.
    static func needsUinput(_ configuration: Configuration) -> Bool {
        configuration.devices.contains { $0.passThrough && !$0.ignore } || configuration.inputCapabilities != nil
    }
}
