import GesturedConfig
import GesturedCore
import GesturedIO

/// Control requests (`hide`, `show`, `frame`, `layout`, `rotate`): who may send them
/// (`ControlAuthority`) and applying them to the pipeline (`ControlDesk`), with the layouts of
/// the configuration in force.
final class Control {
    private let live: LivePipeline
    /// Who may send control requests; rebuilt on reload.
    private var authority: ControlAuthority
    private var layouts: [ControlDesk.ScreenLayouts]

    init(configuration: Configuration, live: LivePipeline) {
        self.live = live
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

    /// Applies a control request, or says why `peer` may not send it (nothing changed then).
    /// Applied, its batch answers it (`ok`, or why it cannot apply) ahead of the lines it causes.
    func apply(_ request: ControlRequest, from id: ClientID, peer: PeerCredentials?, format: LineFormat) -> String? {
        guard authority.allows(peer) else {
            Log.limited(.warning, key: "\(id) control refused",
                        "\(id) (\(peer.map { "\($0)" } ?? "unknown peer")): \(request.command) refused, not authorized to control")
            return "not authorized to control (uid \(peer.map { String($0.uid) } ?? "unknown")): only root, the daemon's user and the config's control uids and groups may"
        }
        if live.control(request, from: id, format: format, layouts: layouts, now: MonotonicClock.now()) == nil {
            Log.info("\(id) (uid \(peer?.uid ?? 0)): \(request.command) \(ControlDesk.describe(request))")
        }
        return nil
    }
}
