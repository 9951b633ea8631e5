#!/bin/sh
# The kiosk session's hook for gestured's lines (docs/KIOSK.md, "Kiosk policy" and "Raspberry Pi
# OS kiosk guide"), installed by the package as /usr/libexec/gestured/kiosk-hook and run by
#   gestured listen --exec /usr/libexec/gestured/kiosk-hook
# from the compositor's autostart, as the kiosk user (it needs the Wayland session, which the
# daemon's sandbox cannot reach). With, in /etc/gestured/gestured.json5:
#   idle: [120, 600], permissions: { screen: { uids: [<the kiosk user's uid>] } }
# - 120 s without a touch: back to the browser's home page (Alt+Home, typed with wtype);
# - 600 s: the screen off (wlopm), and gestured told so: the touch that wakes it is claimed;
# - wake (that claimed touch): the screen on again. The next touch is an ordinary one;
# - the admin gesture's long press (`gesture longPress began admin`): the admin menu, the kiosk
#   user's own unit kiosk-admin-menu.service (/usr/share/doc/gestured/examples/), a window in
#   this session; starting it again while it runs does nothing.
# To change it (other thresholds), copy it to /usr/local/bin/kiosk-hook and run that instead: an
# upgrade replaces this file.
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
if [ "$GESTURE_NAME" = admin ] && [ "$GESTURE_STATE" = began ]; then
    systemctl --user start --no-block kiosk-admin-menu.service
fi
