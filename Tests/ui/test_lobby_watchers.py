"""Watchers ask like painters: two headless `observe` processes calling
themselves "Anna" wait in the app host's lobby with a ✓ each (and both rows
say that two asked for one name); only the one the host lets in is
accepted."""
import re
import select
import subprocess
import time

from harness import ACCEPT_GREEN, App, BIN, blobs, home_button, mid, wait_for


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
        host.click(*home_button(host, 1))          # Draw together
        time.sleep(0.4)
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
