import GesturedConfig
import GesturedCore
import GesturedIO

/// Control requests (`hide`, `show`, `frame`, `layout`, `rotate`): who may send them
/// (`ControlAuthority`) and applying them to the pipeline (`ControlDesk`), with the layouts of
/// the configuration in force.
final class Control {
    private let live: LivePipeline
    private let devices: () -> [ControlDesk.Device]
    /// Who may send control requests; rebuilt on reload.
    private var authority: ControlAuthority
    private var layouts: [ControlDesk.ScreenLayouts]

    init(configuration: Configuration, live: LivePipeline, devices: @escaping () -> [ControlDesk.Device]) {
        self.live = live
        self.devices = devices
        authority = ControlAuthority(configuration.control)
        layouts = ControlDesk.layouts(of: configuration)
    }

    /// Takes up a reloaded configuration's control policy and layouts.
    func configure(_ configuration: Configuration) {
        authority = ControlAuthority(configuration.control)
        layouts = ControlDesk.layouts(of: configuration)
    }

    /// Whether `peer` may send control requests under the configuration in force.
    func mayControl(_ peer: PeerCredentials?) -> Bool { authority.allows(peer) }

    /// Applies a control request from an authorized peer, leaving the gesture lines it causes in
    /// the pipeline's output; returns why it was refused instead (nothing changed then).
    func apply(_ request: ControlRequest, from id: ClientID, peer: PeerCredentials?) -> String? {
        guard authority.allows(peer) else {
            Log.limited(.warning, key: "\(id) control refused",
                        "\(id) (\(peer.map { "\($0)" } ?? "unknown peer")): \(request.command) refused, not authorized to control")
            return "not authorized to control (uid \(peer.map { String($0.uid) } ?? "unknown")): only root, the daemon's user and the config's control uids and groups may"
        }
        live.output.removeAll(keepingCapacity: true)
        if let refusal = ControlDesk.apply(request, to: &live.pipeline, layouts: layouts, devices: devices(),
                                           now: MonotonicClock.now(), into: &live.output) {
            return refusal
        }
        Log.info("\(id) (uid \(peer?.uid ?? 0)): \(request.command) \(ControlDesk.describe(request))")
        return nil
    }
}
