/// `gestured --help`'s text (CONTRACT.md §1).
extension Arguments {
    static let help = """
        Usage:
          gestured [run] [--config FILE] [--socket PATH] [--verbose] [--trace]
                                     the daemon, in the foreground (systemd runs it like this);
                                     --trace: every recognizer transition, with its reason
          gestured replay [--config FILE] [--format text|json] [--touches] [--failed] [--trace]
                          [--forwarded] [--description DESC] RECORDING [RECORDING ...]
                                     the daemon's pipeline over evemu recordings (several: one
                                     device each, event0, event1, ..., interleaved by time),
                                     lines to stdout (--trace: transitions with reasons to stderr)
          gestured check-config [--strict] FILE
                                     validate a configuration; exit 0, or print errors and exit
                                     78; warnings (likely mistakes) exit 0 unless --strict
          gestured check-config --needs-uinput FILE
                                     validate it, then print "uinput: yes" when a device rule
                                     has passThrough (the service needs /dev/uinput), else
                                     "uinput: no" (gestured-generator asks this at boot)
          gestured explain [--config FILE] [--screen ID] [--layout NAME] X Y
                                     why a touch at X,Y (screen points) goes to the view it goes
                                     to, and which recognizers it reaches, in winning order
          gestured draw [--config FILE] [--screen ID] [--layout NAME] [--background IMAGE]
                        [RECORDING [--description DESC]] --output FILE.svg|FILE.html
                                     a picture of the region map (and of a recording's touches
                                     and gestures); HTML adds a timeline to play it
          gestured replay --strokes [--config FILE] [--description DESC] RECORDING
                                     every stroke of the recording and every stroke template's
                                     score against it (the config's templates, or the built-ins)
          gestured record-stroke --name NAME [--output FILE] RECORDING [--description DESC]
                                     the recording's first stroke as a template file (stdout
                                     without --output), for a stroke gesture's templates
          gestured record-stroke --name NAME [--output FILE] [--config FILE] [--timeout SECONDS]
                                     the same from the first stroke drawn on a touch device
                                     that `run` would use (the first touch down to the last
                                     lift); gives up after SECONDS (default 60)
          gestured devices [--json] [--config FILE]
                                     every input device udev knows: type, protocol, slots, axis
                                     ranges and resolution, the rule that applies, used or not
          gestured doctor [--json] [--config FILE] [--socket PATH] [--probe-cancel]
                                     what is right and wrong on this machine, each wrong thing
                                     with its fix: the daemon and its socket, the touch devices,
                                     uinput, each clone's reader and whether its cancelStyle
                                     fits, the clone guards, the configuration's warnings;
                                     --probe-cancel: also press and cancel one touch in each
                                     cancelStyle on a touchscreen of its own, shown to a surface
                                     on WAYLAND_DISPLAY; exit 1 when something is wrong
          gestured calibrate [--device GLOB] [--display auto|wayland|none] [--json] [--config FILE]
                                     measure a panel's calibration matrix: touch four targets
                                     (full screen through gestured-surface on Wayland, or as
                                     said on stdout); prints the matrix, the residual, the
                                     device rule and a udev rule for the panel and its clone,
                                     with where to install it; the panel is grabbed meanwhile,
                                     and one the daemon holds is refused with what to run
          gestured listen [--socket PATH] [--format text|json] [--filter EXPR] [--touches] [--failed]
                          [--reconnect] [--exec CMD [--shell]]
                                     a client: print the daemon's event lines (EXPR: key=glob
                                     terms, keys type state name view device, e.g.
                                     'type=tap|swipe state=ended'), or run CMD for each gesture
                                     line with its fields in GESTURE_* variables (no shell
                                     unless --shell; one running, one pending at most);
                                     --exec and --reconnect connect again when the daemon
                                     restarts, else the end of the stream ends it
          gestured ctl [--socket PATH] REQUEST...
                                     send one request line (e.g. 'screen off', 'lock 30',
                                     'unlock', 'layout night'), print the answer; exit 0 on ok,
                                     1 when the daemon refuses it or cannot be reached
          gestured mqtt [--config FILE] [--socket PATH]
                                     the MQTT bridge: the daemon's gesture and kiosk lines to
                                     the broker of the configuration's mqtt key, with Home
                                     Assistant discovery, and its listed commands back to the
                                     daemon (docs/MQTT.md)
          gestured --version | --help

        Every command that reads a configuration refuses one (or a stroke-template file, or a
        directory on the path to either) that is owned by someone other than root and the user
        running it, or writable by anyone but its owner, as sshd's StrictModes does.
        --allow-insecure-config-permissions reads it anyway, with a warning (development only).

        explain, draw, devices, doctor and calibrate without --config read the installed service's
        configuration (/etc/gestured/gestured.json5) when there is one, else the built-in one,
        and say which on stderr ("config: ..."); run and replay without --config use the
        built-in one.

        listen, ctl and doctor without --socket connect to $GESTURED_SOCKET, else to the service's
        /run/gestured/gestured.sock when it exists, else to $XDG_RUNTIME_DIR/gestured.sock, as root
        or not; run without --socket makes /run/gestured/gestured.sock as root, else the latter.

        Exit status: 0 success, 2 bad command line, 78 invalid configuration, 1 other errors.
        See gestured(8), docs/CONFIG.md and docs/PROTOCOL.md.

        """
}
