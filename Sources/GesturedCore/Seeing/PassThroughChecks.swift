/// What can keep a `passThrough` device from giving the application its touches (and forwarding
/// asked for without one), said before a user meets it: `check-config` from the file alone
/// (`passThroughWarnings`, `forwardingWarnings`), `gestured devices`
/// and the daemon's log once the device is known (`cloneRefusal`, `gestures(needingMoreThan:)`),
/// and `replay --forwarded` for a recording's device.
extension GestureKind {
    /// The fewest touches the gesture needs down at once to recognize or begin.
    public var touchesNeeded: Int {
        switch self {
        case .tap(let p): p.numberOfTouchesRequired
        case .swipe(let p): p.numberOfTouchesRequired
        case .pan(let p): p.minimumNumberOfTouches
        case .pinch, .rotation: 2
        case .longPress(let p): p.numberOfTouchesRequired
        case .screenEdgePan: 1
        case .stroke(let p): p.numberOfTouchesRequired
        }
    }
}

extension DeviceDescription {
    /// Why the device cannot pass through, or nil when it can: the clone copies the device, and
    /// only a direct-touch multitouch device with slots (protocol B) makes a clone compositors
    /// take as a touchscreen and the daemon can write touches to one by one. The daemon then
    /// reads it without grabbing (docs/KIOSK.md).
    public var cloneRefusal: String? {
        if slotCount == 0 || isFakeMultitouch {
            return mtX == nil || isFakeMultitouch
                ? "it is single-touch (ABS_X/ABS_Y only), and only multitouch protocol B devices can be cloned"
                : "it speaks multitouch protocol A (no slots), and only protocol B devices can be cloned"
        }
        if !hasTrackingID {
            return "its slots have no tracking ids (ABS_MT_TRACKING_ID), and only protocol B devices can be cloned"
        }
        if !isDirect {
            return "it is not a direct-touch device (no INPUT_PROP_DIRECT: a touchpad or a tablet), so its clone would "
                + "be one too, which compositors use as a pointer, not as touches"
        }
        return nil
    }
}

extension Configuration {
    /// Every gesture of screen `screen` (an index of `screenSpecs`) that needs more than
    /// `available` touches at once, in the file's order: on a device that reports no more, it can
    /// never recognize.
    public func gestures(needingMoreThan available: Int, screen: Int) -> [(id: String, touches: Int)] {
        guard screenSpecs.indices.contains(screen) else { return [] }
        var found: [(id: String, touches: Int)] = []
        func walk(_ views: [ViewSpec]) {
            for view in views {
                for gesture in view.gestures where gesture.kind.touchesNeeded > available {
                    found.append((gesture.id, gesture.kind.touchesNeeded))
                }
                walk(view.subviews)
            }
        }
        walk(screenSpecs[screen].views)
        return found
    }

    /// The touches `device` reports at once (its slots, at most its rule's `maximumTouches`) and
    /// the gestures of screen `screen` that need more: the one check `gestured devices` and the
    /// daemon's log both say.
    public func gesturesBeyond(_ device: DeviceDescription, rule: DeviceRule?, screen: Int)
        -> (touches: Int, gestures: [(id: String, touches: Int)]) {
        let touches = min(device.slotCount, rule?.maximumTouches ?? Int.max)
        return (touches, gestures(needingMoreThan: touches, screen: screen))
    }

    /// What the file alone says about its `passThrough` rules: one that limits its devices to
    /// fewer touches (`maximumTouches`) than a gesture needs, and one that matches touchpads or
    /// tablets, which cannot be cloned (`DeviceDescription.cloneRefusal`). A panel's own slot
    /// count and protocol are known only with the panel: `gestured devices` and the daemon's log
    /// say those.
    func passThroughWarnings() -> [ConfigurationWarning] {
        var warnings: [ConfigurationWarning] = []
        for (index, rule) in devices.enumerated() where rule.passThrough && !rule.ignore {
            let path = "devices[\(index)]"
            if let type = rule.match.type, type == .touchpad || type == .tablet {
                warnings.append(.init(keyPath: path + ".match.type", message: "a \(type.rawValue) cannot pass through: it has no "
                    + "INPUT_PROP_DIRECT, so its clone would be a \(type.rawValue) too, which compositors use as a pointer; "
                    + "the daemon reads it without grabbing instead"))
            }
            if let limit = rule.maximumTouches {
                let needing = screenSpecs.indices.flatMap { gestures(needingMoreThan: limit, screen: $0) }
                for gesture in needing {
                    warnings.append(.init(keyPath: path + ".maximumTouches", message: "\"\(gesture.id)\" needs \(gesture.touches) "
                        + "touches, more than the \(limit) this passThrough rule lets its devices report: it can never recognize "
                        + "there, and its touches all reach the application"))
                }
            }
        }
        return warnings + forwardingWarnings()
    }

    /// Forwarding that the file asks for but no rule does: a view's `forwardsTouches` or a
    /// gesture's `delaysTouchesBegan`, `delaysTouchesEnded` or `cancelsTouchesInView` set away
    /// from its default means touches of a `passThrough` device only, so without one it does
    /// nothing; and a rule that grabs without `passThrough` leaves the application nothing at all.
    func forwardingWarnings() -> [ConfigurationWarning] {
        var warnings: [ConfigurationWarning] = []
        for (index, rule) in devices.enumerated() where rule.grab && !rule.passThrough && !rule.ignore {
            warnings.append(.init(keyPath: "devices[\(index)].grab", message: "grab without passThrough: the application gets no "
                + "touch of these devices, not even those no gesture claims; add passThrough: true to forward them "
                + "(docs/KIOSK.md), or drop grab to let the application read the panel itself"))
        }
        let path = applicationPath
        guard path != .passThrough else { return warnings }
        let why = path == .grabbed
            ? "no device rule has passThrough: true (a rule grabs: the application gets no touch at all)"
            : "no device rule has passThrough: true (the application reads the panel itself and gets every touch)"
        func walk(_ views: [ViewSpec], _ prefix: String) {
            for (i, view) in views.enumerated() {
                let viewPath = "\(prefix)[\(i)]"
                if !view.forwardsTouches {
                    warnings.append(.init(keyPath: viewPath + ".forwardsTouches", message: "forwardsTouches: false does nothing: \(why)"))
                }
                for (k, gesture) in view.gestures.enumerated() {
                    let defaults = TouchDelivery()
                    let set = [("cancelsTouchesInView", gesture.delivery.cancelsTouchesInView != defaults.cancelsTouchesInView,
                                gesture.delivery.cancelsTouchesInView),
                               ("delaysTouchesBegan", gesture.delivery.delaysTouchesBegan != defaults.delaysTouchesBegan,
                                gesture.delivery.delaysTouchesBegan),
                               ("delaysTouchesEnded", gesture.delivery.delaysTouchesEnded != defaults.delaysTouchesEnded,
                                gesture.delivery.delaysTouchesEnded)]
                    for (key, changed, value) in set where changed {
                        warnings.append(.init(keyPath: "\(viewPath).gestures[\(k)].\(key)",
                                              message: "\(key): \(value) does nothing: \(why)"))
                    }
                }
                walk(view.subviews, viewPath + ".subviews")
            }
        }
        if screens.isEmpty {
            walk(views, "views")
        } else {
            for (k, screen) in screens.enumerated() { walk(screen.views, "screens[\(k)].views") }
        }
        return warnings
    }
}
