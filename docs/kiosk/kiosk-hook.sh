#!/bin/sh
# The kiosk session's hook for gestured's kiosk lines (docs/KIOSK.md, "Kiosk policy"), run by
#   gestured listen --exec /usr/local/bin/kiosk-hook
# from the compositor's autostart, as the kiosk user (it needs the Wayland session, which the
# daemon's sandbox cannot reach). With, in /etc/gestured/gestured.json5:
#   idle: [120, 600], permissions: { screen: { uids: [<the kiosk user's uid>] } }
# - 120 s without a touch: back to the browser's home page (Alt+Home, typed with wtype);
# - 600 s: the screen off (wlopm), and gestured told so: the touch that wakes it is claimed;
# - wake (that claimed touch): the screen on again. The next touch is an ordinary one.
case "$KIOSK_EVENT" in
idle)
    case "$KIOSK_SECONDS" in
    120) wtype -M alt -k Home -m alt ;;
    600) wlopm --off '*' && gestured ctl screen off ;;
    esac
    ;;
wake)
    wlopm --on '*'
    ;;
esac
