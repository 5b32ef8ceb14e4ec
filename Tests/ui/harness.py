"""Drives the real app under Xvfb the way a person would: xdotool for input,
screenshots (ImageMagick `import`) judged by their pixels."""
import math
import os
import re
import shutil
import select
import signal
import subprocess
import time
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / ".build" / "debug" / "TeamsketchDesktop"
# The developers' tools beside the app: a generated sketch, drawing groups.
TOOLS = ROOT / ".build" / "debug" / "TeamsketchTools"
OUT = ROOT / "Tests" / "ui" / "out"

# Colours the tests look for; they come from LearnModel's palette and the CSS.
RED = (0xE3, 0x20, 0x1B)
DARK_BLUE = (0x1A, 0x3F, 0xA8)
SUGGESTED_BLUE = (0x35, 0x84, 0xE4)  # Adwaita's suggested-action buttons
CANVAS_WHITE = (255, 255, 255)


def close(c, ref, tol=40):
    return abs(c[0] - ref[0]) <= tol and abs(c[1] - ref[1]) <= tol and abs(c[2] - ref[2]) <= tol


class Display:
    def __init__(self, size="1280x860"):
        self.size = size
        self.number = None
        self.proc = None

    def start(self):
        # Xvfb picks a free display number itself and writes it to the
        # pipe once it listens (-displayfd): two test processes starting
        # displays at once (`make ui` runs two shards) can never take the
        # same number, as they could when each looked for a free one.
        read_end, write_end = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", f"{self.size}x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write_end,))
        os.close(write_end)
        answer = b""
        deadline = time.time() + 20
        with os.fdopen(read_end, "rb", buffering=0) as pipe:
            while not answer.endswith(b"\n"):
                ready, _, _ = select.select([pipe], [], [], max(0.0, deadline - time.time()))
                chunk = pipe.read(16) if ready else b""
                if not chunk:
                    self.proc.kill()
                    raise RuntimeError(f"Xvfb did not start (it said {answer!r} within 20 s)")
                answer += chunk
        self.number = int(answer.strip())
        # A window manager, as on a real desktop: without one GTK never sees
        # its window become active and ignores the keyboard.
        self.start_window_manager()
        return self

    def start_window_manager(self):
        """Starts openbox and waits until it manages the screen. An openbox
        that ends at once (CI once saw it, likely before Xvfb took
        connections) is started again; its last words are kept in
        `wm_log` for the message of a test that still finds none."""
        env = dict(os.environ, **self.env)
        self.wm_log = Path(f"/tmp/teamsketch-openbox-{self.number}.log")

        def running():
            return subprocess.run(["xdotool", "getactivewindow"], env=env, capture_output=True).returncode == 0 \
                or "window id" in subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=env,
                                                 capture_output=True, text=True).stdout
        deadline = time.time() + 20
        self.wm = None
        while time.time() < deadline:
            if self.wm is None or self.wm.poll() is not None:
                with open(self.wm_log, "ab") as log:
                    self.wm = subprocess.Popen(["openbox", "--sm-disable"], env=env,
                                               stdout=subprocess.DEVNULL, stderr=log)
            if running():
                return
            time.sleep(0.1)

    def ensure_window_manager(self, restart=False):
        """A window manager that is gone (or, with `restart`, stuck) is
        started again: without one no later test's window gets the keyboard
        (CI once lost it halfway through and every test after failed)."""
        if restart and self.wm.poll() is None:
            self.wm.kill()
            self.wm.wait(5)
        if self.wm.poll() is not None:
            self.start_window_manager()

    @property
    def env(self):
        return {"DISPLAY": f":{self.number}"}

    def stop(self):
        if getattr(self, "wm", None):
            self.wm.terminate()
        if self.proc:
            self.proc.terminate()
            self.proc.wait(5)


class App:
    """One running TeamsketchDesktop with its own data directory."""

    def __init__(self, display, data_home, extra_args=(), lang="C.UTF-8", extra_env=None, prefix=(), binary=None,
                 cwd=None, first_run=False):
        """`prefix`: what the app runs under, e.g. `ip netns exec NAME` for
        a laptop on a network of its own (X reaches it by its socket file).
        `binary`: another executable than the build tree's `BIN` (an
        installed one); `cwd`: the directory it starts in (default: ours).
        Unless `first_run`, a laptop without a set-up file is one whose
        first start chose "Use without a server", so the test begins at
        the start screen."""
        self.display = display
        self.data_home = Path(data_home)
        setup = self.data_home / "config" / "teamsketch" / "classroom.json"
        if not first_run and not setup.exists():
            setup.parent.mkdir(parents=True, exist_ok=True)
            setup.write_text('{"standalone": true}')
            setup.chmod(0o600)
        self.env = dict(os.environ)
        self.env.update(display.env)
        self.env.update({
            "GDK_BACKEND": "x11", "XDG_DATA_HOME": str(self.data_home),
            "LANG": lang, "LC_ALL": lang, "LANGUAGE": "",
            "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
            "XDG_CONFIG_HOME": str(self.data_home / "config"),
        })
        self.env.update(extra_env or {})
        self.env.pop("WAYLAND_DISPLAY", None)
        self.log = open(self.data_home / "app.log", "ab")
        display.ensure_window_manager()
        self.proc = subprocess.Popen([*prefix, str(binary or BIN), *extra_args], env=self.env, cwd=cwd,
                                     stdout=self.log, stderr=subprocess.STDOUT)
        self.window = self._wait_window()
        self.xdo("windowmove", self.window, "0", "0")
        self.xdo("windowsize", self.window, "1200", "820")
        # The window manager may not have taken the window yet: try again.
        for _ in range(25):
            try:
                r = subprocess.run(["xdotool", "windowactivate", "--sync", self.window], env=self.env,
                                   capture_output=True, text=True, timeout=10)
            except subprocess.TimeoutExpired:
                # A message the app opened at start (modal, so it keeps the
                # focus) is as far as activating goes: waiting for the main
                # window again would only spend 10 s a try (seen: 250 s).
                if self.has_focus():
                    break
                display.ensure_window_manager(restart=True)
                continue
            if r.returncode == 0 and "error" not in r.stderr:
                break
            time.sleep(0.2)
        time.sleep(0.6)

    def has_focus(self):
        """Whether the active window is one of this app's."""
        active = subprocess.run(["xdotool", "getactivewindow", "getwindowpid"], env=self.env,
                                capture_output=True, text=True, timeout=10)
        return active.returncode == 0 and active.stdout.strip() == str(self.proc.pid)

    def _wait_window(self):
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"app exited with {self.proc.returncode}: {self.read_log()}")
            r = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(self.proc.pid),
                                "--name", "^Teamsketch$"],
                               env=self.env, capture_output=True, text=True)
            ids = r.stdout.split()
            if ids:
                return ids[-1]
            time.sleep(0.1)
        raise RuntimeError("no app window appeared: " + self.read_log())

    def main_thread_stack(self):
        """Where the app's main thread is now (gdb), for a wait that ran out:
        kept as main-thread.log beside app.log, and its first frames as
        text for the failure's message. Empty without gdb or a live app."""
        if self.proc.poll() is not None or not shutil.which("gdb"):
            return ""
        try:
            r = subprocess.run(["gdb", "-p", str(self.proc.pid), "-batch", "-ex", "thread 1", "-ex", "bt 30"],
                               capture_output=True, text=True, timeout=90)
        except subprocess.TimeoutExpired:
            return "; gdb did not answer within 90 s"
        (self.data_home / "main-thread.log").write_text(r.stdout + r.stderr)
        # "thread 1" prints the top frame once more: each line once.
        frames = list(dict.fromkeys(re.sub(r" \(.*", "", line) for line in r.stdout.splitlines() if line.startswith("#")))
        return "; the app's main thread was in:\n  " + "\n  ".join(frames[:14]) if frames else ""

    def read_log(self):
        self.log.flush()
        return (self.data_home / "app.log").read_text(errors="replace")

    def xdo(self, *args):
        subprocess.run(["xdotool", *map(str, args)], env=self.env, check=True)

    def xdo_out(self, *args):
        """xdotool's answer (a window's id, say)."""
        return subprocess.run(["xdotool", *map(str, args)], env=self.env, check=True, capture_output=True,
                              text=True, timeout=30).stdout

    def click(self, x, y, button=1):
        self.xdo("mousemove", "--sync", int(x), int(y))
        time.sleep(0.05)
        self.xdo("click", button)
        time.sleep(0.3)

    def key(self, *keys):
        self.xdo("key", "--clearmodifiers", *keys)
        time.sleep(0.25)

    def type(self, text):
        self.xdo("type", "--delay", "20", text)
        time.sleep(0.2)

    def drag(self, points, step_delay=0.012):
        x0, y0 = points[0]
        self.xdo("mousemove", "--sync", int(x0), int(y0))
        time.sleep(0.05)
        self.xdo("mousedown", 1)
        for x, y in points[1:]:
            self.xdo("mousemove", int(x), int(y))
            time.sleep(step_delay)
        self.xdo("mouseup", 1)
        time.sleep(0.4)

    def scroll(self, x, y, up=True, ctrl=False, times=1):
        self.xdo("mousemove", "--sync", int(x), int(y))
        if ctrl:
            self.xdo("keydown", "ctrl")
        for _ in range(times):
            self.xdo("click", 4 if up else 5)
            time.sleep(0.08)
        if ctrl:
            self.xdo("keyup", "ctrl")
        time.sleep(0.6)

    def screenshot(self, name):
        global _last_screenshot
        OUT.mkdir(parents=True, exist_ok=True)
        path = OUT / f"{name}.png"
        time.sleep(0.3)
        # Shards run at once and some take shots of the same name: each
        # captures into a file of its own, reads it, and only then puts it
        # in place, so nobody reads another's half-written file.
        own = OUT / f".{name}.{os.getpid()}.{time.monotonic_ns()}.png"
        subprocess.run(["import", "-window", "root", str(own)], env=self.env, check=True)
        image = Image.open(own).convert("RGB")
        os.replace(own, path)
        _last_screenshot = path
        return image

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def find_color(img, rgb, box=None, tol=40):
    """Pixels of colour `rgb` (within `tol`) in `box` (x0, y0, x1, y1)."""
    w, h = img.size
    x0, y0, x1, y1 = box or (0, 0, w, h)
    px = img.load()
    return [(x, y) for y in range(max(0, y0), min(h, y1)) for x in range(max(0, x0), min(w, x1))
            if close(px[x, y], rgb, tol)]


def bbox(points):
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def centre(points):
    x0, y0, x1, y1 = bbox(points)
    return (x0 + x1) / 2, (y0 + y1) / 2


def largest_white_rect(img, step=4):
    """The sheet: the biggest white area, found by scanning rows and columns
    through the middle of the window for runs of white."""
    w, h = img.size
    px = img.load()

    def run(line):
        best, start, bs = 0, None, (0, 0)
        for i, c in enumerate(line + [(0, 0, 0)]):
            if close(c, CANVAS_WHITE, 6):
                if start is None:
                    start = i
            elif start is not None:
                if i - start > best:
                    best, bs = i - start, (start, i - 1)
                start = None
        return bs

    mid_y = h // 2
    x0, x1 = run([px[x, mid_y] for x in range(w)])
    cx = (x0 + x1) // 2
    y0, y1 = run([px[cx, y] for y in range(h)])
    return x0, y0, x1, y1


def home_button(app, index):
    """The index-th big button on the home screen, left to right:
    0 New sketch (the blue one), 1 Draw together, 2 Join, 3 Open,
    4 Buchstaben Post. The window may still be taking the size the harness
    gave it: the place counts once two screenshots agree on it."""
    place = None
    for _ in range(20):
        home = app.screenshot(f"home-{app.proc.pid}")
        blue = find_color(home, SUGGESTED_BLUE, tol=25)
        assert blue, "the home screen's blue New sketch button is not visible"
        x0, y0, x1, y1 = bbox(blue)
        if (x0, y0, x1, y1) == place:
            break
        place = (x0, y0, x1, y1)
        time.sleep(0.2)
    step = (x1 - x0) + 32
    return x0 + (x1 - x0) / 2 + index * step, (y0 + y1) / 2


# The page (AppPage) each big home button opens, as the app logs it.
HOME_PAGES = {0: "new", 1: "new", 2: "join", 3: "gallery", 4: "wordpost-start"}


def press_home_button(app, index):
    """Clicks the index-th big home button (see `home_button`) and waits
    until the app has shown the screen it opens, so what is typed next
    lands there however slowly a busy machine draws."""
    line = f"page: {HOME_PAGES[index]}\n"
    before = app.read_log().count(line)
    app.click(*home_button(app, index))
    wait_for(lambda: app.read_log().count(line) > before, what=f"the {HOME_PAGES[index]} screen", app=app)


HOME_BACKGROUND = (0xFB, 0xF8, 0xF2)


def small_buttons(app):
    """The small buttons under the home screen's big ones, left to right:
    the teacher's, the school server's, then the sync status line when
    there is one. Each is (x0, y0, x1, y1); the row is the first band of
    non-background rows after the big buttons end."""
    home = app.screenshot("small-buttons")
    blue = bbox(find_color(home, SUGGESTED_BLUE, tol=25))
    # The window is 1200 × 820 at the screen's corner (App).
    w, h = min(home.size[0], 1190), min(home.size[1], 810)
    px = home.load()

    def marked(x, y):
        return sum(abs(a - b) for a, b in zip(px[x, y][:3], HOME_BACKGROUND)) > 30

    def row(y):
        return [x for x in range(20, w - 20, 2) if marked(x, y)]

    y = blue[3]
    while y < h and row(y):
        y += 1  # the rest of the big buttons
    while y < h and not row(y):
        y += 1  # the gap under them
    top = y
    xs = set()
    while y < h and row(y):
        xs.update(row(y))
        y += 1
    assert xs, "nothing under the big buttons"
    boxes, run = [], []
    for x in sorted(xs):
        if run and x - run[-1] > 6:
            boxes.append((run[0], top, run[-1], y - 1))
            run = []
        run.append(x)
    boxes.append((run[0], top, run[-1], y - 1))
    return boxes


# --- finding controls by their shape --------------------------------------

ACTIVE = (0x2B, 0x2B, 0x6E)          # a chosen toggle (.choice:checked)
DESTRUCTIVE_RED = (0xE0, 0x1B, 0x24)  # Adwaita's destructive-action buttons


def row_items(shot, y, x0=10, x1=1190):
    """What crosses row `y` (anything not the window's background), left
    to right, as (x0, x1) runs."""
    xs = [x for x in range(x0, x1) if sum(abs(a - b) for a, b in zip(shot.getpixel((x, y))[:3], HOME_BACKGROUND)) > 30]
    runs, run = [], []
    for x in xs:
        if run and x - run[-1] > 4:
            runs.append((run[0], run[-1]))
            run = []
        run.append(x)
    if run:
        runs.append((run[0], run[-1]))
    return runs


def edges(shot, x0, x1, y0, y1):
    """Borders of buttons and fields between y0 and y1: columns that are a
    border colour both above and below the text line (text is never that
    tall). Linked buttons share one."""
    def border(x, y):
        r, g, b = shot.getpixel((x, y))[:3]
        return 150 <= (r + g + b) / 3 <= 215 and max(r, g, b) - min(r, g, b) < 20
    ya, yb = y0 + (y1 - y0) // 5, y1 - (y1 - y0) // 5
    xs = [x for x in range(x0, x1) if border(x, ya) and border(x, yb)]
    out = []
    for x in xs:
        if not out or x - out[-1] > 6:
            out.append(x)
    return out


def controls(shot, top, height=70):
    """The separate controls of the row starting at `top`, left to right,
    as (x0, x1): pairs of the border columns of each."""
    found = edges(shot, 10, 1190, top, top + height)
    return [(found[i], found[i + 1]) for i in range(0, len(found) - 1, 2)]


def row_top(shot, y):
    """The first row at or below `y` with anything on it."""
    return next(r for r in range(y, 800, 2) if row_items(shot, r))


# --- shared by the tests -------------------------------------------------

ACCEPT_GREEN = (0x1E, 0x7B, 0x34)
TILE_YELLOW = (255, 212, 64)
EMPTY_SLOT = (232, 240, 255)


# The screen a waiting test last looked at, named when a wait runs out.
_last_screenshot = None


def wait_for(predicate, seconds=15, what="condition", app=None):
    """`what` may be a function, asked only on failure, so the message can
    say what there was instead. A wait that runs out says how long it
    waited, what the condition last gave and the last screenshot taken
    (with `app`, one taken as it ran out, where its main thread was and
    the end of its log: CI keeps only this message)."""
    started = time.time()
    deadline = started + seconds
    value = None
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.25)
    where = ""
    if app is not None:
        try:
            app.screenshot(f"timed-out-{app.proc.pid}")
        except Exception:       # the app may be what went away
            pass
        where = app.main_thread_stack()
        try:
            tail = app.read_log().splitlines()[-12:]
            where += "; the app's log ended:\n  " + "\n  ".join(tail)
        except Exception:
            pass
    seen = f"; last screenshot {_last_screenshot}" if _last_screenshot else ""
    raise AssertionError(f"timed out after {time.time() - started:.0f} s waiting for "
                         f"{what() if callable(what) else what} (last saw {repr(value)[:200]}{seen}){where}")


def settled_shot(app, name, box=None, seconds=15):
    """A screenshot once the window stopped changing (inside `box`): two
    shots in a row alike. A page that fills in from the server (a menu
    shown when the roster comes) can move what a click aims at between
    the shot it was found in and the click."""
    last = [None]

    def same():
        shot = app.screenshot(name)
        region = (shot.crop(box) if box else shot).tobytes()
        alike = region == last[0]
        last[0] = region
        return shot if alike else None
    return wait_for(same, seconds, what="the window to settle", app=app)


def pen_button(shot, sheet, rgb):
    below = find_color(shot, rgb, box=(0, sheet[3] + 4, shot.size[0], shot.size[1]), tol=20)
    assert below, f"no pen of colour {rgb} under the sheet"
    return below


def curve(sheet, n=40):
    x0, y0, x1, y1 = sheet
    w, h = x1 - x0, y1 - y0
    return [(x0 + w * (0.2 + 0.6 * t / n), y0 + h * (0.5 + 0.25 * math.sin(t / n * 2 * math.pi)))
            for t in range(n + 1)]


def near(points, p, r):
    return any((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2 <= r * r for q in points)


def blobs(img, rgb, tol=12, step=3, min_cells=30):
    """Connected regions of a colour, as bounding boxes (coarse grid)."""
    w, h = img.size
    px = img.load()
    cells = {(x, y) for y in range(0, h, step) for x in range(0, w, step)
             if all(abs(a - b) <= tol for a, b in zip(px[x, y], rgb))}
    out = []
    while cells:
        stack = [cells.pop()]
        region = []
        while stack:
            c = stack.pop()
            region.append(c)
            for d in ((step, 0), (-step, 0), (0, step), (0, -step)):
                n = (c[0] + d[0], c[1] + d[1])
                if n in cells:
                    cells.remove(n)
                    stack.append(n)
        if len(region) >= min_cells:
            xs = [p[0] for p in region]
            ys = [p[1] for p in region]
            out.append((min(xs), min(ys), max(xs), max(ys)))
    return sorted(out)


def mid(b):
    return ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)


def stroke_thickness(img, x, y0, y1, rgb):
    """How many pixels of column x between y0 and y1 are ink of `rgb`."""
    return len([y for y in range(y0, y1) if all(abs(a - b) <= 40 for a, b in zip(img.getpixel((x, y)), rgb))])


def save_file(app, path):
    """A file dialog is opening: the path typed, Return; waits for the file."""
    time.sleep(1.5)
    app.key("ctrl+a")
    app.type(str(path))
    app.key("Return")
    wait_for(lambda: path.exists() and path.stat().st_size > 0, what=f"{path.name} written")


def start_new_sketch(app, name):
    """Home → New sketch, the name typed, Return: (screenshot, sheet box)."""
    press_home_button(app, 0)
    app.key("ctrl+a")
    app.type(name)
    app.key("Return")
    return wait_for(lambda: shown_sheet(app, "canvas-empty"), what="the drawing sheet")


def draw_a_red_sketch(app, name):
    """Home → New sketch, a red line drawn, back at the start screen: the
    sketch is saved with its line."""
    shot, sheet = start_new_sketch(app, name)
    app.click(*centre(pen_button(shot, sheet, RED)))
    app.drag(curve(sheet))
    time.sleep(0.8)
    app.click(45, 60)                                   # home
    wait_for(lambda: "page: home" in app.read_log().split("page: canvas")[-1].splitlines(), what="the start screen")


def open_lobby(app, name):
    """Home → Draw together, the name typed, Return: the join code."""
    press_home_button(app, 1)
    app.key("ctrl+a")
    app.type(name)
    app.key("Return")
    return wait_for(lambda: re.search(r"hosting: code=(\d{6})", app.read_log()), what="the join code", app=app)[1]


def headless_host(data_home, title, start_with=2):
    """`TeamsketchDesktop host` on the command line, letting every drawer
    in and starting once `start_with` drawers (itself included) are in:
    (the process, its join code)."""
    env = {"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(data_home)}
    host = subprocess.Popen([str(BIN), "host", "--name", "Teacher", "--title", title, "--accept-all",
                             "--start-with", str(start_with)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines = []
    deadline = time.time() + 20
    while time.time() < deadline:
        line = host.stdout.readline()
        lines.append(line)
        m = re.match(r"code: (\d{6})", line)
        if m:
            return host, m[1]
    host.kill()
    raise AssertionError("the host printed no code: " + "".join(lines))


def join_by_code(app, code):
    """Home → Join, type the code, Return: how a pupil joins by hand."""
    press_home_button(app, 2)
    app.type(code)
    app.key("Return")


def shown_sheet(app, name):
    """(screenshot, sheet box) once a drawing sheet is on screen, else None."""
    shot = app.screenshot(name)
    s = largest_white_rect(shot)
    return (shot, s) if s[2] - s[0] > 500 and s[3] - s[1] > 300 else None


# --- the teacher's window ---------------------------------------------------

def blobs_in(shot, rgb, box, tol=10, min_cells=30):
    """`blobs` inside `box`, in the window's coordinates."""
    return [(b[0] + box[0], b[1] + box[1], b[2] + box[0], b[3] + box[1])
            for b in blobs(shot.crop(box), rgb, tol=tol, min_cells=min_cells)]


def biggest(found):
    return max(found, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) if found else None


def chosen_tab(app, name):
    """The teacher's window's chosen tab (Sketches, to start with) once the
    window is there: a dark block tab-sized (titles are the same colour)."""
    def tab():
        found = [b for b in blobs_in(app.screenshot(name), ACTIVE, (0, 20, 1200, 130))
                 if b[3] - b[1] >= 50 and b[2] - b[0] >= 80]
        return biggest(found)
    return wait_for(tab, what="the teacher's window")


def choose_teacher_pin(app, pin="1357"):
    """The teacher button on a computer without a PIN yet: the PIN chosen
    (typed twice); the teacher's window opens."""
    teacher = small_buttons(app)[0]
    app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)
    time.sleep(0.6)
    for _ in range(2):
        app.type(pin)
        app.key("Return")
        time.sleep(0.4)


def open_teacher_section(app, prefix, shows):
    """Opens the section of the teacher's window for which `shows(shot)` is
    true: the tabs are tried left to right, so new tabs move nothing. Tabs
    are the runs between the border columns beside the chosen tab."""
    tab = chosen_tab(app, f"{prefix}-teacher")
    shot = app.screenshot(f"{prefix}-tabs")
    candidates = []
    for x0, x1 in [(0, tab[0] - 2), (tab[2] + 3, 1200)]:
        found = edges(shot, x0, x1, tab[1], tab[3]) if x1 > x0 else []
        candidates += [(a, b) for a, b in zip(found, found[1:]) if b - a >= 60]
    for x0, x1 in candidates:
        app.click((x0 + x1) / 2, (tab[1] + tab[3]) / 2)
        time.sleep(1.5)
        shown = shows(app.screenshot(f"{prefix}-section"))
        if shown:
            return shown
    raise AssertionError("no section shows what was looked for")


def open_teacher_classes(app, prefix):
    """Opens the Classes section (signed in, with a class on the server):
    the one that shows a chosen class at the page's left (no other section
    has a chosen toggle there)."""
    tab = chosen_tab(app, f"{prefix}-teacher")
    return open_teacher_section(
        app, prefix, lambda shot: find_color(shot, ACTIVE, tol=10, box=(0, tab[3] + 5, 250, tab[3] + 110)))
