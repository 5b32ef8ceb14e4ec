#!/usr/bin/env python3
"""`make bench`'s real scroll through the teacher's sketch grid: starts the
app under Xvfb on a store made by `bench-gallery` (its XDG_DATA_HOME),
opens the teacher's window (a new PIN) and its Sketches, waits until every
thumbnail is read, then scrolls with the mouse wheel (xdotool) from the
first to the last of the sketches and back. Prints `NAME: VALUE UNIT`
lines: how long the grid took to read everything, the app's CPU while
scrolling, the time between frames while scrolling (the app's frame clock,
TEAMSKETCH_FRAME_LOG=1) and its memory. Screenshots go to the work folder.

Usage: bench-gallery-scroll.py BIN DATA_HOME SKETCHES
"""
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "ui"))
import harness  # noqa: E402
from harness import App, Display, bbox, find_color, small_buttons, wait_for  # noqa: E402

ACTIVE = (0x2B, 0x2B, 0x6E)
BACKGROUND = (0xFB, 0xF8, 0xF2)
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mb(pid):
    m = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(m[1]) / 1024


def frame_lines(log):
    return [tuple(float(v) for v in m.groups())
            for m in re.finditer(r"frames sketches: n=(\d+) p50=([\d.]+) p99=([\d.]+) max=([\d.]+) ms late=(\d+)", log)]


def main():
    binary, data_home, sketches = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    harness.BIN = binary
    harness.OUT = data_home / "shots"
    display = Display().start()
    app = None
    try:
        app = App(display, data_home, extra_env={"TEAMSKETCH_FRAME_LOG": "1", "TEAMSKETCH_SOUNDS": "0"})
        pid = app.proc.pid
        teacher = small_buttons(app)[0]
        app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)
        time.sleep(0.6)
        for _ in range(2):
            app.type("1357")
            app.key("Return")
            time.sleep(0.4)
        tab = bbox(wait_for(lambda: find_color(app.screenshot("gallery-teacher"), ACTIVE, tol=10,
                                               box=(500, 20, 1200, 130)), what="the teacher's window"))
        row_y = (tab[1] + tab[3]) // 2
        shot = app.screenshot("gallery-tabs")
        # "Sketches" is the first of the tabs: the first button border from
        # the left, a grey line down the whole row (the title's letters are
        # not straight and grey from top to bottom).
        def border(x):
            column = [shot.getpixel((x, y))[:3] for y in range(tab[1] + 20, tab[3] - 20, 5)]
            return all(abs(c[0] - 205) < 12 and abs(c[1] - 199) < 12 and abs(c[2] - 194) < 12 for c in column)
        first = next(x for x in range(0, tab[0]) if border(x))

        # Open the Sketches; the grid reads every sketch's digest away from
        # the main thread. Done when the app has been idle for a second.
        opened = time.time()
        app.click(first + 70, row_y)
        last, quiet = cpu_seconds(pid), 0
        while quiet < 2 and time.time() - opened < 600:
            time.sleep(0.5)
            now = cpu_seconds(pid)
            quiet = quiet + 1 if now - last < 0.05 else 0
            last = now
        loaded = time.time() - opened - 1.0
        app.screenshot("gallery-loaded")
        rss_loaded = rss_mb(pid)

        # Scroll to the end and back with the wheel, about 60 notches a second.
        before_log = len(frame_lines(app.read_log()))
        app.xdo("mousemove", "--sync", 600, 500)
        cpu0, t0 = cpu_seconds(pid), time.time()
        notches = max(40, sketches * 2)
        app.xdo("click", "--repeat", notches, "--delay", 16, 5)
        app.screenshot("gallery-scrolled-end")
        app.xdo("click", "--repeat", notches, "--delay", 16, 4)
        wall = time.time() - t0
        cpu = cpu_seconds(pid) - cpu0
        time.sleep(2.5)   # the last frame-log window
        app.screenshot("gallery-scrolled-back")
        frames = frame_lines(app.read_log())[before_log:]
        for f in frames:
            print("bench: 2-s window: n=%d p50=%.1f p99=%.1f max=%.1f ms late=%d" % f, file=sys.stderr)
        print(f"gallery_scroll_open_to_idle_{sketches}: {loaded:.1f} s")
        print(f"gallery_scroll_rss_loaded_{sketches}: {rss_loaded:.0f} MB")
        print(f"gallery_scroll_wall_{sketches}: {wall:.1f} s")
        print(f"gallery_scroll_cpu: {100 * cpu / wall:.0f} % of a core")
        if frames:
            print(f"gallery_scroll_frames: {sum(f[0] for f in frames):.0f} frames")
            n = sum(f[0] for f in frames)
            print(f"gallery_scroll_frame_p50_worst: {max(f[1] for f in frames):.1f} ms")
            print(f"gallery_scroll_frames_late: {100 * sum(f[4] for f in frames) / n:.1f} %")
            print(f"gallery_scroll_frame_max: {max(f[3] for f in frames):.1f} ms")
        print(f"gallery_scroll_rss_after: {rss_mb(pid):.0f} MB")
        # For people to look at: Buchstaben Post's results with the pupils'
        # pictures (the tab right of Sketches).
        app.click(first + 200, row_y)
        time.sleep(2)
        app.screenshot("gallery-wordpost-results")
    finally:
        if app:
            app.stop()
        display.stop()


if __name__ == "__main__":
    main()
