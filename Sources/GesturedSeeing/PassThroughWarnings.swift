import GesturedCore

/// What `check-config` says from the file alone about `passThrough` (`passThroughWarnings`,
/// `forwardingWarnings`); what a known device cannot do (`cloneRefusal`,
/// `gestures(needingMoreThan:)`) is the core's, in PassThroughChecks.swift, as the daemon's
/// admission and log use it too.
extension Configuration {
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
