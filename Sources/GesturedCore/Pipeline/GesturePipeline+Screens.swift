/// The pipeline's screens as a configuration makes them: each screen's engine, the table of view
/// names the touch lines use (carried across a reload for the touches still down), and the
/// buffers sized for the busiest frame.
extension GesturePipeline {
    static func build(_ configuration: Configuration, sizes: [Size]) throws(GestureEngine.BuildError) -> [Screen] {
        var screens: [Screen] = []
        for (spec, size) in zip(configuration.screenSpecs, sizes) {
            screens.append(Screen(id: spec.id, size: size,
                                  engine: try GestureEngine(views: spec.views, screen: size, screenID: spec.id)))
        }
        return screens
    }

    /// The ids of every screen's views, one screen after the other, and where each screen's begin.
    static func viewNames(of screens: [Screen]) -> ([String], [Int]) {
        var names: [String] = [], bases: [Int] = []
        for screen in screens {
            bases.append(names.count)
            names += screen.engine.tree.nodes.map(\.id)
        }
        return (names, bases)
    }

    /// After a reload: the new screens' view ids, and the old views of the touches still down
    /// appended (each once), the touches pointed at them. The table stays bounded by the views
    /// and the touches down.
    mutating func renameTouchViews() {
        let old = viewNames
        (viewNames, viewBase) = Self.viewNames(of: screens)
        var carried: [String: Int] = [:]
        for device in devices.indices {
            for slot in devices[device].touchInSlot.indices {
                guard let view = devices[device].touchInSlot[slot]?.view else { continue }
                let name = old[view]
                let index = carried[name] ?? viewNames.count
                if index == viewNames.count { carried[name] = index; viewNames.append(name) }
                devices[device].touchInSlot[slot]?.view = index
            }
        }
    }

    /// Sizes the frame's event buffer for the busiest frames up front (a recognizer rarely
    /// reports more than a few transitions in one frame), so that a frame busier than any before
    /// it does not grow the buffer mid-frame: steady frames allocate nothing.
    mutating func reserveEventCapacity() {
        gestureEvents.reserveCapacity(4 * (screens.map(\.engine.recognizerCount).max() ?? 0) + 16)
        if forwarder.isActive {
            ownership.reserveCapacity(2 * (screens.map(\.engine.recognizerCount).max() ?? 0) + 16)
            for screen in screens.indices where !screens[screen].engine.tracksOwnership { screens[screen].engine.trackOwnership() }
        }
    }
}
