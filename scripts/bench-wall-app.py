#!/usr/bin/env python3
"""`make bench`'s class wall in the real app: `draw-groups` starts GROUPS
groups of four drawing at 240 pen samples a second each (announced like
the app's sessions), the app under Xvfb opens the teacher's window (a new
PIN) and its class wall, waits until every group's sheet shows ink, then
measures for SECONDS: the app's CPU (all its threads: the watchers'
sockets, the engine, the painting), the time between its frames (the
wall's frame clock, TEAMSKETCH_FRAME_LOG=1) and its memory. Prints
`NAME: VALUE UNIT` lines; screenshots go to the work folder.

Usage: bench-wall-app.py BIN TOOLS WORK GROUPS SECONDS
"""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "ui"))
import harness  # noqa: E402
from harness import App, Display, wait_for  # noqa: E402
from test_class_wall import open_class_wall, sheets, ink  # noqa: E402
from test_teacher import open_teacher_window  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mb(pid):
    m = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(m[1]) / 1024


def main():
    binary, tools, work = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    groups, seconds = int(sys.argv[4]), float(sys.argv[5])
    harness.BIN = binary
    harness.OUT = work / "wall-shots"
    harness.OUT.mkdir(parents=True, exist_ok=True)
    drawing = subprocess.Popen([str(tools), "draw-groups", "--groups", str(groups), "--peers", "4", "--rate", "240",
                                "--seconds", str(seconds + 90)],
                               env={"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(work / "groups")},
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    display = Display(size="1700x1100").start()
    app = None
    try:
        while (line := drawing.stdout.readline()) and not line.startswith("drawing"):
            pass
        (work / "wall-app").mkdir(exist_ok=True)
        app = App(display, work / "wall-app", extra_env={"TEAMSKETCH_FRAME_LOG": "1", "TEAMSKETCH_SOUNDS": "0"})
        open_teacher_window(app)
        wall = open_class_wall(app)
        # A projector's size: room for a 4 × 2 wall.
        app.xdo("windowsize", wall, "1600", "1000")
        time.sleep(0.5)
        def inked(name):
            shot = app.screenshot(name)
            return len([s for s in sheets(shot) if ink(shot, s) > 20])
        wait_for(lambda: inked("wall-bench") >= groups, seconds=60, what=f"{groups} sheets with ink")
        pid = app.proc.pid
        log_start = len(app.read_log())
        cpu0, t0 = cpu_seconds(pid), time.monotonic()
        time.sleep(seconds)
        cpu1, t1 = cpu_seconds(pid), time.monotonic()
        shown = inked("wall-bench-end")
        frames = [tuple(float(v) for v in m.groups()) for m in
                  re.finditer(r"frames wall: n=(\d+) p50=([\d.]+) p99=([\d.]+) max=([\d.]+) ms", app.read_log()[log_start:])]
        print(f"wall_app_groups_shown: {shown} groups")
        print(f"wall_app_cpu_share: {(cpu1 - cpu0) / (t1 - t0):.3g} cores")
        if frames:
            print(f"wall_app_frames: {sum(f[0] for f in frames) / (t1 - t0):.3g} frames/s")
            print(f"wall_app_frame_gap_p99_worst: {max(f[2] for f in frames):.3g} ms")
        print(f"wall_app_rss: {rss_mb(pid):.0f} MB")
    finally:
        if app:
            app.stop()
        display.stop()
        drawing.terminate()
        drawing.wait(30)


if __name__ == "__main__":
    main()
