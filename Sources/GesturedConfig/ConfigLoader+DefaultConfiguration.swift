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
                // Moving fingers are reported in every reading that fits, at once: a pan while
                // they move, a swipe as well when a stroke is quick and straight, pinch and
                // rotation as well when two fingers spread or turn. Made exclusive, the pan would
                // take every stroke at its first 10 pt, before a swipe can know it is one; with
                // `requireToFail: ["swipe"]` instead, every slow drag would wait 0.5 s for the
                // swipe to give up. A client that wants one reading filters by type.
                { id: "swipe", type: "swipe", direction: ["left", "right", "up", "down"] },
                { id: "twoFingerSwipe", type: "swipe", numberOfTouchesRequired: 2,
                  direction: ["left", "right", "up", "down"] },
                { id: "pan", type: "pan",
                  recognizeSimultaneouslyWith: ["swipe", "twoFingerSwipe", "pinch", "rotation"] },
                // Pinch and rotation are two readings of the same two fingers: allow both at once.
                { id: "pinch", type: "pinch", recognizeSimultaneouslyWith: ["rotation"] },
                { id: "rotation", type: "rotation" },
              ],
            },
          ],
        }

        """
}
