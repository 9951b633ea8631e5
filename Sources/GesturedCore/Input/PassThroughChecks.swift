/// What can keep a `passThrough` device from giving the application its touches, once the device
/// is known: `DeviceAdmission`, `gestured devices`, the daemon's log (`cloneRefusal`,
/// `gestures(needingMoreThan:)`) and `replay --forwarded` for a recording's device. What
/// `check-config` says from the file alone is GesturedSeeing's (PassThroughWarnings.swift).
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
}
