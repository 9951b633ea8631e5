#!/usr/bin/env python3
"""The kernel's floor under `make bench`'s "daemon latency read -> 8 clients written".

That figure runs from the daemon's device read to the end of its writes to 8 clients, which
wait in poll(2) in one process (the benchmark's). This writes what the daemon writes per read
(three lines of about 110 bytes) to 8 Unix stream sockets whose readers sleep in one poll(2)
in another process, at the benchmark's 90 frames/s, and times the 8 send(2) calls alone: the
part of the daemon's interval that is the kernel's (copying, waking the reader) and not
gestured's. docs/PERFORMANCE.md quotes it next to the daemon's figure.

Usage: python3 Tests/Bench/send-floor.py [ROUNDS]   (default 1000; about 12 s)

A benchmark, not a test: it paces its rounds at the benchmark's frame rate on purpose.
"""
import os
import select
import socket
import sys
import time

CLIENTS = 8
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
LINE = (b"gesture pan changed view=leaf-17 device=event7 time=123.456789 seq=42 touches=1 "
        b"x=512.25 y=300.50 velocityX=120.00\n") * 3

pairs = [socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM) for _ in range(CLIENTS)]
reader = os.fork()
if reader == 0:
    # The readers: one process polling every client's end, as the benchmark's clients do.
    for writer_end, _ in pairs:
        writer_end.close()
    poller = select.poll()
    for _, reader_end in pairs:
        poller.register(reader_end, select.POLLIN)
    open_ends = CLIENTS
    while open_ends:
        for fd, _ in poller.poll():
            if os.read(fd, 65536) == b"":
                poller.unregister(fd)
                open_ends -= 1
    os._exit(0)

writers = [writer_end for writer_end, _ in pairs]
for _, reader_end in pairs:
    reader_end.close()
samples = []
idle = select.poll()  # nothing registered: its timeout paces the rounds
for _ in range(ROUNDS):
    idle.poll(1000 / 90)  # 90 frames/s: the readers are asleep in poll when the lines go out
    start = time.perf_counter_ns()
    for w in writers:
        w.send(LINE)
    samples.append((time.perf_counter_ns() - start) / 1000)
for w in writers:
    w.close()
os.waitpid(reader, 0)
samples.sort()
print("8 sends to readers asleep in poll: p50 %.1f us, p99 %.1f us, max %.1f us (%d rounds)"
      % (samples[len(samples) // 2], samples[int(len(samples) * 0.99)], samples[-1], len(samples)))
