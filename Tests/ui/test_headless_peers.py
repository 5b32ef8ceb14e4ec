"""Headless peers with the real app: `host` on the command line, the app
joins by code and draws, `observe` watches silently and writes the sketch
when the host ends the session; the app keeps its own copy."""
import signal
import subprocess
import time

from PIL import Image

from harness import (App, BIN, RED, headless_host, centre, curve, find_color, join_by_code, pen_button,
                     shown_sheet, wait_for)


def test_app_joins_a_headless_host_and_an_observer_records_it(display, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path / "cli")}
    host, code = headless_host(tmp_path / "cli", "Headless")
    observer = None
    app = None
    try:
        out = tmp_path / "observed.png"
        observer = subprocess.Popen([str(BIN), "observe", "--join", code, "--out", str(out), "--name", "Projector"],
                                    env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

        (tmp_path / "app").mkdir()
        app = App(display, tmp_path / "app")
        join_by_code(app, code)
        shot, sheet = wait_for(lambda: shown_sheet(app, "headless-joined"),
                               what="the session to start (host + app = 2 painters)")
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        time.sleep(1.0)

        host.send_signal(signal.SIGINT)
        assert host.wait(20) == 0
        assert observer.wait(20) == 0, observer.stdout.read()
        picture = Image.open(out).convert("RGB")
        assert len(find_color(picture, RED, tol=30)) > 300, "the observer's copy lacks the app's stroke"

        ended = app.screenshot("headless-ended")
        assert find_color(ended, (0x2B, 0x2B, 0x6E), box=(sheet[0], 0, sheet[2], sheet[1] + 80), tol=10), \
            "the app does not say that the session ended"
    finally:
        for p in (host, observer):
            if p and p.poll() is None:
                p.kill()
        if app:
            app.stop()
    # The app's own stored copy, read back through the CLI.
    r = subprocess.run([str(BIN), "export", "Headless", str(tmp_path / "mine.png")],
                       env={"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path / "app")}, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(find_color(Image.open(tmp_path / "mine.png").convert("RGB"), RED, tol=30)) > 300
