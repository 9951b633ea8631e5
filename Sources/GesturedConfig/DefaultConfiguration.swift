extension ConfigLoader {
    /// The embedded default configuration's JSON5 text, used when `gestured` runs without
    /// `--config`.
    ///
    /// It is text rather than Swift values so that it is held to the same validation as a user's
    /// file and can be printed as a starting point. To change the default set of recognizers,
    /// edit the `gestures` list below; `ConfigLoaderDefaultTests` checks that it still parses.
    public static let defaultText = """
        // gestured's built-in configuration: used when no --config is given.
        //
        // No `screen`: the daemon takes the coordinate space from the device (docs/CONFIG.md).
        // One root view without a `frame`, so it fills the whole screen whatever its size.
        {
          views: [
            {
              id: "root",
              gestures: [
                // A single tap waits for the double tap to fail (about 0.3 s), so a double tap
                // never also reports a single one.
                { id: "tap", type: "tap", requireToFail: ["doubleTap"] },
                { id: "doubleTap", type: "tap", numberOfTapsRequired: 2 },
                { id: "twoFingerTap", type: "tap", numberOfTouchesRequired: 2 },
                { id: "longPress", type: "longPress" },
                // Swipe before pan: both decide at about 10 pt, and on the same frame the one
                // listed first wins, so a quick flick is a swipe and a slower drag a pan
                // (docs/RECOGNIZERS.md). Listed after the pan, the swipe could never win.
                { id: "swipe", type: "swipe", direction: ["left", "right", "up", "down"] },
                { id: "pan", type: "pan" },
                // Pinch and rotation are two readings of the same two fingers: allow both at once.
                { id: "pinch", type: "pinch", recognizeSimultaneouslyWith: ["rotation"] },
                { id: "rotation", type: "rotation" },
              ],
            },
          ],
        }

        """
}
