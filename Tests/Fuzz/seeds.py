#!/usr/bin/env python3
"""Writes the raw seed inputs of the fuzz targets from the repository's own files: the example
configurations (config/), the recordings of Tests/Fixtures (for the evemu target as text, for
the pipeline target in its binary form, Tests/Fuzz/Kit/PipelineScenario.swift), a stroke template
file, and request lines. `make fuzz-seeds` merges them (libFuzzer -merge=1) into the small corpora
kept in Tests/Fuzz/Corpus; run it again after changing an input format.

Usage: seeds.py OUTPUT_DIR   (writes OUTPUT_DIR/<target>/<name>)
"""
import os
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")


def write(out, target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


# --- evemu recordings -----------------------------------------------------------------------

# Seeds are cut to their first events: the corpora stay small, and a fuzzer mutates short inputs
# faster (the whole recordings are replayed by the ordinary tests).
SEED_EVENTS = 600


def cut(events_text):
    lines, kept, count = events_text.split(b"\n"), [], 0
    for line in lines:
        if line.startswith(b"E:"):
            count += 1
            if count > SEED_EVENTS:
                break
        kept.append(line)
    return b"\n".join(kept) + b"\n"


def recordings():
    """(name, description text, events text, device table index) of every fixture recording."""
    result = []
    synthetic = os.path.join(FIXTURES, "recordings")
    desc = read(os.path.join(synthetic, "synthetic-touchscreen.desc"))
    for f in sorted(os.listdir(synthetic)):
        if f.endswith(".events"):
            result.append((f, desc, cut(read(os.path.join(synthetic, f))), 0))
    devices = os.path.join(FIXTURES, "evemu-devices")
    table = {"Wacom ISDv4 E6 Finger": 1, "Wacom Bamboo 16FG 4x5 Finger": 2,
             "eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller": 3}
    for f in sorted(os.listdir(devices)):
        if not f.endswith(".events"):
            continue
        for device, index in table.items():
            if f.startswith(device):
                result.append((f, read(os.path.join(devices, device + ".desc")), cut(read(os.path.join(devices, f))), index))
    return result


def parse_evemu(text):
    axes, events = {}, []
    for line in text.decode("utf-8", "replace").splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("A:"):
            f = line[2:].split()
            axes[int(f[0], 16)] = (int(f[1]), int(f[2]))
        elif line.startswith("E:"):
            f = line[2:].split()
            sec, usec = f[0].split(".")
            events.append((int(sec) * 1_000_000 + int(usec), int(f[1], 16), int(f[2], 16), int(f[3])))
    return axes, events


# --- the pipeline target's binary form ------------------------------------------------------

KINDS = {(0, 0): 0, (0, 2): 1, (0, 3): 2, (3, 0x2f): 3, (3, 0x39): 4, (3, 0x35): 5, (3, 0x36): 6, (3, 0x37): 7,
         (3, 0x00): 8, (3, 0x01): 9, (1, 0x14a): 10, (1, 0x140): 11, (1, 0x141): 12, (3, 0x3a): 13, (4, 5): 14}
AXIS_OF_KIND = {5: 0x35, 6: 0x36, 8: 0x00, 9: 0x01}


def header(devices=1, device_kind=0, screens=False, size=1, rule=0, gestures=None, views=None, trace=False):
    h = bytearray(64)
    h[0] = (devices - 1) | (0x10 if trace else 0)
    h[1] = (1 if screens else 0) | size << 1
    for k in range(3):
        h[2 + 2 * k] = device_kind
    for k in range(3):
        h[8 + k] = rule
    views = views or [(0, 0, 0), (0, 0x22, 0x77), (0, 0x00, 0x13), (0, 0, 0)]
    h[11] = 2  # two subviews
    for v, (flags, a, b) in enumerate(views):
        h[12 + 3 * v:15 + 3 * v] = bytes([flags, a, b])
    gestures = gestures or DEFAULT_GESTURES
    for g, bytes5 in enumerate(gestures):
        h[24 + 5 * g:29 + 5 * g] = bytes(bytes5)
    return bytes(h)


# [present|view<<3|type, p, q, delivery, r]: a tap, a double tap, a pan, a pinch with a rotation,
# a long press, a swipe, and on the first subview a stroke.
DEFAULT_GESTURES = [
    [0x80, 0x00, 0, 0, 0], [0x80, 0x01, 0, 0, 0], [0x82, 0x00, 0, 0, 0], [0x83, 0, 0, 0x90, 0],
    [0x84, 0, 0, 0, 0], [0x85, 0, 0, 0, 0], [0x81, 0x03, 0, 0, 0], [0x8f, 0x00, 0x02, 0, 0],
]
# The same with touch delivery: delaysTouchesBegan on the taps, cancelsTouchesInView off on the
# pan, delaysTouchesEnded off on the pinch.
DELIVERY_GESTURES = [[b0, p, q, d | extra, r] for (b0, p, q, d, r), extra in
                     zip(DEFAULT_GESTURES, [2, 2, 1, 4, 0, 8, 0, 0])]


def pipeline_events(desc, events_text):
    axes, events = parse_evemu(desc)
    _, events = parse_evemu(events_text)
    out = bytearray()
    last = events[0][0] if events else 0
    for (time, type_, code, value) in events:
        diff = time - last
        last = time
        k = KINDS.get((type_, code), 15)
        if diff < 255 * 250:
            dt = round(diff / 250)
        else:
            k |= 0x80
            dt = min(255, round(diff / 50_000))
        raw = None
        if k & 0x0f in AXIS_OF_KIND:
            lo, hi = axes.get(AXIS_OF_KIND[k & 0x0f], (0, 65535))
            v = max(0, min(65535, round((value - lo) * 65535 / max(1, hi - lo))))
        elif k & 0x0f == 4:
            v = 0xffff if value < 0 else value & 0xfffe
        elif k & 0x0f == 15:
            v = type_ | code << 5
            if value:
                raw = value
        else:
            v = value & 0xffff
        if raw is not None:
            k |= 0x40
        out += bytes([k, dt]) + struct.pack("<H", v & 0xffff)
        if raw is not None:
            out += struct.pack("<i", raw)
    return bytes(out)


# --- main -----------------------------------------------------------------------------------

def main():
    out = sys.argv[1]
    # config: the example configurations and the drawing fixture.
    for path in ["config/gestured.json5", "config/two-panels.json5", "Tests/Fixtures/draw/taps.json5"]:
        write(out, "config", os.path.basename(path), read(os.path.join(ROOT, path)))
    default = read(os.path.join(ROOT, "Sources/GesturedConfig/ConfigLoader+DefaultConfiguration.swift")).decode()
    match = re.search(r'"""\n(.*?)\n\s*"""', default, re.S)
    if match:
        write(out, "config", "default.json5", match.group(1))
    # evemu and pipeline: every fixture recording.
    for name, desc, events, index in recordings():
        base = os.path.splitext(name)[0].replace(" ", "-")
        write(out, "evemu", base + ".evemu", desc + events)
        body = pipeline_events(desc, events)
        write(out, "pipeline", base + ".plain", header(device_kind=index) + body)
        write(out, "pipeline", base + ".passthrough",
              header(device_kind=index, rule=0x20, gestures=DELIVERY_GESTURES) + body)
        write(out, "pipeline", base + ".screens-rotated",
              header(devices=2, device_kind=index, screens=True, rule=0x01 | 3 << 2, trace=True) + body)
    # strokes: a template file as record-stroke writes it.
    write(out, "strokes", "recorded.json5",
          "// gestured record-stroke --name hook\n{\n  templates: [\n    {\n      name: \"hook\",\n      points: [\n"
          "        [10.00, 10.00], [20.00, 10.00], [30.00, 12.50], [35.00, 20.00], [30.00, 30.00],\n      ],\n    },\n"
          "    { name: \"line\", points: [[0, 0], [100, 0]] },\n  ],\n}\n")
    # requests: records [client, length, bytes] (Tests/Fuzz/Kit/RequestTarget.swift).
    def records(*items):
        data = bytearray()
        for client, text in items:
            b = text.encode()
            data += bytes([client, len(b)]) + b
        return bytes(data)
    write(out, "requests", "subscribe", records((0x0c, "format json\nsubscribe touches\n"), (0x0d, "subscribe failed\nping\n"),
                                               (0x0e, "stats\nfilter type=tap|pan state=ended\n"), (0x0c, "unsubscribe touches\n")))
    write(out, "requests", "control", records((0x0c, "hide overlay\nshow overlay\n"), (0x0d, "layout night\nlayout day\n"),
                                             (0x0e, "rotate event* 90\nhide root\n"), (0x0c, "frame toolbar-button-primary-action 0 0 10 10\n"),
                                             (0x0c, "disable root\nenable root\nrotate event0 0\n")))
    # Stars and question marks: a few copies more of them make a backtracking glob take seconds on
    # the views' long ids (the requests target's time limit is 5 s); these take milliseconds.
    write(out, "requests", "stars", records((0x0c, "filter view=*m*X device=e*t*0\n"), (0x0d, "filter name=*p*a*n*\n"),
                                           (0x0c, "filter view=*?*?*?*?X name=*?*X\n")))
    write(out, "requests", "filters", records((0x0c, "filter view=map*|[a-t]oo?bar-* device=event[!1]\n"),
                                             (0x0d, "filter screen= name=[]\n"), (0x0e, "filter bogus\nformat yaml\nnope\n")))


if __name__ == "__main__":
    main()
