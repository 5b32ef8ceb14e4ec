"""A flood of joiners in the host's lobby: with two or more waiting, one big
red button sends them all away at once (each joiner is told it was
declined), and the lobby is empty again."""
import re
import subprocess

from harness import ACCEPT_GREEN, DESTRUCTIVE_RED, App, BIN, blobs, press_home_button, mid, wait_for


def _ticks(shot):
    return blobs(shot, ACCEPT_GREEN, tol=30, step=1, min_cells=20)


def _red_share(shot, box, step=4):
    """The part of `box` that is red: most of a button, a quarter of a frame."""
    points = [(x, y) for y in range(box[1], box[3], step) for x in range(box[0], box[2], step)]
    red = sum(all(abs(a - b) <= 40 for a, b in zip(shot.getpixel(p)[:3], DESTRUCTIVE_RED)) for p in points)
    return red / max(1, len(points))


def _big_red_button(shot):
    """The largest red region wide and tall enough to be a big button, and
    filled like one. The session sign is red for one session in eight and
    may hold red pictures (a heart, an apple): its band and pictures fill
    about half of its box, the button's red nine tenths (white only in its
    icon and words), so only a region at least four fifths red counts."""
    found = [b for b in blobs(shot, DESTRUCTIVE_RED, tol=40, step=3, min_cells=200)
             if b[2] - b[0] >= 150 and b[3] - b[1] >= 100 and _red_share(shot, b) >= 0.8]
    return max(found, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) if found else None


def test_one_click_sends_everyone_waiting_away(display, tmp_path):
    (tmp_path / "host").mkdir()
    host = App(display, tmp_path / "host")
    watchers = []
    try:
        press_home_button(host, 1)          # Draw together
        host.key("ctrl+a")
        host.type("Flood")
        host.key("Return")
        code = wait_for(lambda: re.search(r"hosting: code=(\d{6})", host.read_log()), what="the join code")[1]
        env = {"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path / "cli")}
        # One waiting joiner: no such button yet (its own ✗ is enough).
        watchers.append(subprocess.Popen([str(BIN), "observe", "--join", code, "--out", str(tmp_path / "w0.png"),
                                          "--name", "Stranger 0"], env=env, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True))
        wait_for(lambda: len(_ticks(host.screenshot("flood-one"))) == 1, what="the first joiner waiting")
        assert _big_red_button(host.screenshot("flood-one")) is None
        for n in (1, 2):
            watchers.append(subprocess.Popen([str(BIN), "observe", "--join", code,
                                              "--out", str(tmp_path / f"w{n}.png"), "--name", f"Stranger {n}"],
                                             env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
        wait_for(lambda: len(_ticks(host.screenshot("flood-three"))) == 3, what="three joiners waiting")
        button = wait_for(lambda: _big_red_button(host.screenshot("flood-three")), what="the send-all-away button")
        host.click(*mid(button))
        for w in watchers:
            w.wait(timeout=15)
            assert w.returncode == 3, f"a joiner was not declined (exit {w.returncode})"
        wait_for(lambda: not _ticks(host.screenshot("flood-cleared"))
                 and _big_red_button(host.screenshot("flood-cleared")) is None,
                 what="an empty lobby without the button")
    finally:
        for w in watchers:
            if w.poll() is None:
                w.kill()
        host.stop()
