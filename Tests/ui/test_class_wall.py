"""The class wall: two groups draw team sketches nearby (headless hosts and
members on loopback, announced like the app's); the teacher opens the wall
in the teacher's window and sees both sheets fill with ink live, each under
its host's name; a click shows one group big, "All groups" brings both
back; and the sketches are kept on the teacher's computer. A group of the
teacher's own class lets the wall watch without asking."""
import json
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import a11y
from harness import BIN, TOOLS, App, blobs, chosen_tab, find_color, small_buttons, wait_for
from test_teacher import open_teacher_window

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call, keep_teacher_sign_in  # noqa: E402

SHEET_WHITE = (255, 255, 255)


def sheets(shot, top=150):
    """The white sheets on the wall, left to right, top to bottom. White
    that lines on a sheet close all round is part of that sheet, not one of
    its own."""
    found = [b for b in blobs(shot, SHEET_WHITE, tol=3, step=6, min_cells=200) if b[1] >= top]

    def inside(b, a):
        return a != b and a[0] <= b[0] and a[1] <= b[1] and b[2] <= a[2] and b[3] <= a[3]
    found = [b for b in found if not any(inside(b, a) for a in found)]
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


def dark_icons(shot, top, bottom, left=0):
    """Centres of the dark icons in a band, left to right."""
    dark = find_color(shot, (0x2E, 0x34, 0x36), tol=8, box=(left, top, shot.width, bottom))
    xs = sorted({x for x, _ in dark})
    if not xs:
        return []
    clusters = [[xs[0]]]
    for x in xs[1:]:
        if x - clusters[-1][-1] > 12:
            clusters.append([])
        clusters[-1].append(x)
    out = []
    for c in clusters:
        ys = [y for x, y in dark if c[0] <= x <= c[-1]]
        out.append(((c[0] + c[-1]) / 2, (min(ys) + max(ys)) / 2))
    return out


def open_class_wall(app):
    """The teacher's window is open: the header's two dark icons right of
    the tabs are Class wall, then Lock. Returns the wall's window."""
    icons = dark_icons(app.screenshot("wall-teacher"), top=20, bottom=140, left=600)
    app.click(*icons[-2])
    # The wall is a window of its own (for the projector): brought to the
    # corner, at the size the caller's window had.
    size = subprocess.run(["xdotool", "getwindowgeometry", app.window], env=app.env, capture_output=True,
                          text=True).stdout
    width, height = re.search(r"Geometry: (\d+)x(\d+)", size).groups()
    wall = wait_for(lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(app.proc.pid),
                                            "--name", "^Class wall$"], env=app.env, capture_output=True,
                                           text=True).stdout.split(), what="the class wall's window")[-1]
    app.xdo("windowmove", wall, "0", "0")
    app.xdo("windowsize", wall, width, height)
    app.xdo("windowactivate", "--sync", wall)
    time.sleep(0.5)
    return wall


def test_the_class_wall_shows_two_live_groups(display, tmp_path):
    groups = subprocess.Popen([str(TOOLS), "draw-groups", "--groups", "2", "--peers", "2", "--seconds", "120",
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

        # The header's dark icons, right to left: Close, Full screen, All groups.
        icons = dark_icons(shot, top=20, bottom=120)
        assert len(icons) == 3, icons
        app.click(*icons[0])                             # All groups
        wait_for(lambda: len(sheets(app.screenshot("wall-all-again"))) == 2, what="both groups back")

        # Escape steps back as well: from one group to all of them, then
        # out of full screen.
        app.click((right[0] + right[2]) / 2, (right[1] + right[3]) / 2)
        wait_for(lambda: len(sheets(app.screenshot("wall-big-again"))) == 1, what="one group big again")
        app.key("Escape")
        wait_for(lambda: len(sheets(app.screenshot("wall-escaped"))) == 2, what="both groups back after Escape")

        def wall_size():
            found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Class wall$"],
                                   env=app.env, capture_output=True, text=True).stdout.split()
            if not found:
                return None
            geometry = subprocess.run(["xdotool", "getwindowgeometry", found[-1]], env=app.env,
                                      capture_output=True, text=True).stdout
            return tuple(int(v) for v in geometry.split("Geometry:")[1].split()[0].split("x"))
        app.click(*icons[1])                             # Full screen
        wait_for(lambda: wall_size() == (1280, 860), what=lambda: f"the wall full screen (it is {wall_size()})")
        app.key("Escape")
        # Back in a window (the window manager places it as it likes).
        wait_for(lambda: wall_size() not in (None, (1280, 860)),
                 what=lambda: f"the wall back in its window (it is {wall_size()})")
        app.click(*icons[2])                             # Close
        wait_for(lambda: not subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Class wall$"],
                                            env=app.env, capture_output=True, text=True).stdout.split(),
                 what="the wall's window to close")
    finally:
        if groups.poll() is None:
            groups.terminate()
        if app:
            app.stop()
    # The teacher's computer kept both groups' sketches.
    with sqlite3.connect(tmp_path / "app" / "teamsketch" / "teamsketch.sqlite") as db:
        names = sorted(r[0] for r in db.execute("SELECT name FROM sketch"))
    assert names == ["Anna's sketch", "Ben's sketch"], names


def hosting(home, name, log):
    """A headless host on a laptop with `home` as its user's folders, its
    lobby notes in `log`; no --accept-all: the host lets each joiner in."""
    env = {"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config")}
    proc = subprocess.Popen([str(BIN), "host", "--name", name], env=env, stdout=subprocess.PIPE,
                            stderr=open(log, "w"), text=True)
    lines = []
    while not any(l.startswith("address:") for l in lines):
        line = proc.stdout.readline()
        assert line, f"{name}'s host ended: " + "".join(lines) + log.read_text()
        lines.append(line)
    return proc


def test_the_wall_watches_its_classes_groups_without_asking(display, tmp_path, bus):
    """Mia, signed in with her pictures on her laptop, hosts a lobby: her
    teacher's wall is let in at once, with nobody pressing "let in" (the
    class's key, from the school server, proves the wall is her class's).
    Ole's laptop, nobody signed in, still asks, and the wall says so."""
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    hosts, app = [], None
    try:
        signed = server.sign_in()
        token = signed["token"]
        klass = call(server.port, "POST", "/classes", token, {"name": "2b"})["id"]
        mia = call(server.port, "POST", f"/classes/{klass}/pupils", token, {"name": "Mia"})["id"]
        call(server.port, "PUT", f"/pupils/{mia}/picture-password", token, {"pictures": [1, 2, 3]})
        pupil = call(server.port, "POST", "/sign-in/pupil", body={"pupilId": mia, "pictures": [1, 2, 3]})
        assert len(pupil.get("classWatchKey", "")) == 64, pupil
        folder = tmp_path / "mia" / "config" / "teamsketch"
        folder.mkdir(parents=True)
        (folder / "school.json").write_text(json.dumps({
            "server": server.url, "accountID": mia, "name": "Mia", "isTeacher": False, "token": pupil["token"],
            "expiresAt": time.time() - 978307200 + 3600, "classID": klass, "classWatchKey": pupil["classWatchKey"]}))
        mia_log, ole_log = tmp_path / "mia.log", tmp_path / "ole.log"
        hosts.append(hosting(tmp_path / "mia", "Mia", mia_log))
        hosts.append(hosting(tmp_path / "ole", "Ole", ole_log))

        home = tmp_path / "app"
        home.mkdir()
        keep_teacher_sign_in(home, server, signed)
        app = App(display, home, extra_env=bus.app_env)
        teacher = small_buttons(app)[0]
        app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)   # signed in: straight in
        chosen_tab(app, "wall-class-teacher")
        open_class_wall(app)

        name = signed["account"]["name"]
        wait_for(lambda: f"{name} (observer)" in mia_log.read_text() or None,
                 what=lambda: f"Mia's laptop letting the wall in by itself (its log: {mia_log.read_text()[-400:]!r})")
        assert f"{name} (observer, waiting)" not in mia_log.read_text()
        wait_for(lambda: f"{name} (observer, waiting)" in ole_log.read_text() or None,
                 what=lambda: f"Ole's laptop asking (its log: {ole_log.read_text()[-400:]!r})")
        assert f"{name} (observer)\n" not in ole_log.read_text()
        # On the wall: Mia's group live, Ole's cell saying it waits.
        root = a11y.root(app)
        a11y.find(root, "Groups drawing: 1", role="label", seconds=15)
        app.screenshot("wall-class-watching")
        mia_name = a11y.find(root, "Mia", role="label").queryComponent().getExtents(0)
        ole_name = a11y.find(root, "Ole", role="label").queryComponent().getExtents(0)
        waiting = [n.queryComponent().getExtents(0) for n in a11y.nodes(root)
                   if n.name == "Waiting for the group to let you watch"]

        def beside(name):
            return [w for w in waiting if abs(w.y - name.y) < 20 and name.x < w.x < name.x + 400]
        assert beside(ole_name) and not beside(mia_name), (mia_name, ole_name, waiting)
    finally:
        for h in hosts:
            if h.poll() is None:
                h.terminate()
                h.wait(10)
        if app:
            app.stop()
        server.stop()
