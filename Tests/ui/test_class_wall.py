"""The class wall: two groups draw team sketches nearby (headless hosts and
members on loopback, announced like the app's); the teacher opens the wall
in the teacher's window and sees both sheets fill with ink live, each under
its host's name; a click shows one group big, "All groups" brings both
back; and the sketches are kept on the teacher's computer."""
import re
import sqlite3
import subprocess
import time

from harness import BIN, App, blobs, find_color, wait_for
from test_teacher import open_teacher_window

SHEET_WHITE = (255, 255, 255)


def sheets(shot, top=150):
    """The white sheets on the wall, left to right, top to bottom."""
    found = [b for b in blobs(shot, SHEET_WHITE, tol=3, step=6, min_cells=200) if b[1] >= top]
    return sorted(found, key=lambda b: (b[1] // 100, b[0]))


def ink(shot, box):
    """How many pixels inside a sheet are coloured (neither white nor grey)."""
    n = 0
    for y in range(box[1] + 4, box[3] - 4, 3):
        for x in range(box[0] + 4, box[2] - 4, 3):
            r, g, b = shot.getpixel((x, y))[:3]
            if max(r, g, b) - min(r, g, b) > 60:
                n += 1
    return n


def open_class_wall(app):
    """The teacher's window is open: the header's two dark icons right of
    the tabs are Class wall, then Lock."""
    shot = app.screenshot("wall-teacher")
    dark = find_color(shot, (0x2E, 0x34, 0x36), tol=8, box=(600, 20, shot.width, 140))
    xs = sorted({x for x, _ in dark})
    clusters = [[xs[0]]]
    for x in xs[1:]:
        if x - clusters[-1][-1] > 12:
            clusters.append([])
        clusters[-1].append(x)
    wall_icon = clusters[-2]
    ys = [y for x, y in dark if wall_icon[0] <= x <= wall_icon[-1]]
    app.click((wall_icon[0] + wall_icon[-1]) / 2, (min(ys) + max(ys)) / 2)


def test_the_class_wall_shows_two_live_groups(display, tmp_path):
    groups = subprocess.Popen([str(BIN), "draw-groups", "--groups", "2", "--peers", "2", "--seconds", "120",
                               "--names", "Anna", "--names", "Ben"],
                              env={"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path / "groups")},
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    app = None
    try:
        lines = []
        while not any(l.startswith("drawing") for l in lines):
            line = groups.stdout.readline()
            assert line, "draw-groups ended: " + "".join(lines)
            lines.append(line)
        (tmp_path / "app").mkdir()
        app = App(display, tmp_path / "app")
        open_teacher_window(app)
        open_class_wall(app)

        def two_inked_sheets():
            shot = app.screenshot("wall-two")
            found = sheets(shot)
            inked = [s for s in found if ink(shot, s) > 20]
            return (shot, inked) if len(inked) == 2 else None
        shot, (left, right) = wait_for(two_inked_sheets, seconds=30, what="two groups' sheets with ink on the wall")
        assert right[0] > left[2], "the two groups stand side by side"
        before = [ink(shot, left), ink(shot, right)]
        time.sleep(2.0)
        shot = app.screenshot("wall-later")
        after = [ink(shot, s) for s in sheets(shot)]
        assert len(after) == 2 and all(a > b for a, b in zip(after, before)), \
            f"both sheets keep filling while the groups draw: {before} → {after}"

        # A click on Ben's group (the right one) shows it big.
        app.click((right[0] + right[2]) / 2, (right[1] + right[3]) / 2)
        time.sleep(1.0)
        shot = app.screenshot("wall-big")
        big = sheets(shot)
        assert len(big) == 1 and big[0][2] - big[0][0] > 1.5 * (right[2] - right[0]), f"one group, big: {big}"
    finally:
        if groups.poll() is None:
            groups.terminate()
        if app:
            app.stop()
    # The teacher's computer kept both groups' sketches.
    with sqlite3.connect(tmp_path / "app" / "teamsketch" / "teamsketch.sqlite") as db:
        names = sorted(r[0] for r in db.execute("SELECT name FROM sketch"))
    assert names == ["Anna's sketch", "Ben's sketch"], names
