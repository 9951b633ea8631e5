import GesturedCore
import GesturedIO

/// The virtual device `gestured input` and what gestures' input actions write to it: made when
/// the configuration has an input action (with exactly the keys, buttons and wheels it uses,
/// `Configuration.inputCapabilities`), made again when a reload changes what it needs, gone
/// when a reload leaves no input action. Each action's frames (`InputEncoder`) are written at
/// once, in one `write(2)`: its presses and releases together, so nothing stays pressed
/// whatever happens to the daemon next. Keys and clicks beyond `InputBudget.perSecond` are
/// dropped with a (rate-limited) warning.
///
/// Input comes only from here, and here only from the configuration's actions: no socket
/// request reaches it.
final class InputSink {
    private var device: UinputInputDevice?
    private var encoder: InputEncoder?
    private var budget = InputBudget()
    private var events: [RawEvent] = []
    /// Where the device is made (a test's path).
    private let uinputPath: String

    init(uinputPath: String = "/dev/uinput") { self.uinputPath = uinputPath }

    /// The device for `configuration`, whose screens are `sizes` in points: kept when it
    /// already fits, else made anew (or closed). A device that cannot be made is logged; the
    /// rest of the daemon runs without it.
    func configure(_ configuration: Configuration, sizes: [Size]) {
        guard let capabilities = configuration.inputCapabilities else {
            if device != nil { Log.info("\(UinputInputDevice.name): no input action any more, removed") }
            close()
            return
        }
        let screen = sizes.indices.contains(capabilities.pointerScreen) ? sizes[capabilities.pointerScreen] : sizes[0]
        if let device, device.capabilities == capabilities, device.screen == screen { return }
        close()
        do {
            let made = try UinputInputDevice(capabilities, screen: screen, uinputPath: uinputPath)
            device = made
            encoder = InputEncoder(screen: screen)
            Log.info("\(UinputInputDevice.name): \(made.devnode ?? "created") (\(capabilities.keys.count) keys, "
                     + "\(capabilities.buttons.count) buttons\(capabilities.pointer ? ", pointer" : "")"
                     + "\(capabilities.verticalWheel || capabilities.horizontalWheel ? ", wheel" : ""))")
        } catch {
            Log.error("cannot create \(UinputInputDevice.name): \(error); input actions do nothing")
        }
    }

    /// Sends what `action` says for `event` (a gesture's input action reached).
    func send(_ action: InputAction, for event: GestureEvent, now: Instant) {
        guard let device, var encoder else { return }
        guard budget.allows(action, at: now) else {
            Log.limited(.warning, key: "input budget",
                        "\(event.name): more than \(InputBudget.perSecond) keys or clicks in a second, ignoring")
            return
        }
        events.removeAll(keepingCapacity: true)
        encoder.encode(action, for: event, into: &events)
        self.encoder = encoder   // its scroll remainders
        do { try device.write(events) } catch {
            Log.limited(.error, key: "input write", "\(UinputInputDevice.name): \(error)")
        }
    }

    func close() {
        device?.close()
        device = nil
        encoder = nil
    }
}
