"""A sketch that is full: the headless host (told the sketch holds one op)
refuses the app's second stroke, the app says so on its canvas and takes
that line off the sheet, and the host reports it; the first stroke stays
and nothing is cut off."""
import re
import signal
import subprocess
import time

from harness import App, BIN, RED, centre, curve, find_color, join_by_code, pen_button, shown_sheet, wait_for

BANNER_TEXT = (0x2B, 0x2B, 0x6E)


def test_a_full_sketch_tells_the_painter(display, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path / "cli")}
    host = subprocess.Popen([str(BIN), "host", "--name", "Teacher", "--title", "Full", "--accept-all",
                             "--start-with", "2", "--max-ops", "1"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    app = None
    try:
        lines = []
        code = None
        deadline = time.time() + 20
        while time.time() < deadline and code is None:
            line = host.stdout.readline()
            lines.append(line)
            m = re.match(r"code: (\d{6})", line)
            code = m and m[1]
        assert code, "host printed no code: " + "".join(lines)

        (tmp_path / "app").mkdir()
        app = App(display, tmp_path / "app")
        join_by_code(app, code)
        shot, sheet = wait_for(lambda: shown_sheet(app, "full-joined"), what="the session to start")
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        time.sleep(1.0)
        banner = (sheet[0], 0, sheet[2], sheet[1] + 80)
        assert not find_color(app.screenshot("full-first-stroke"), BANNER_TEXT, box=banner, tol=10), \
            "a message showed before the sketch was full"
        # The second stroke does not fit: the app says so.
        x0, y0, x1, y1 = sheet
        app.drag([(x0 + (x1 - x0) * (0.2 + 0.6 * i / 30), y0 + (y1 - y0) * 0.8) for i in range(31)])
        wait_for(lambda: find_color(app.screenshot("full-refused"), BANNER_TEXT, box=banner, tol=10),
                 what="the app's message that the sketch is full")
        # The refused line leaves the sheet (it is in nobody's sketch); the
        # first one stays.
        y = y0 + (y1 - y0) * 0.8
        line = (x0, int(y - 12), x1, int(y + 12))
        shot = wait_for(lambda: (lambda s: None if find_color(s, RED, box=line, tol=40) else s)(
            app.screenshot("full-refused-line-gone")), what="the refused line to leave the sheet")
        assert len(find_color(shot, RED, box=(x0, y0, x1, int(y - 20)), tol=40)) > 100, "the first stroke went too"

        host.send_signal(signal.SIGINT)
        out, _ = host.communicate(timeout=20)
        assert host.returncode == 0
        assert "refused an op of member 1: the sketch is full" in out, out
    finally:
        if host.poll() is None:
            host.kill()
        if app:
            app.stop()
