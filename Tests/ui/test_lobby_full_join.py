"""Joining a lobby that is full: the host (told that nobody more may wait)
declines the app's hello as "lobby full", and the join screen says so in
words a child can act on, instead of a bare "no"."""
import re
import subprocess
import time

from harness import App, BIN, join_by_code, wait_for


def test_the_join_screen_says_the_lobby_is_full(display, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path / "cli")}
    host = subprocess.Popen([str(BIN), "host", "--name", "Teacher", "--max-waiting", "0"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    app = None
    try:
        code = None
        deadline = time.time() + 20
        while time.time() < deadline and code is None:
            m = re.match(r"code: (\d{6})", host.stdout.readline())
            code = m and m[1]
        assert code, "host printed no code"
        (tmp_path / "app").mkdir()
        app = App(display, tmp_path / "app")
        join_by_code(app, code)
        wait_for(lambda: "the lobby is full" in app.read_log(), what="the app to be told the lobby is full")
        app.screenshot("lobby-full-join")
        assert "declined by the host" not in app.read_log()
    finally:
        if host.poll() is None:
            host.kill()
        if app:
            app.stop()
