"""The teacher's and pupils' screens on a laptop's 1366 × 768 and a
projector's 1920 × 1080, in English and German: the PIN pad, every section of the
teacher's window, a drawn sketch's review, the class wall with live groups
and "Me". One app per size and language walks through them with the window
sized to the screen; each screen must fit the screen (GTK grows a window
to its content's minimum size, which pushes the content off a laptop's
screen) and keep its header's controls inside the window. Every screenshot
is kept as out/sizes-<screen>-<size>-<lang>.png for a person to look at."""
import re
import subprocess
import time
from pathlib import Path

import pytest

from harness import (ACTIVE, BIN, TOOLS, HOME_BACKGROUND, RED, SUGGESTED_BLUE, App, Display, bbox, blobs, centre,
                     curve, edges, find_color, pen_button, small_buttons, start_new_sketch, wait_for)
from test_class_wall import ink, sheets
from test_teacher_review import hover_click, seed_game_results

SIZES = ["1366x768", "1920x1080"]
LANGS = {"en": "C.UTF-8", "de": "de_DE.UTF-8"}


@pytest.fixture(scope="module")
def locales(tmp_path_factory):
    """German needs its locale compiled, or gettext stays in C: made in a
    private directory (LOCPATH), so no root and no system change."""
    path = tmp_path_factory.mktemp("locales")
    subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8", str(path / "de_DE.UTF-8")], check=True,
                   capture_output=True)
    mo = Path(BIN).parents[1] / "locale" / "de" / "LC_MESSAGES" / "teamsketch.mo"
    assert mo.exists(), "the German catalogue is not built (make mo)"
    return path


@pytest.fixture(scope="module")
def groups(tmp_path_factory):
    """Two groups of two drawing nearby for the whole module, for the wall."""
    data = tmp_path_factory.mktemp("groups")
    proc = subprocess.Popen([str(TOOLS), "draw-groups", "--groups", "2", "--peers", "2", "--seconds", "900",
                             "--names", "Anna", "--names", "Ben"],
                            env={"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(data)},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    while not any(line.startswith("drawing") for line in lines):
        line = proc.stdout.readline()
        assert line, "draw-groups ended: " + "".join(lines)
        lines.append(line)
    yield proc
    proc.terminate()
    proc.wait(10)


def geometry(app, window):
    """The window's inside: x, y, width, height on the screen (xwininfo's:
    xdotool counts the window manager's frame twice)."""
    out = subprocess.run(["xwininfo", "-id", window], env=app.env, capture_output=True, text=True).stdout
    return tuple(int(re.search(rf"{k}:\s+(-?\d+)", out)[1])
                 for k in ("Absolute upper-left X", "Absolute upper-left Y", "Width", "Height"))


def wait_for_window_manager(display):
    """Openbox frames only windows that appear once it runs; Display.start
    may return a moment before."""
    env = dict(display.env)
    display.ensure_window_manager()
    wait_for(lambda: "window id" in subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=env,
                                                   capture_output=True, text=True).stdout,
             what=lambda: "the window manager (openbox " + ("running" if display.wm.poll() is None else "ended")
             + ", it said: " + repr(display.wm_log.read_text(errors="replace")[-500:]) + ")")
    time.sleep(1.0)


def maximise(app, window, width, height):
    """The window as a maximised one: its frame (the window manager's title
    bar and borders) at the corner, its inside the rest of the screen."""
    def extents():
        out = subprocess.run(["xprop", "-id", window, "_NET_FRAME_EXTENTS"], env=app.env, capture_output=True,
                             text=True).stdout
        return [int(v) for v in re.findall(r"\d+", out.split("=")[-1])[:4]] if "=" in out else None
    # The window manager frames the window a moment after it appears.
    left, right, top, bottom = wait_for(extents, seconds=10, what="the window manager's frame")
    app.xdo("windowmove", window, 0, 0)
    app.xdo("windowsize", window, width - left - right, height - top - bottom)
    time.sleep(0.8)
    return width - left - right, height - top - bottom


def marked(shot, x, y):
    return sum(abs(a - b) for a, b in zip(shot.getpixel((x, y))[:3], HOME_BACKGROUND)) > 30


class Walk:
    """One app on one screen size in one language."""

    def __init__(self, app, size, lang):
        self.app, self.size, self.lang = app, size, lang
        self.width, self.height = maximise(app, app.window, *map(int, size.split("x")))

    def shot(self, screen, window=None):
        """The screen's screenshot, kept; the window fits the screen and
        the header's controls stay inside it."""
        time.sleep(0.8)
        shot = self.app.screenshot(f"sizes-{screen}-{self.size}-{self.lang}")
        x, y, w, h = geometry(self.app, window or self.app.window)
        assert w <= self.width and h <= self.height, \
            f"{screen} at {self.size} ({self.lang}) makes the window {w}x{h}, larger than the screen allows " \
            f"({self.width}x{self.height})"
        # The header (the first 72 rows): nothing reaches the window's right
        # edge, where a control pushed out would be cut; the column there is
        # one plain colour (the page's or the header bar's).
        column = [shot.getpixel((x + w - 3, r))[:3] for r in range(y + 4, y + 72)]
        spread = max(max(c[i] for c in column) - min(c[i] for c in column) for i in range(3))
        assert spread <= 30, f"{screen} at {self.size} ({self.lang}): something runs off the header's right edge"
        warnings = [line for line in self.app.read_log().splitlines() if "Gtk-WARNING" in line or "Gtk-CRITICAL" in line]
        assert not warnings, f"{screen} at {self.size} ({self.lang}): GTK complains: {warnings[:3]}"
        return shot


def me_button(shot, width):
    """The pupil's picture and name: the topmost thing on the start screen."""
    y = next(y for y in range(40, shot.size[1]) if marked(shot, width // 2, y))
    return width // 2, y + 30


def walk(display, tmp_path, size, lang, locales, groups):
    width, height = map(int, size.split("x"))
    app = App(display, tmp_path, lang=LANGS[lang], extra_env={"LOCPATH": str(locales), "TEAMSKETCH_SOUNDS": "0"})
    try:
        w = Walk(app, size, lang)
        home = w.shot("home")

        # "Me": the name and the picture's sheet.
        app.click(*me_button(home, width))
        me = w.shot("me")
        # Back | Start again | Done (blue), one size each.
        done = bbox(find_color(me, SUGGESTED_BLUE, tol=20))
        step = done[2] - done[0] + 32
        app.click((done[0] + done[2]) / 2 - 2 * step, (done[1] + done[3]) / 2)
        time.sleep(0.6)

        # A pupil draws a sketch to review.
        shot, sheet = start_new_sketch(app, "Haus")
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        app.click(45, 60)                                   # home
        time.sleep(0.8)
        seed_game_results(tmp_path, "Pupil")

        # The teacher button: a fresh machine chooses its PIN.
        teacher = small_buttons(app)[0]
        app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)
        w.shot("pin")
        app.type("2468")
        app.key("Return")
        w.shot("pin-again")
        app.type("2468")
        app.key("Return")

        # The teacher's window opens at the classroom settings, the last tab.
        def chosen():
            found = [b for b in blobs(app.screenshot("sizes-tabs"), ACTIVE, tol=10)
                     if b[1] < 150 and b[3] - b[1] >= 40 and b[2] - b[0] >= 80]
            return max(found, key=lambda b: b[2]) if found else None
        tab = wait_for(chosen, what="the teacher's window")
        shot = w.shot("teacher-settings")
        row_y = (tab[1] + tab[3]) // 2
        tabs = edges(shot, 4, tab[0] + 3, tab[1], tab[3])
        assert len(tabs) >= 5, f"four tabs left of the settings: {tabs}"
        right = edges(shot, tab[2] + 3, width - 2, tab[1], tab[3])
        assert len(right) >= 4, f"Class wall and Lock right of the tabs: {right}"
        for i, name in enumerate(["teacher-sketches", "teacher-wordpost", "teacher-classes", "teacher-grades"]):
            if i == 0:
                continue
            app.click((tabs[i] + tabs[i + 1]) / 2, row_y)
            w.shot(name)
            if name == "teacher-wordpost":
                # Its word lists (a page of the tab, right of the chosen
                # "Results"), whose buttons once made the window 1379 px wide.
                results = bbox(find_color(app.screenshot("sizes-wordpost-pages"), ACTIVE, tol=10,
                                          box=(0, tab[3] + 8, width, tab[3] + 120)))
                app.click(results[2] + 60, (results[1] + results[3]) / 2)
                w.shot("teacher-wordlists")

        # The sketches, and the drawn one's review.
        app.click((tabs[0] + tabs[1]) / 2, row_y)
        card = wait_for(lambda: find_color(app.screenshot("sizes-cards"), RED, tol=90,
                                           box=(0, tab[3] + 40, width, height)), what="the sketch's thumbnail")
        w.shot("teacher-sketches")
        hover_click(app, *centre(card))
        time.sleep(1.5)
        w.shot("review")
        app.click(45, 60)                                   # back to the sketches
        time.sleep(1.0)

        # The class wall: its own window, sized to the screen.
        app.click((right[-4] + right[-3]) / 2, row_y)
        # (Its title is translated: the app's other visible window.)
        wall = wait_for(lambda: [x for x in subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--pid", str(app.proc.pid), "--name", "."], env=app.env,
            capture_output=True, text=True).stdout.split() if x != app.window], what="the class wall's window")[-1]
        maximise(app, wall, width, height)
        app.xdo("windowactivate", "--sync", wall)

        def two_inked():
            shot = app.screenshot("sizes-wall")
            return len([s for s in sheets(shot, top=100) if ink(shot, s) > 20]) >= 2
        wait_for(two_inked, seconds=30, what="both groups live on the wall")
        w.shot("wall", window=wall)
    finally:
        app.stop()


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("size", SIZES)
def test_the_new_screens_fit_the_screen(tmp_path, size, lang, locales, groups):
    display = Display(size).start()
    try:
        wait_for_window_manager(display)
        walk(display, tmp_path, size, lang, locales, groups)
    finally:
        display.stop()
