import GesturedCore

/// What the application behind the daemon sees of the touches of a gesture that sends input
/// (`action.input`): said by `gestured explain` for the gestures a touch reaches, and, where it
/// is likely a mistake, by `check-config` as a warning. The input replaces what the touches
/// would have done only when the application never gets them: `delaysTouchesBegan` on a
/// `passThrough` device. Otherwise it gets them until the gesture begins, and then their cancel
/// as the rule's `cancelStyle` writes it: with `lift` a plain lift, which the application takes
/// as the end of a tap (a long press that became a right click is also a left click there).
extension Configuration {
    /// The sentence after `input: ID sends …; ` for `gesture`, nil when it sends no input.
    public func inputNote(for gesture: GestureSpec) -> String? {
        guard let action = gesture.action, let input = action.input else { return nil }
        let when = input.followsGesture ? "while it lasts"
            : action.state == .began ? "when it begins" : "when it reaches \(action.state.rawValue)"
        let sends = "\(gesture.id) sends \(input.summary) \(when)"
        switch applicationPath {
        case .grabbed: return sends + "; the application gets none of its touches (grabbed, not forwarded)"
        case .direct: return sends + "; the application reads the panel itself and gets its touches too"
        case .passThrough: break
        }
        if gesture.delivery.delaysTouchesBegan {
            return sends + "; the application gets nothing of its touches once it recognizes (delaysTouchesBegan)"
        }
        guard gesture.delivery.cancelsTouchesInView else {
            return sends + "; the application gets its touches too (cancelsTouchesInView: false)"
        }
        return sends + "; the application gets its touches until it begins, then " + cancelWords
    }

    /// How the pass-through rules end a cancelled touch, in the application's words.
    private var cancelWords: String {
        liftsCancels ? "a lift (cancelStyle lift), which it takes as a tap" : "their cancel (cancelStyle palm)"
    }

    /// Whether a pass-through rule writes a cancel as a lift.
    private var liftsCancels: Bool {
        devices.contains { $0.passThrough && !$0.ignore && $0.cancelStyle == .lift }
    }

    /// `check-config`'s warnings about input actions: a gesture that sends input while its
    /// touches, ended by a lift, also tap the application; and pointer input on several screens
    /// (one pointer spans one screen).
    func inputWarnings() -> [ConfigurationWarning] {
        var warnings: [ConfigurationWarning] = []
        let lifts = applicationPath == .passThrough && liftsCancels
        // A view that does not forward (nor its subviews) keeps its touches from the application.
        func walk(_ views: [ViewSpec], _ prefix: String, forwarding: Bool) {
            for (i, view) in views.enumerated() {
                let viewPath = "\(prefix)[\(i)]"
                let forwards = forwarding && view.forwardsTouches
                for (k, gesture) in view.gestures.enumerated() {
                    guard lifts, forwards, !gesture.delivery.delaysTouchesBegan, gesture.delivery.cancelsTouchesInView,
                          let note = inputNote(for: gesture) else { continue }
                    warnings.append(.init(keyPath: "\(viewPath).gestures[\(k)].action.input", message: note
                        + " as well as the input; set delaysTouchesBegan: true so that it gets nothing of them"))
                }
                walk(view.subviews, viewPath + ".subviews", forwarding: forwards)
            }
        }
        if screens.isEmpty {
            walk(views, "views", forwarding: true)
        } else {
            for (k, screen) in screens.enumerated() { walk(screen.views, "screens[\(k)].views", forwarding: true) }
        }
        let pointerScreens = screensWithPointerInput
        if pointerScreens.count > 1 {
            warnings.append(.init(keyPath: "screens[\(pointerScreens[1])]", message: "clicks and scrolls on several screens: "
                + "the one pointer of \"gestured input\" spans screens[\(pointerScreens[0])] only"))
        }
        return warnings
    }

    /// The gesture with id `id`, on any view of any screen.
    public func gesture(id: String) -> GestureSpec? {
        func find(_ views: [ViewSpec]) -> GestureSpec? {
            for view in views {
                if let spec = view.gestures.first(where: { $0.id == id }) ?? find(view.subviews) { return spec }
            }
            return nil
        }
        return find(allViews)
    }
}
