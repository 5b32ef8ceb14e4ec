"""Watchers ask like painters: two headless `observe` processes calling
themselves "Anna" wait in the app host's lobby with a ✓ each (and both rows
say that two asked for one name); only the one the host lets in is
accepted."""
import re
import select
import subprocess
import time

from harness import ACCEPT_GREEN, App, BIN, blobs, press_home_button, mid, wait_for


def _ticks(shot):
    """The ✓ buttons' green ticks (thin strokes: a fine grid)."""
    return blobs(shot, ACCEPT_GREEN, tol=30, step=1, min_cells=20)


def _lines_until(proc, pattern, seconds):
    """Reads proc's stdout until a line matches or time runs out; the lines read."""
    seen = []
    deadline = time.time() + seconds
    while time.time() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            if re.search(pattern, line):
                return True, seen
    return False, seen


def test_watchers_wait_for_the_host_and_only_the_accepted_one_gets_in(display, tmp_path):
    (tmp_path / "host").mkdir()
    host = App(display, tmp_path / "host")
    watchers = []
    try:
        press_home_button(host, 1)          # Draw together
        host.key("ctrl+a")
        host.type("Watched")
        host.key("Return")
        code = wait_for(lambda: re.search(r"hosting: code=(\d{6})", host.read_log()), what="the join code")[1]
        env = {"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path / "cli")}

        def watch(n):
            return subprocess.Popen([str(BIN), "observe", "--join", code, "--out", str(tmp_path / f"w{n}.png"),
                                     "--name", "Anna"], env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True)

        watchers.append(watch(1))
        wait_for(lambda: len(_ticks(host.screenshot("watchers-one"))) == 1,
                 what="the first watcher's ✓ in the host's lobby")
        watchers.append(watch(2))
        shot = None

        def two():
            nonlocal shot
            shot = host.screenshot("watchers-two-annas")
            found = _ticks(shot)
            return found if len(found) == 2 else None
        buttons = sorted(wait_for(two, what="both watchers waiting with a ✓"), key=lambda b: b[1])

        # Nobody is let in without the host.
        let_in, seen = _lines_until(watchers[0], r"^accepted", 1.5)
        assert not let_in, "a watcher got in without the host: " + "".join(seen)

        host.click(*mid(buttons[0]))                # the first row: the first watcher
        let_in, seen = _lines_until(watchers[0], r"^accepted", 15)
        assert let_in, "the accepted watcher was not told: " + "".join(seen)
        wait_for(lambda: len(_ticks(host.screenshot("watchers-one-left"))) == 1,
                 what="only the second watcher still waiting")
        let_in, seen = _lines_until(watchers[1], r"^accepted", 1.0)
        assert not let_in, "the second watcher got in unasked: " + "".join(seen)
    finally:
        for w in watchers:
            if w.poll() is None:
                w.kill()
        host.stop()


def test_a_watcher_who_comes_after_the_start_is_let_in_from_the_hosts_sheet(display, tmp_path):
    """The teacher's class wall comes when the groups already draw: the
    host's sheet shows who asks, with a ✓, and the ✓ lets them watch."""
    from harness import ACCEPT_GREEN as GREEN, Display, SUGGESTED_BLUE, centre, find_color, join_by_code, \
        open_lobby, shown_sheet

    second = Display().start()
    (tmp_path / "host").mkdir()
    (tmp_path / "guest").mkdir()
    host = App(display, tmp_path / "host")
    guest = None
    watcher = None
    try:
        code = open_lobby(host, "Started")
        guest = App(second, tmp_path / "guest")
        join_by_code(guest, code)
        host.click(*centre(wait_for(lambda: find_color(host.screenshot("late-asked"), GREEN, tol=30),
                                    what="the guest in the host's lobby")))
        time.sleep(0.5)
        host.click(*centre(find_color(host.screenshot("late-ready"), SUGGESTED_BLUE, tol=25)))
        _, sheet = wait_for(lambda: shown_sheet(host, "late-host-canvas"), what="the host's sheet")

        def requests(name):
            # On the sheet, above the green felt pen in the bar below it.
            return [b for b in _ticks(host.screenshot(name)) if b[3] < sheet[3] - 40]
        assert not requests("late-no-request"), "nobody asks yet"

        watcher = subprocess.Popen([str(BIN), "observe", "--join", code, "--out", str(tmp_path / "wall.png"),
                                    "--name", "Frau Berg"],
                                   env={"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path / "cli")},
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        tick = wait_for(lambda: requests("late-request"), what="the watcher's ✓ on the host's sheet")
        assert len(tick) == 1
        let_in, seen = _lines_until(watcher, r"^accepted", 1.5)
        assert not let_in, "the watcher got in without the host: " + "".join(seen)
        host.click(*mid(tick[0]))
        let_in, seen = _lines_until(watcher, r"^accepted", 15)
        assert let_in, "the watcher was not let in: " + "".join(seen)
        wait_for(lambda: not requests("late-request-gone"), what="the request to leave the sheet")
    finally:
        if watcher and watcher.poll() is None:
            watcher.kill()
        for app in (host, guest):
            if app:
                app.stop()
        second.stop()
