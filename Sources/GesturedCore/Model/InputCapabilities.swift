/// What the virtual device `gestured input` must be able to send for a configuration: exactly
/// the keys its chords name, the buttons its clicks use and the wheels its scrolls turn, and an
/// absolute pointer when a click or a scroll needs one. Nil from `Configuration.inputCapabilities`
/// when no gesture has an input action: then no device is made (and no uinput grant is needed).
///
/// The pointer is shaped like QEMU's USB tablet, which every compositor and X accept as a mouse
/// that jumps: `ABS_X`/`ABS_Y` and `BTN_LEFT` always (udev's input_id calls an absolute device a
/// mouse only when it has `BTN_LEFT`; without it, it would be nothing libinput takes), without
/// `INPUT_PROP_DIRECT` (that would make it a touchscreen).
public struct InputCapabilities: Hashable, Sendable {
    /// Key codes (`KEY_*`), ascending.
    public var keys: [UInt16] = []
    /// Button codes (`BTN_LEFT`…), ascending; empty without a pointer.
    public var buttons: [UInt16] = []
    /// Whether it has `ABS_X`/`ABS_Y`.
    public var pointer = false
    /// `REL_WHEEL` with `REL_WHEEL_HI_RES`, and `REL_HWHEEL` with `REL_HWHEEL_HI_RES`.
    public var verticalWheel = false
    public var horizontalWheel = false
    /// The screen (index in `screenSpecs`) whose size the pointer spans: the screen of the first
    /// gesture with a pointer action.
    public var pointerScreen = 0

    public init() {}
}

extension Configuration {
    /// The input device this configuration needs, or nil when no gesture sends input.
    public var inputCapabilities: InputCapabilities? {
        var capabilities = InputCapabilities()
        var keys = Set<UInt16>(), buttons = Set<UInt16>()
        var any = false
        for (index, screen) in screenSpecs.enumerated() {
            for action in Self.inputActions(in: screen.views) {
                any = true
                switch action.kind {
                case .key(let codes): keys.formUnion(codes)
                case .click(let button, _): buttons.insert(button.code)
                case .scroll(let axes, _):
                    capabilities.verticalWheel = capabilities.verticalWheel || axes.vertical
                    capabilities.horizontalWheel = capabilities.horizontalWheel || axes.horizontal
                }
                if action.usesPointer, !capabilities.pointer {
                    capabilities.pointer = true
                    capabilities.pointerScreen = index
                }
            }
        }
        guard any else { return nil }
        if capabilities.pointer { buttons.insert(PointerButton.left.code) }
        capabilities.keys = keys.sorted()
        capabilities.buttons = buttons.sorted()
        return capabilities
    }

    /// The screens (indices) with a gesture whose input moves the pointer, for the warning that
    /// one pointer spans one screen.
    public var screensWithPointerInput: [Int] {
        screenSpecs.indices.filter { Self.inputActions(in: screenSpecs[$0].views).contains { $0.usesPointer } }
    }

    static func inputActions(in views: [ViewSpec]) -> [InputAction] {
        views.flatMap { view in view.gestures.compactMap { $0.action?.input } + inputActions(in: view.subviews) }
    }
}
